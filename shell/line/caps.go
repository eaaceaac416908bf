package line

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// The line shell's client capabilities: roots added and removed, and
// sampling turned on or off, while connected.

// roots lists the roots the session gives the server now.
func (l *line) roots() {
	roots := l.s.Roots()
	if len(roots) == 0 {
		fmt.Fprintln(l.out, "no roots (root add DIR gives the server one)")
		return
	}
	for _, r := range roots {
		fmt.Fprintf(l.out, "%s  %s\n", render.Line(r.Name), render.Line(r.URI))
	}
}

// root is "root add DIR" and "root rm DIR" (or its URI, or its name).
func (l *line) root(args []string) error {
	if len(args) != 2 || (args[0] != "add" && args[0] != "rm") {
		return errors.New("root takes: root add DIR, or root rm DIR; 'roots' lists them")
	}
	if args[0] == "add" {
		r, err := client.DirRoot(args[1])
		if err != nil {
			return fmt.Errorf("root add %v", err)
		}
		if err := l.s.AddRoot(r); err != nil {
			return err
		}
		l.con.Printf("root added: %s %s (%s)", render.Line(r.Name), render.Line(r.URI), l.howTold())
		return nil
	}
	uri := rootURI(l.s, args[1])
	if uri == "" || !l.s.RemoveRoot(uri) {
		return fmt.Errorf("no root %q; 'roots' lists them", args[1])
	}
	l.con.Printf("root removed: %s (%s)", render.Line(uri), l.howTold())
	return nil
}

// rootURI is the URI of the session's root named by what: its URI, its
// directory, or its name.
func rootURI(s *client.Session, what string) string {
	roots := s.Roots()
	for _, r := range roots {
		if r.URI == what {
			return r.URI
		}
	}
	if r, err := client.DirRoot(what); err == nil {
		for _, x := range roots {
			if x.URI == r.URI {
				return x.URI
			}
		}
	}
	for _, r := range roots {
		if r.Name == what {
			return r.URI
		}
	}
	return ""
}

// howTold says how the server learns of a change of roots.
func (l *line) howTold() string {
	if l.s.Server().Modern() {
		return "declared in the _meta of each request from now on"
	}
	return "the server was sent notifications/roots/list_changed"
}

// sampling is "sampling", "sampling on" and "sampling off".
func (l *line) sampling(args []string) error {
	if len(args) == 0 {
		state := "off"
		if l.s.Sampling() {
			state = "on"
		}
		l.con.Printf("sampling is %s ('sampling on' or 'sampling off' changes it)", state)
		return nil
	}
	on := strings.EqualFold(args[0], "on")
	if len(args) != 1 || !on && !strings.EqualFold(args[0], "off") {
		return errors.New("sampling takes on or off: sampling on, sampling off")
	}
	if err := l.s.SetSampling(on); err != nil {
		return err
	}
	switch {
	case on && l.s.Server().Modern():
		l.con.Printf("sampling on: declared in each request from now on; you write the replies to the server's sampling requests")
	case on:
		l.con.Printf("sampling on: you write the replies to the server's sampling requests")
	case l.s.Server().Modern():
		l.con.Printf("sampling off: no longer declared")
	default:
		l.con.Printf("sampling off: the server's sampling requests are declined (it was told sampling when the session started)")
	}
	return nil
}
