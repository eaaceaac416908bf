package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// WriteJSON writes v as indented JSON and a newline: the -o json output.
// Raw values inside it (json.RawMessage) keep the server's bytes and key
// order; strings keep <, > and & as they are. Controls that could act on
// a terminal are escaped.
func WriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(textsafe.EscapeJSON(b.Bytes()))
	return err
}

// WriteRaw writes JSON exactly as the server sent it, indented, and a
// newline: -o json of a result.
func WriteRaw(w io.Writer, raw json.RawMessage) error {
	if err := validJSON(raw); err != nil {
		return err
	}
	return writeIndented(w, raw)
}

// PrintResult writes the final result of a request: as the server sent it
// (asJSON), or for a person.
func PrintResult(w io.Writer, res *client.Result, asJSON bool) error {
	if asJSON {
		if res.Raw != nil {
			return WriteRaw(w, res.Raw)
		}
		switch {
		case res.Tool != nil:
			return WriteJSON(w, res.Tool)
		case res.Prompt != nil:
			return WriteJSON(w, res.Prompt)
		case res.Resource != nil:
			return WriteJSON(w, res.Resource)
		}
		return nil
	}
	switch {
	case res.Tool != nil:
		ToolResult(w, res.Tool)
	case res.Prompt != nil:
		PromptResult(w, res.Prompt)
	case res.Resource != nil:
		ResourceResult(w, res.Resource)
	}
	return nil
}

// ToolResult writes a tool result for a person: each content block
// readably, then structuredContent pretty-printed when it adds something.
func ToolResult(w io.Writer, res *mcp.CallToolResult) {
	if res.IsError {
		fmt.Fprintln(w, "The tool reported an error:")
	}
	Contents(w, res.Content)
	if res.StructuredContent != nil && !structuredRestates(res) {
		b, err := json.MarshalIndent(elideBase64(res.StructuredContent), "", "  ")
		if err == nil {
			b = textsafe.EscapeJSON(b)
			if len(res.Content) > 0 {
				fmt.Fprintln(w, "structuredContent:")
			}
			fmt.Fprintln(w, Sanitize(string(b)))
		}
	}
	if len(res.Content) == 0 && res.StructuredContent == nil {
		fmt.Fprintln(w, "(the tool returned no content)")
	}
}

// Restates reports whether a tool result's structuredContent only says
// again what its content blocks show (the text output leaves it out then).
func Restates(res *mcp.CallToolResult) bool { return structuredRestates(res) }

// structuredRestates reports whether structuredContent only says again what
// the content blocks already show, so that printing it would say it twice:
// the text is its JSON; or it is one field ({"content": …}, {"entities":
// …}) holding the text, the text's JSON, or the content blocks themselves.
func structuredRestates(res *mcp.CallToolResult) bool {
	var text strings.Builder
	texts := 0
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if texts > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(t.Text)
			texts++
		}
	}
	sc := canonicalJSON(res.StructuredContent)
	if sc == "" {
		return false
	}
	var parsed any
	textJSON := ""
	if texts > 0 && json.Unmarshal([]byte(text.String()), &parsed) == nil {
		textJSON = canonicalJSON(parsed)
	}
	if textJSON != "" && textJSON == sc {
		return true
	}
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		var v any
		if json.Unmarshal([]byte(sc), &v) == nil {
			m, ok = v.(map[string]any)
		}
	}
	if !ok || len(m) != 1 {
		return false
	}
	for _, v := range m {
		if s, isStr := v.(string); isStr && texts > 0 && strings.TrimSpace(s) == strings.TrimSpace(text.String()) {
			return true
		}
		one := canonicalJSON(v)
		if textJSON != "" && one == textJSON {
			return true
		}
		if one == canonicalJSON(res.Content) {
			return true
		}
	}
	return false
}

// canonicalJSON is v as JSON with sorted keys, or "" when it is not JSON.
func canonicalJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var x any
	if json.Unmarshal(b, &x) != nil {
		return ""
	}
	b, _ = json.Marshal(x)
	return string(b)
}

// elideBase64 returns v with long base64 strings (image data, blobs)
// replaced by a note of their size: text output never dumps them.
func elideBase64(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var x any
	if json.Unmarshal(b, &x) != nil {
		return v
	}
	var walk func(any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		case string:
			if len(t) >= 256 && looksBase64(t) {
				return fmt.Sprintf("[base64, %s]", Size(len(t)*3/4))
			}
		}
		return v
	}
	return walk(x)
}

func looksBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// PromptResult writes a prompt's messages.
func PromptResult(w io.Writer, res *mcp.GetPromptResult) {
	if res.Description != "" {
		fmt.Fprintln(w, Sanitize(res.Description))
		fmt.Fprintln(w)
	}
	for _, m := range res.Messages {
		fmt.Fprintf(w, "[%s]\n", Line(string(m.Role)))
		Contents(w, []mcp.Content{m.Content})
	}
}

// ResourceResult writes a resource's contents.
func ResourceResult(w io.Writer, res *mcp.ReadResourceResult) {
	for i, c := range res.Contents {
		if len(res.Contents) > 1 || i > 0 {
			fmt.Fprintf(w, "── %s ──\n", Line(c.URI))
		}
		resourceContents(w, c)
	}
	if len(res.Contents) == 0 {
		fmt.Fprintln(w, "(the resource has no contents)")
	}
}

func resourceContents(w io.Writer, c *mcp.ResourceContents) {
	if c == nil {
		return
	}
	switch {
	case c.Text != "":
		fmt.Fprintln(w, strings.TrimRight(Sanitize(c.Text), "\n"))
	case len(c.Blob) > 0 && textBlob(c.MIMEType, c.Blob):
		// A text/* blob is text: shown decoded, sanitized like any.
		fmt.Fprintf(w, "[blob %s %s, decoded]\n", mimeOr(c.MIMEType, "text"), Size(len(c.Blob)))
		fmt.Fprintln(w, strings.TrimRight(Sanitize(string(c.Blob)), "\n"))
	case len(c.Blob) > 0:
		fmt.Fprintf(w, "[blob %s %s]\n", mimeOr(c.MIMEType, "application/octet-stream"), Size(len(c.Blob)))
	default:
		fmt.Fprintf(w, "[empty %s]\n", mimeOr(c.MIMEType, "resource"))
	}
}

// Contents writes content blocks.
func Contents(w io.Writer, cs []mcp.Content) {
	for _, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			// Written as it is: fmt would copy a 100 MB text into its buffer.
			io.WriteString(w, strings.TrimRight(Sanitize(c.Text), "\n"))
			io.WriteString(w, "\n")
		case *mcp.ImageContent:
			fmt.Fprintf(w, "[image %s %s]\n", mimeOr(Line(c.MIMEType), "image"), Size(len(c.Data)))
		case *mcp.AudioContent:
			fmt.Fprintf(w, "[audio %s %s]\n", mimeOr(Line(c.MIMEType), "audio"), Size(len(c.Data)))
		case *mcp.ResourceLink:
			name := c.Title
			if name == "" {
				name = c.Name
			}
			fmt.Fprintf(w, "[link %s] %s", Line(name), Line(c.URI))
			if c.MIMEType != "" {
				fmt.Fprintf(w, " (%s)", Line(c.MIMEType))
			}
			fmt.Fprintln(w)
			if c.Description != "" {
				fmt.Fprintf(w, "  %s\n", Line(c.Description))
			}
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				fmt.Fprintf(w, "[resource %s]\n", Line(c.Resource.URI))
				resourceContents(w, c.Resource)
			}
		default:
			b, err := json.Marshal(c)
			if err == nil {
				fmt.Fprintln(w, Sanitize(string(b)))
			}
		}
	}
}

// textBlob reports a blob that is text: a text/* MIME type, and valid
// UTF-8 (a server that says text and sends something else gets the
// summary).
func textBlob(mimeType string, b []byte) bool {
	mt, _, _ := mime.ParseMediaType(mimeType)
	return strings.HasPrefix(mt, "text/") && utf8.Valid(b)
}

func mimeOr(m, def string) string {
	if m == "" {
		return def
	}
	return Line(m)
}

// Size is a byte count for people: 512 B, 12 KB, 3.4 MB.
func Size(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%d KB", (n+512)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
	}
}
