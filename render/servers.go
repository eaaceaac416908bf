package render

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/shellwords"
)

// ServerList is what servers shows: each name with the definition that
// runs and those it shadows, then each project file and whether it is
// trusted. Home is shown as ~.
type ServerList struct{ Home string }

// Write writes the list, or with asJSON its -o json form.
func (l ServerList) Write(w io.Writer, listed []config.Listed, files []config.ProjectFile, asJSON bool) error {
	var projects []projectFile
	for _, p := range files {
		if p.Err != nil {
			continue // a warning above says why
		}
		pf := projectFile{Path: p.Source.Path, Kind: string(p.Source.Kind), Trust: string(p.State), SHA256: p.SHA256}
		if !p.TrustedAt.IsZero() {
			at := p.TrustedAt
			pf.TrustedAt = &at
		}
		projects = append(projects, pf)
	}
	rs := rows(listed)
	if asJSON {
		if rs == nil {
			rs = []serverRow{}
		}
		if projects == nil {
			projects = []projectFile{}
		}
		return WriteJSON(w, map[string]any{"servers": rs, "projects": projects})
	}
	if len(rs) == 0 {
		fmt.Fprintf(w, "(no servers configured; add one with 'mcpcli servers add NAME -- CMD ARGS' or 'mcpcli servers add NAME --url URL', or see 'mcpcli help config')\n")
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tTRANSPORT\tSERVER\tDEFINED IN")
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", Line(r.Name), orDash(r.Transport), Clip(Line(r.Target), 60), l.where(r.Source))
		}
		tw.Flush()
		for _, r := range rs {
			if r.Error != "" {
				fmt.Fprintf(w, "%s cannot be used: %s\n", Line(r.Name), Line(r.Error))
			}
			for _, d := range r.Shadowed {
				fmt.Fprintf(w, "%s is also in %s, shadowed\n", Line(r.Name), l.where(d.Source))
			}
		}
	}
	for _, p := range projects {
		fmt.Fprintln(w, l.projectLine(p))
	}
	return nil
}

// serverRow is one name as servers shows it: the definition that wins,
// and the ones it shadows.
type serverRow struct {
	Name      string       `json:"name"`
	Transport string       `json:"transport,omitempty"`
	Target    string       `json:"target,omitempty"`
	Source    serverSource `json:"source"`
	Error     string       `json:"error,omitempty"`
	Shadowed  []serverDef  `json:"shadowed,omitempty"`
}

type serverDef struct {
	Transport string       `json:"transport,omitempty"`
	Target    string       `json:"target,omitempty"`
	Source    serverSource `json:"source"`
	Error     string       `json:"error,omitempty"`
}

type serverSource struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Project string `json:"project,omitempty"`
	// Trust is a project file's: untrusted, changed, trusted or
	// trusted-for-run; "" for your own files.
	Trust string `json:"trust,omitempty"`
}

// projectFile is a project file and whether it is trusted, for -o json.
type projectFile struct {
	Path      string     `json:"path"`
	Kind      string     `json:"kind"`
	Trust     string     `json:"trust"`
	SHA256    string     `json:"sha256,omitempty"`
	TrustedAt *time.Time `json:"trustedAt,omitempty"`
	Error     string     `json:"error,omitempty"`
}

func sourceOf(l config.Listed) serverSource {
	s := l.Source
	return serverSource{Path: s.Path, Kind: string(s.Kind), Project: s.Project, Trust: string(l.Trust)}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// rows groups config.List's definitions by name, the winning one first.
func rows(listed []config.Listed) []serverRow {
	var out []serverRow
	for _, l := range listed {
		if l.Shadowed && len(out) > 0 && out[len(out)-1].Name == l.Name {
			r := &out[len(out)-1]
			r.Shadowed = append(r.Shadowed, serverDef{Transport: string(l.Transport), Target: l.Target, Source: sourceOf(l), Error: errText(l.Err)})
			continue
		}
		out = append(out, serverRow{Name: l.Name, Transport: string(l.Transport), Target: l.Target, Source: sourceOf(l), Error: errText(l.Err)})
	}
	return out
}

// projectLine says where a project file stands, and what to do.
func (l ServerList) projectLine(p projectFile) string {
	file := l.show(p.Path)
	trust := "'mcpcli servers trust " + Line(shellwords.Quote(p.Path)) + "'"
	switch config.TrustState(p.Trust) {
	case config.Trusted:
		return fmt.Sprintf("%s is a project file you trusted on %s; its servers run", file, p.TrustedAt.Local().Format(time.DateOnly))
	case config.TrustedForRun:
		return fmt.Sprintf("%s is a project file trusted for this run (--trust-project); its servers run", file)
	case config.Changed:
		return fmt.Sprintf("%s is a project file that changed since you trusted it on %s; its servers run once you read it again and trust it (%s)", file, p.TrustedAt.Local().Format(time.DateOnly), trust)
	}
	return fmt.Sprintf("%s is a project file you have not trusted; its servers run once you read it and trust it (%s, or say yes when mcpcli asks)", file, trust)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// where names a source for people: the path (~ for the home directory),
// what kind of file it is, and a project file's trust when it is not.
func (l ServerList) where(s serverSource) string {
	w := l.show(s.Path)
	if s.Project != "" {
		w += fmt.Sprintf(" (project %s)", Line(s.Project))
	}
	w += " (" + config.Kind(s.Kind).Title()
	switch config.TrustState(s.Trust) {
	case config.Untrusted, config.Changed:
		w += ", not trusted"
	}
	return w + ")"
}

// show is a path for people: ~ for the home directory, sanitized.
func (l ServerList) show(p string) string {
	if l.Home != "" && strings.HasPrefix(p, l.Home+string(filepath.Separator)) {
		p = "~" + p[len(l.Home):]
	}
	return Line(p)
}
