package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpcli/mcpcli/client"
)

// What the list commands print (tools, prompts, resources), one-shot and
// in the line shell alike.

// NotOffered says, when err is a list of what the server does not offer,
// that it does not: on w, or with asJSON on con (stdout carries only what
// the server sent, and it sent nothing). It is not a failure.
func NotOffered(w io.Writer, con *Console, asJSON bool, err error) bool {
	var no *client.NotOfferedError
	if !errors.As(err, &no) {
		return false
	}
	if asJSON {
		con.Printf("mcpcli: %s", Line(no.Error()))
		return true
	}
	fmt.Fprintf(w, "(the server does not offer %s: it declares no %s capability)\n", no.Feature, no.Feature)
	return true
}

// Resources prints the server's resources, then its resource templates
// with how to read one (readTemplate); with asJSON, both lists as the
// server sent them.
func Resources(w io.Writer, list *client.ResourceList, templates *client.TemplateList, asJSON bool, readTemplate string) error {
	if asJSON {
		resources := make([]any, len(list.Resources))
		for i, r := range list.Resources {
			resources[i] = rawOr(list.Raw[r.URI], r)
		}
		ts := make([]any, len(templates.Templates))
		for i, t := range templates.Templates {
			ts[i] = rawOr(templates.Raw[t.URITemplate], t)
		}
		return WriteJSON(w, map[string]any{"resources": resources, "resourceTemplates": ts})
	}
	if len(list.Resources) == 0 && len(templates.Templates) == 0 {
		fmt.Fprintln(w, "(the server has no resources)")
	}
	for _, r := range list.Resources {
		listEntry(w, r.URI, r.Title, r.Name, r.MIMEType, r.Description)
	}
	if len(templates.Templates) > 0 {
		if len(list.Resources) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Templates (%s):\n", readTemplate)
		for _, t := range templates.Templates {
			listEntry(w, t.URITemplate, t.Title, t.Name, t.MIMEType, t.Description)
		}
	}
	return nil
}

// RawList prints {"key": [...]} with each item as the server sent it (or
// as the go-sdk decoded it, where the bytes were not seen).
func RawList[T any](w io.Writer, key string, items []T, raw func(T) json.RawMessage) error {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = rawOr(raw(it), it)
	}
	return WriteJSON(w, map[string]any{key: out})
}

// rawOr is the server's bytes of an item, or the item as decoded where
// they were not seen.
func rawOr(raw json.RawMessage, v any) any {
	if raw != nil {
		return raw
	}
	return v
}

// listEntry is one resource or template: its URI, name and MIME type,
// then its description, indented.
func listEntry(w io.Writer, uri, title, name, mimeType, description string) {
	if title == "" {
		title = name
	}
	fmt.Fprintf(w, "%s  %s", Line(uri), Line(title))
	if mimeType != "" {
		fmt.Fprintf(w, " (%s)", Line(mimeType))
	}
	fmt.Fprintln(w)
	if description != "" {
		fmt.Fprintf(w, "    %s\n", Line(description))
	}
}

// WarnDropped says which listed tools were left out, and why.
func WarnDropped(con *Console, list *client.ToolList) {
	for _, d := range list.Dropped {
		con.Warn(fmt.Sprintf("tool %q is left out: its inputSchema is invalid (%s)", d.Name, d.Reason))
	}
}
