package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// wanted is one value a request needs: a prompt argument or a template
// variable.
type wanted struct {
	name        string
	description string
	required    bool
}

// askMissing asks for each wanted value not in given, in order, offering
// the server's completion/complete suggestions (with the values chosen so
// far as their context), and adds the answers to given.
func askMissing(ctx context.Context, s *client.Session, ask valueAsker, ref *mcp.CompleteReference, what string, want []wanted, given map[string]string) error {
	for _, w := range want {
		if _, ok := given[w.name]; ok {
			continue
		}
		q := render.Question{Server: s.Server(), For: what, Name: w.name, Description: w.description, Required: w.required}
		c, err := s.Complete(ctx, ref, w.name, "", given)
		switch {
		case err == nil:
			q.Suggestions, q.More = c.Values, c.More
		case ctx.Err() != nil:
			return beforeSending(ctx, ctx.Err())
		}
		// A server that fails to complete is still asked the request:
		// the person types the value.
		v, err := ask.AskValue(ctx, q)
		if errors.Is(err, render.ErrSkipped) {
			continue
		}
		if err != nil {
			return beforeSending(ctx, err)
		}
		given[w.name] = v
	}
	return nil
}

// template is a resource URI template given to read, with its --var
// values.
type template struct {
	raw  string
	t    *uritemplate.Template
	vars map[string]string
}

// parseTemplate reads a URI template (anything with a "{") and the --var
// K=V flags that fill it.
func parseTemplate(cmd *cobra.Command, raw string, vars []string) (*template, error) {
	values := map[string]string{}
	seen := map[string]bool{}
	for _, kv := range vars {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usageErrorf(cmd, "--var %q must look like NAME=VALUE", kv)
		}
		if err := once(seen, "--var", k); err != nil {
			return nil, usageErrorf(cmd, "%v", err)
		}
		values[k] = v
	}
	if !isTemplate(raw) && len(vars) > 0 {
		return nil, usageErrorf(cmd, "--var fills a URI template (a URI with {variables}, as 'mcpcli resources' lists them); %q has none", raw)
	}
	t, err := newTemplate(raw, values)
	if err != nil {
		return nil, usageErrorf(cmd, "%v", err)
	}
	return t, nil
}

// isTemplate says whether raw is a URI template rather than a URI.
func isTemplate(raw string) bool { return strings.Contains(raw, "{") }

// newTemplate reads a URI template with the values given for its
// variables; nil for a plain URI (see isTemplate).
func newTemplate(raw string, values map[string]string) (*template, error) {
	if !isTemplate(raw) {
		return nil, nil
	}
	t, err := uritemplate.New(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URI template: %v", raw, err)
	}
	known := map[string]bool{}
	for _, n := range t.Varnames() {
		known[n] = true
	}
	for k := range values {
		if !known[k] {
			return nil, fmt.Errorf("template %q has no variable %q; its variables are: %s", raw, k, strings.Join(t.Varnames(), ", "))
		}
	}
	return &template{raw: raw, t: t, vars: values}, nil
}

// missing are the template's variables without a value.
func (t *template) missing() []string {
	var out []string
	for _, n := range t.t.Varnames() {
		if _, ok := t.vars[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// expand fills the template in.
func (t *template) expand() (string, error) {
	vals := uritemplate.Values{}
	for k, v := range t.vars {
		vals.Set(k, uritemplate.String(v))
	}
	u, err := t.t.Expand(vals)
	if err != nil {
		return "", fmt.Errorf("expanding %q: %v", t.raw, err)
	}
	return u, nil
}

// fill asks for the template's missing variables, then expands it.
func (t *template) fill(ctx context.Context, s *client.Session, ask valueAsker) (string, error) {
	if missing := t.missing(); len(missing) > 0 {
		want := make([]wanted, len(missing))
		for i, n := range missing {
			want[i] = wanted{name: n, required: true}
		}
		ref := &mcp.CompleteReference{Type: "ref/resource", URI: t.raw}
		if err := askMissing(ctx, s, ask, ref, "resource template "+t.raw, want, t.vars); err != nil {
			return "", err
		}
	}
	return t.expand()
}

// resolve is the URI to read: the template filled in, its missing
// variables asked of ask, and said on con.
func (t *template) resolve(ctx context.Context, s *client.Session, con *render.Console, ask valueAsker) (string, error) {
	uri, err := t.fill(ctx, s, ask)
	if err != nil {
		return "", err
	}
	con.Printf("mcpcli: reading %s", render.Line(uri))
	return uri, nil
}
