package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/schema"
)

// ToolEntry is one tool of `mcpcli tools`: its name and its arguments as
// KEY=TYPE in the server's order (optional ones in brackets), then its
// description, wrapped to width (0: not wrapped) under an indent.
func ToolEntry(w io.Writer, t *mcp.Tool, raw json.RawMessage, width int) {
	line := Name(t.Name)
	if args := argSummary(jsonpeek.Get(raw, "inputSchema")); args != "" {
		line += " " + args
	}
	if ts := TaskSupport(raw); ts == "required" || ts == "optional" {
		line += " (task: " + ts + ")"
	}
	fmt.Fprintln(w, line)
	if t.Description != "" {
		fmt.Fprintln(w, indent(wrap(Sanitize(t.Description), width-4), "    "))
	}
}

// argSummary is "name=string [count=integer]" from an input schema.
func argSummary(inputSchema json.RawMessage) string {
	args, err := schema.ParseArgs(inputSchema)
	if err != nil {
		return ""
	}
	required := map[string]bool{}
	for _, r := range args.Required {
		required[r] = true
	}
	parts := make([]string, 0, len(args.Names))
	for _, n := range args.Names {
		t := args.Props[n].Type()
		if t == "" {
			t = "value"
		}
		p := fmt.Sprintf("%s=%s", Line(n), Line(t))
		if !required[n] {
			p = "[" + p + "]"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// ToolDetail is `mcpcli tools NAME`: a tool in full.
func ToolDetail(w io.Writer, t *mcp.Tool, raw json.RawMessage, width int) {
	head := Name(t.Name)
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	if title != "" && title != t.Name {
		head += " — " + Line(title)
	}
	fmt.Fprintln(w, head)
	if t.Description != "" {
		fmt.Fprintln(w, indent(wrap(Sanitize(t.Description), width-2), "  "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  Annotations: %s\n", annotations(t.Annotations))
	fmt.Fprintf(w, "  Task support: %s\n", taskSupport(raw))
	fmt.Fprintln(w)
	writeArgs(w, jsonpeek.Get(raw, "inputSchema"), width)
}

// annotations says what a tool's hints say, with the spec's defaults for
// what they leave out.
func annotations(a *mcp.ToolAnnotations) string {
	if a == nil {
		return "none given (by the spec's defaults: may change things, not idempotent, open world)"
	}
	var out []string
	switch {
	case a.ReadOnlyHint:
		out = append(out, "read-only")
	case a.DestructiveHint == nil || *a.DestructiveHint:
		out = append(out, "destructive")
	default:
		out = append(out, "not destructive")
	}
	if a.IdempotentHint {
		out = append(out, "idempotent")
	} else if !a.ReadOnlyHint {
		out = append(out, "not idempotent")
	}
	if a.OpenWorldHint == nil || *a.OpenWorldHint {
		out = append(out, "open world")
	} else {
		out = append(out, "closed world")
	}
	return strings.Join(out, " · ")
}

// TaskSupport is a tool's execution.taskSupport as the server sent it:
// "required", "optional", "forbidden", or "" when the tool says nothing.
func TaskSupport(raw json.RawMessage) string {
	s, _ := jsonpeek.String(jsonpeek.Get(jsonpeek.Get(raw, "execution"), "taskSupport"))
	return s
}

// ServerRunsTasks says that a 2026-07-28 server with the tasks extension
// may run any call as a task, whatever the tool declares.
const ServerRunsTasks = "Tasks: the server has the tasks extension (2026-07-28) and may run any call as a task; mcpcli follows it"

// taskSupport is the tool's own execution.taskSupport, in words: what the
// tool declares, never a default put in its mouth (a server with the
// tasks extension runs as a task a call its tool said nothing about).
func taskSupport(raw json.RawMessage) string {
	switch s := TaskSupport(raw); s {
	case "":
		return "not declared by the tool (no execution.taskSupport)"
	case "required":
		return "required: calls run as tasks"
	default:
		return Line(s)
	}
}

// writeArgs lists each argument of an inputSchema in the server's order.
func writeArgs(w io.Writer, inputSchema json.RawMessage, width int) {
	args, err := schema.ParseArgs(inputSchema)
	if err != nil {
		fmt.Fprintf(w, "  Arguments: the inputSchema cannot be read (%s)\n", Line(err.Error()))
		return
	}
	if len(args.Names) == 0 {
		fmt.Fprintln(w, "  Arguments: none")
		return
	}
	fmt.Fprintln(w, "  Arguments, in the server's order:")
	required := map[string]bool{}
	for _, r := range args.Required {
		required[r] = true
	}
	nameW := 0
	for _, n := range args.Names {
		nameW = max(nameW, lipgloss.Width(Line(n)))
	}
	nameW = min(nameW, 24)
	for _, n := range args.Names {
		a := args.Props[n]
		what := describeArg(a)
		if required[n] {
			what += ", required"
		} else {
			what += ", optional"
		}
		if !jsonpeek.IsNull(a.Default) {
			what += ", default " + compactJSON(a.Default)
		}
		name := Line(n)
		pad := strings.Repeat(" ", max(nameW-lipgloss.Width(name), 0))
		fmt.Fprintf(w, "    %s%s  %s\n", name, pad, wrapHanging(what, width-8-nameW, 6+nameW))
		desc := a.Description
		if desc == "" {
			desc = a.Title
		}
		if desc != "" {
			fmt.Fprintln(w, indent(wrap(Sanitize(desc), width-8-nameW), strings.Repeat(" ", 6+nameW)))
		}
	}
}

// describeArg is an argument's type and what it allows, in a few words.
func describeArg(a *schema.Arg) string {
	var types []string
	for _, t := range a.Types {
		types = append(types, Line(t))
	}
	what := strings.Join(types, " or ")
	if what == "" {
		what = "any value"
	}
	if a.Format != "" {
		what += " (" + Line(a.Format) + ")"
	}
	if len(a.Enum) > 0 {
		what += ", one of " + enumList(a.Enum)
	}
	if r := rangeText(a.Minimum, a.Maximum); r != "" {
		what += ", " + r
	}
	if r := rangeText(intp(a.MinLength), intp(a.MaxLength)); r != "" {
		what += ", " + r + " " + plural2(r, "character", "characters")
	}
	if a.Items != nil {
		what += " of " + describeArg(a.Items)
	}
	if r := rangeText(intp(a.MinItems), intp(a.MaxItems)); r != "" {
		what += ", " + r + " " + plural2(r, "item", "items")
	}
	if len(a.Properties) > 0 {
		names := make([]string, len(a.Properties))
		for i, p := range a.Properties {
			names[i] = Line(p)
		}
		what += " {" + strings.Join(names, ", ") + "}"
	}
	return what
}

// enumList is "a, b, c" for the first few values of an enum.
func enumList(enum []json.RawMessage) string {
	const most = 8
	var vals []string
	for i, v := range enum {
		if i == most {
			vals = append(vals, fmt.Sprintf("… %d more", len(enum)-most))
			break
		}
		vals = append(vals, compactJSON(v))
	}
	return strings.Join(vals, ", ")
}

// compactJSON is a raw value on one line, sanitized.
func compactJSON(v json.RawMessage) string {
	var x any
	if json.Unmarshal(v, &x) == nil {
		if b, err := json.Marshal(x); err == nil {
			return Clip(Line(string(b)), maxOption)
		}
	}
	return Clip(Line(string(v)), maxOption)
}

// PromptEntry is one prompt of `mcpcli prompts`.
func PromptEntry(w io.Writer, p *mcp.Prompt, width int) {
	line := Name(p.Name)
	for _, a := range p.Arguments {
		if a.Required {
			line += fmt.Sprintf(" %s=…", Line(a.Name))
		} else {
			line += fmt.Sprintf(" [%s=…]", Line(a.Name))
		}
	}
	fmt.Fprintln(w, line)
	if p.Description != "" {
		fmt.Fprintln(w, indent(wrap(Sanitize(p.Description), width-4), "    "))
	}
}

// PromptDetail is `mcpcli prompts NAME`: a prompt in full.
func PromptDetail(w io.Writer, p *mcp.Prompt, width int) {
	head := Name(p.Name)
	if p.Title != "" && p.Title != p.Name {
		head += " — " + Line(p.Title)
	}
	fmt.Fprintln(w, head)
	if p.Description != "" {
		fmt.Fprintln(w, indent(wrap(Sanitize(p.Description), width-2), "  "))
	}
	fmt.Fprintln(w)
	if len(p.Arguments) == 0 {
		fmt.Fprintln(w, "  Arguments: none")
		return
	}
	fmt.Fprintln(w, "  Arguments (text), in the server's order:")
	nameW := 0
	for _, a := range p.Arguments {
		nameW = max(nameW, lipgloss.Width(Line(a.Name)))
	}
	nameW = min(nameW, 24)
	for _, a := range p.Arguments {
		what := "optional"
		if a.Required {
			what = "required"
		}
		name := Line(a.Name)
		fmt.Fprintf(w, "    %s%s  %s\n", name, strings.Repeat(" ", max(nameW-lipgloss.Width(name), 0)), what)
		desc := a.Description
		if desc == "" {
			desc = a.Title
		}
		if desc != "" {
			fmt.Fprintln(w, indent(wrap(Sanitize(desc), width-8-nameW), strings.Repeat(" ", 6+nameW)))
		}
	}
}

// wrap wraps s to width cells; width < 20 (or not a terminal: 0) means
// not at all.
func wrap(s string, width int) string {
	if width < 20 {
		return s
	}
	return lipgloss.Wrap(s, width, ",.-; ")
}

// wrapHanging wraps s to width, the lines after the first indented by n.
func wrapHanging(s string, width, n int) string {
	return strings.ReplaceAll(wrap(s, width), "\n", "\n"+strings.Repeat(" ", n))
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
