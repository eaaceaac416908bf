package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/render"
)

func (a *app) newCallCmd() *cobra.Command {
	var argsJSON string
	cmd := &cobra.Command{
		Use:   "call TOOL [KEY=VALUE ...]",
		Short: "Call a tool, answering what the server asks along the way",
		Long: `call calls TOOL with arguments. KEY=VALUE pairs are typed by the tool's
inputSchema: integers, numbers and booleans are parsed, arrays and objects are
read as JSON, strings are kept exactly as typed. --args gives the arguments as
one JSON object (or @FILE); KEY=VALUE pairs are applied on top of it.

When the server answers input_required, mcpcli asks you (or reads --answers)
and retries, round after round, until the result arrives.

Exit status: 0 done, 1 error, 2 the tool reported an error (isError),
130 you abandoned the request.`,
		Example: `  mcpcli call delete_project project=apollo -- mcpcli demo-server
  mcpcli call edit_profile --answers answers.json -o json -- mcpcli demo-server
  mcpcli call search --args '{"query": "mcp", "limit": 5}' --url http://127.0.0.1:8080/mcp`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = a.splitDash(cmd, args)
			if len(args) == 0 {
				return usageErrorf(cmd, "name the tool to call: mcpcli call TOOL [KEY=VALUE ...]; 'mcpcli tools' lists them")
			}
			name, pairs := args[0], args[1:]
			base, err := parseArgsFlag(cmd, argsJSON)
			if err != nil {
				return err
			}
			kvs, err := splitPairs(cmd, pairs)
			if err != nil {
				return err // before starting any server
			}
			return a.withSession(cmd, func(ctx context.Context, s *session) error {
				tools, err := listTools(ctx, s)
				if err != nil {
					return err
				}
				var tool *mcp.Tool
				for _, t := range tools {
					if t.Name == name {
						tool = t
					}
				}
				if tool == nil && s.wire.listed(name) {
					return fmt.Errorf("server %q lists tool %q, but its x-mcp-header annotations are invalid (see the warning), so mcpcli leaves it out; the server's inputSchema must be fixed", s.Server().Display(), name)
				}
				if tool == nil {
					return fmt.Errorf("server %q has no tool %q; run 'mcpcli tools' to list them", s.Server().Display(), name)
				}
				arguments, err := coerceArgs(cmd, a, tool, base, kvs)
				if err != nil {
					return err
				}
				res, err := s.CallTool(ctx, name, arguments)
				if err != nil {
					return err
				}
				if a.flags.output == "json" {
					if err := render.WriteJSON(a.deps.Out, res); err != nil {
						return err
					}
				} else {
					render.ToolResult(a.deps.Out, res)
				}
				if res.IsError {
					return toolError{}
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&argsJSON, "args", "", "tool arguments as a JSON object, or @FILE")
	return cmd
}

func parseArgsFlag(cmd *cobra.Command, raw string) (map[string]any, error) {
	if raw == "" {
		return map[string]any{}, nil
	}
	data := []byte(raw)
	if strings.HasPrefix(raw, "@") {
		b, err := os.ReadFile(raw[1:])
		if err != nil {
			return nil, usageErrorf(cmd, "--args %s: %v", raw, err)
		}
		data = b
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, usageErrorf(cmd, "--args must be a JSON object like '{\"key\": \"value\"}': %v", errOr(err, "got null"))
	}
	return normalizeNumbers(m).(map[string]any), nil
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// normalizeNumbers turns json.Number into int64 when whole, else float64,
// so that 5 is sent as 5 and not 5.0.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

type pair struct{ key, value string }

func splitPairs(cmd *cobra.Command, args []string) ([]pair, error) {
	var out []pair
	for _, arg := range args {
		k, v, ok := strings.Cut(arg, "=")
		if !ok || k == "" {
			return nil, usageErrorf(cmd, "argument %q must look like KEY=VALUE", arg)
		}
		out = append(out, pair{k, v})
	}
	return out, nil
}

// schemaProps reads properties and required names from an input schema.
func schemaProps(schema any) (map[string]any, map[string]bool) {
	m, _ := schema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	if rs, ok := m["required"].([]any); ok {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	return props, required
}

// propType is a property's type ("" when unknown); of a type list, the
// first that is not null.
func propType(p any) string {
	m, _ := p.(map[string]any)
	switch t := m["type"].(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// nullable reports whether a property's type list allows null.
func nullable(p any) bool {
	m, _ := p.(map[string]any)
	if t, ok := m["type"].([]any); ok {
		for _, e := range t {
			if e == "null" {
				return true
			}
		}
	}
	return m["type"] == "null"
}

// coerceArgs applies KEY=VALUE pairs over base, typed by the tool's schema.
func coerceArgs(cmd *cobra.Command, a *app, tool *mcp.Tool, base map[string]any, pairs []pair) (map[string]any, error) {
	props, required := schemaProps(tool.InputSchema)
	closed := false
	if m, ok := tool.InputSchema.(map[string]any); ok {
		if ap, ok := m["additionalProperties"].(bool); ok && !ap {
			closed = true
		}
	}
	out := base
	for _, p := range pairs {
		prop, known := props[p.key]
		if !known && closed {
			return nil, usageErrorf(cmd, "tool %q has no argument %q; its arguments are: %s", tool.Name, p.key, strings.Join(slices.Sorted(maps.Keys(props)), ", "))
		}
		if p.value == "null" && nullable(prop) {
			out[p.key] = nil
			continue
		}
		v, err := coerce(propType(prop), p.value)
		if err != nil {
			return nil, usageErrorf(cmd, "argument %s=%q: %v", p.key, p.value, err)
		}
		out[p.key] = v
	}
	var missing []string
	for name := range required {
		if _, ok := out[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		fmt.Fprintf(a.deps.Err, "mcpcli: note: tool %q marks %s as required; sending without (the server will say if it minds)\n",
			render.Line(tool.Name), render.Line(strings.Join(missing, ", ")))
	}
	return out, nil
}

func coerce(typ, value string) (any, error) {
	switch typ {
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			// JSON has no limit on integers; the server may have none.
			b, _ := new(big.Int).SetString(strings.TrimSpace(value), 10)
			return json.Number(b.String()), nil
		}
		if err != nil {
			return nil, fmt.Errorf("the tool wants a whole number")
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) || math.IsInf(f, 0) {
			// JSON has no NaN or infinity (nor numbers past float64).
			return nil, fmt.Errorf("the tool wants a number")
		}
		return f, nil
	case "boolean":
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "true", "yes", "1":
			return true, nil
		case "false", "no", "0":
			return false, nil
		}
		return nil, fmt.Errorf("the tool wants true or false")
	case "array", "object":
		dec := json.NewDecoder(strings.NewReader(value))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("the tool wants a JSON %s: %v", typ, err)
		}
		if _, isArr := v.([]any); typ == "array" && !isArr {
			return nil, fmt.Errorf("the tool wants a JSON array like [1, 2]")
		}
		if _, isObj := v.(map[string]any); typ == "object" && !isObj {
			return nil, fmt.Errorf("the tool wants a JSON object like {\"k\": 1}")
		}
		return normalizeNumbers(v), nil
	}
	return value, nil // strings, and anything untyped, exactly as typed
}

func (a *app) newPromptCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "prompt NAME [KEY=VALUE ...]",
		Short: "Get a prompt, answering what the server asks along the way",
		Long: `prompt gets the prompt NAME and prints its messages. Prompt arguments are
always strings: KEY=VALUE pairs are sent exactly as typed ('mcpcli prompts'
lists each prompt's arguments, required ones without brackets).

When the server answers input_required, mcpcli asks you (or reads --answers)
and retries, round after round, until the messages arrive.

Exit status: 0 done, 1 error, 130 you abandoned the request.`,
		Example: `  mcpcli prompt release_notes version=2.0 -- mcpcli demo-server
  mcpcli prompt code_review file=main.go -o json --url http://127.0.0.1:8080/mcp`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = a.splitDash(cmd, args)
			if len(args) == 0 {
				return usageErrorf(cmd, "name the prompt: mcpcli prompt NAME [KEY=VALUE ...]; 'mcpcli prompts' lists them")
			}
			pairs, err := splitPairs(cmd, args[1:])
			if err != nil {
				return err
			}
			arguments := map[string]string{}
			for _, p := range pairs {
				arguments[p.key] = p.value
			}
			return a.withSession(cmd, func(ctx context.Context, s *session) error {
				res, err := s.GetPrompt(ctx, args[0], arguments)
				if err != nil {
					return err
				}
				if a.flags.output == "json" {
					return render.WriteJSON(a.deps.Out, res)
				}
				render.PromptResult(a.deps.Out, res)
				return nil
			})
		},
	}
}

func (a *app) newReadCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "read URI",
		Short: "Read a resource, answering what the server asks along the way",
		Long: `read reads the resource at URI, given exactly as 'mcpcli resources' lists it
(quote it for the shell), and prints its contents: text as it is, binary
contents as a one-line summary; -o json gives everything.

When the server answers input_required, mcpcli asks you (or reads --answers)
and retries, round after round, until the contents arrive.

Exit status: 0 done, 1 error, 130 you abandoned the request.`,
		Example: `  mcpcli read demo://reports/q3 -- mcpcli demo-server
  mcpcli read file:///notes.txt -o json --url http://127.0.0.1:8080/mcp`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = a.splitDash(cmd, args)
			if len(args) != 1 {
				return usageErrorf(cmd, "give one resource URI: mcpcli read URI; 'mcpcli resources' lists them")
			}
			return a.withSession(cmd, func(ctx context.Context, s *session) error {
				res, err := s.ReadResource(ctx, args[0])
				var je *jsonrpc.Error
				if errors.As(err, &je) && (je.Code == jsonrpc.CodeInvalidParams || je.Code == -32002) {
					// 2026-07-28 answers an unknown resource with -32602;
					// older servers with -32002.
					return fmt.Errorf("server %q could not read %q (%d: %s); run 'mcpcli resources' to list what it has",
						s.Server().Display(), args[0], je.Code, je.Message)
				}
				if err != nil {
					return err
				}
				if a.flags.output == "json" {
					return render.WriteJSON(a.deps.Out, res)
				}
				render.ResourceResult(a.deps.Out, res)
				return nil
			})
		},
	}
}
