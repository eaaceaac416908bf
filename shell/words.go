package shell

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/suggest"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// Request words the request package's errors; ok is false for other
// errors.
func (w Words) Request(err error) (msg string, ok bool) {
	var (
		we *request.WordError
		tw *request.TwiceError
		oe *request.ObjectError
		ue *request.UnknownError
		se *request.ShownError
		me *request.MissingError
		ne *request.NoSuchArgumentError
		ar *request.ArgumentError
		nt *request.NotTemplateError
		te *request.TemplateError
	)
	switch {
	case errors.As(err, &we):
		switch {
		case we.What == "--var":
			return fmt.Sprintf("--var %q must look like NAME=VALUE", we.Word), true
		case we.What == "variable":
			return fmt.Sprintf("%q must look like NAME=VALUE: read URI, or read TEMPLATE NAME=VALUE ...", we.Word), true
		}
		return fmt.Sprintf("%s %q must look like KEY=VALUE", we.What, we.Word), true
	case errors.As(err, &tw):
		return fmt.Sprintf("%s %s is given twice; give it once", tw.What, render.Line(tw.Key)), true
	case errors.As(err, &oe):
		if w.Line {
			return fmt.Sprintf("the arguments must be a JSON object like {\"key\": \"value\"}: %v", oe.Err), true
		}
		return fmt.Sprintf("--args must be a JSON object like '{\"key\": \"value\"}': %v", oe.Err), true
	case errors.As(err, &ue):
		if ue.Dropped != "" {
			return fmt.Sprintf("server %q lists %s %q, but its inputSchema is invalid (%s), so mcpcli leaves it out; the server's inputSchema must be fixed", ue.Server, ue.What, ue.Name, ue.Dropped), true
		}
		msg := fmt.Sprintf("server \"%s\" has no %s \"%s\"%s; run '%s%ss' to list them", ue.Server, ue.What, ue.Name, suggest.DidYouMean(ue.Maybe), w.cmd(), ue.What)
		var flags []string
		for _, c := range ue.Undeclared {
			flags = append(flags, map[string]string{"sampling": "--sampling", "roots": "--root DIR"}[c])
		}
		if len(flags) > 0 {
			msg += "; some servers list a tool only to clients that declare a capability: try " + strings.Join(flags, " or ")
		}
		return msg, true
	case errors.As(err, &se):
		q := make([]string, len(se.Real))
		for i, r := range se.Real {
			q[i] = shellwords.Spell(r)
		}
		return fmt.Sprintf("server \"%s\" has no %s %q, and %d %ss show as that: %s; give the real name", se.Server, se.What, se.Name, len(se.Real), se.What, strings.Join(q, ", ")), true
	case errors.As(err, &me):
		return w.missing(me), true
	case errors.As(err, &ne):
		if ne.What == "template" {
			return fmt.Sprintf("template %q has no variable %q; its variables are: %s", ne.Name, ne.Key, strings.Join(ne.Names, ", ")), true
		}
		return fmt.Sprintf("%s %q has no argument %q%s; its arguments are: %s", ne.What, ne.Name, ne.Key, suggest.DidYouMean(ne.Maybe), orNone(ne.Names)), true
	case errors.As(err, &ar):
		return fmt.Sprintf("argument %s=%q: %v", ar.Key, ar.Value, ar.Err), true
	case errors.As(err, &nt):
		if w.Line {
			return fmt.Sprintf("NAME=VALUE fills a resource template (a URI with {variables}, as 'resources' lists them); %q has none", nt.URI), true
		}
		return fmt.Sprintf("--var fills a URI template (a URI with {variables}, as 'mcpcli resources' lists them); %q has none", nt.URI), true
	case errors.As(err, &te):
		return te.Error(), true
	}
	return "", false
}

// missing says what a request lacks, and how to give it.
func (w Words) missing(e *request.MissingError) string {
	them := plural.Of(len(e.Missing), "it", "them")
	terminal := ""
	if !e.Asker {
		terminal = " (or run it on a terminal to fill them in)"
	}
	switch e.What {
	case "template":
		if w.Line {
			pairs := make([]string, len(e.Missing))
			for i, n := range e.Missing {
				pairs[i] = n + "=VALUE"
			}
			return fmt.Sprintf("template %q needs %s: read %s %s", e.Name, quoted(e.Missing), e.Name, strings.Join(pairs, " "))
		}
		flags := make([]string, len(e.Missing))
		for i, n := range e.Missing {
			flags[i] = "--var " + n + "=VALUE"
		}
		return fmt.Sprintf("template %q needs %s (without a terminal nobody can be asked)", e.Name, strings.Join(flags, " "))
	case "prompt":
		return fmt.Sprintf("prompt %q needs %s: give %s as KEY=VALUE%s; '%sprompts' lists each prompt's arguments", e.Name, quoted(e.Missing), them, terminal, w.cmd())
	}
	if e.Refusal != "" {
		return fmt.Sprintf("tool %q needs %s (the server refused the call: %s): give %s as KEY=VALUE; '%stools %s' shows what each takes",
			e.Name, quoted(e.Missing), render.Line(e.Refusal), them, w.cmd(), e.Name)
	}
	return fmt.Sprintf("tool %q needs %s: give %s as KEY=VALUE%s; '%stools %s' shows what each takes", e.Name, quoted(e.Missing), them, terminal, w.cmd(), e.Name)
}

// Note words what preparing a request did that the person should know.
func (Words) Note(n request.Note) string {
	switch n := n.(type) {
	case *request.ShownNote:
		return fmt.Sprintf("server \"%s\" has no %s named %q exactly; calling the %s shown as that, whose name holds characters a terminal cannot show (did you mean %s?)",
			render.Line(n.Server), n.What, n.Typed, n.What, shellwords.Spell(n.Real))
	case *request.OpenKeyNote:
		return fmt.Sprintf("note: tool %q has no argument %q%s; sending it anyway (its schema allows other keys)",
			render.Line(n.Tool), render.Line(n.Key), render.Line(suggest.DidYouMean(n.Maybe)))
	case *request.FilledNote:
		return "reading " + render.Line(n.URI)
	}
	return ""
}

// NoteOn says a request's notes on con, as a one-shot command does.
func (w Words) NoteOn(con *render.Console) func(request.Note) {
	return func(n request.Note) { con.Printf("mcpcli: %s", w.Note(n)) }
}

// SayOn says a line of mcpcli's on con, made safe to show.
func (Words) SayOn(con *render.Console) func(string) {
	return func(s string) { con.Printf("mcpcli: %s", render.Line(s)) }
}

// SkippedOn says on con that a tool was not explored, and why.
func (Words) SkippedOn(con *render.Console) func(tool, why string) {
	return func(tool, why string) { con.Printf("mcpcli: skipped %s: %s", render.Line(tool), render.Line(why)) }
}

// quoted is "a", "b" and "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}
