package render

import (
	"fmt"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/schema"
)

// Who names the asking server for a person, sanitized, with how it is
// reached when that adds something.
func Who(s client.Server) string {
	name := serverName(s)
	if s.Via != "" && s.Via != s.Display() {
		return fmt.Sprintf("%s (%s)", name, Line(s.Via))
	}
	return name
}

// maxServerName is how much of a server's own name is shown on a line
// that must also say "(1 of 3)", or which command the server runs as.
const maxServerName = 40

// serverName is the server's name, sanitized and clipped.
func serverName(s client.Server) string { return Clip(Line(s.Display()), maxServerName) }

// AskTitle is the one-line heading of an ask: who asks, and "2 of 3" when a
// round holds several.
func AskTitle(r client.Round, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s asks", serverName(r.Server))
	if len(r.Asks) > 1 {
		fmt.Fprintf(&b, " (%d of %d)", i+1, len(r.Asks))
	}
	if r.Number > 1 {
		fmt.Fprintf(&b, " · round %d", r.Number)
	}
	return b.String()
}

// Context says which request the ask belongs to.
func Context(r client.Round) string {
	if r.Method == "" {
		return ""
	}
	what := map[string]string{"tools/call": "tool", "prompts/get": "prompt", "resources/read": "resource"}[r.Method]
	if what == "" {
		what = r.Method
	}
	verb := "running"
	if r.Method == "resources/read" {
		verb = "reading"
	}
	return fmt.Sprintf("while %s %s %s", verb, what, Line(r.Target))
}

// SecretWarning is shown beside a field that looks like it wants a secret.
const SecretWarning = "this looks like a secret (password, key, token or card number); servers must not ask for secrets in a form — decline unless you are sure"

// Constraints describes what a field accepts, in a few words: "text, 3–50
// characters", "whole number, 1–10", "choose 1–2".
func Constraints(f *schema.Field) string {
	var parts []string
	switch f.Kind {
	case schema.String:
		switch f.Format {
		case "email":
			parts = append(parts, "email")
		case "uri":
			parts = append(parts, "URI")
		case "date":
			parts = append(parts, "date YYYY-MM-DD")
		case "date-time":
			parts = append(parts, "date-time YYYY-MM-DDThh:mm:ssZ")
		default:
			parts = append(parts, "text")
		}
		if r := rangeText(intp(f.MinLength), intp(f.MaxLength)); r != "" {
			parts = append(parts, r+" "+plural2(r, "character", "characters"))
		}
	case schema.Number, schema.Integer:
		if f.Kind == schema.Integer {
			parts = append(parts, "whole number")
		} else {
			parts = append(parts, "number")
		}
		if r := rangeText(f.Minimum, f.Maximum); r != "" {
			parts = append(parts, r)
		}
	case schema.Boolean:
		parts = append(parts, "yes/no")
	case schema.Select:
		parts = append(parts, "choose one")
	case schema.MultiSelect:
		r := rangeText(intp(f.MinItems), intp(f.MaxItems))
		if r == "" {
			parts = append(parts, "choose any")
		} else {
			parts = append(parts, "choose "+r)
		}
	}
	return strings.Join(parts, ", ")
}

func intp(p *int) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

// plural2 picks the word for a range: one after "1", "at least 1" and "at
// most 1", many after the rest.
func plural2(r, one, many string) string {
	n := 2
	if r == "1" || strings.HasSuffix(r, " 1") {
		n = 1
	}
	return plural.Of(n, one, many)
}

func rangeText(lo, hi *float64) string {
	n := func(f float64) string { return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%f", f), "0"), ".") }
	switch {
	case lo != nil && hi != nil:
		if *lo == *hi {
			return n(*lo)
		}
		return n(*lo) + "–" + n(*hi)
	case lo != nil:
		return "at least " + n(*lo)
	case hi != nil:
		return "at most " + n(*hi)
	}
	return ""
}
