package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Error is a problem with a config file, or with one server in it. Its
// message is one line; every string that came from a file is quoted, so it
// is safe to print.
type Error struct {
	File   string // the file
	Line   int    // 1-based, with Col; 0 when the problem is not at one place
	Col    int    // 1-based, in characters
	Server string // the server's name; "" when the problem is the whole file's
	Msg    string // what is wrong and what to do
	Err    error  // the cause, if any, for errors.Is and errors.As
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Server != "" {
		fmt.Fprintf(&b, "server %s in ", quote(e.Server))
	}
	b.WriteString(showPath(e.File))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotFound is matched by a NotFoundError.
var ErrNotFound = errors.New("no such server")

// NotFoundError says that no file defines a server of that name.
type NotFoundError struct {
	Name     string
	Searched []string // the files looked at, in order of precedence
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no server named %s in the config files of mcpcli, Claude Code, Claude Desktop, VS Code or Cursor; \"mcpcli servers\" lists the names it knows",
		quote(e.Name))
}

func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// ErrExists is matched by an ExistsError.
var ErrExists = errors.New("server already defined")

// ExistsError is what Add says when the name is already in mcpcli's file
// and replacing was not asked for.
type ExistsError struct {
	Name string
	File string
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("server %s is already defined in %s; replace it, or remove it first", quote(e.Name), showPath(e.File))
}

func (e *ExistsError) Is(target error) bool { return target == ErrExists }

// ErrReadOnly is matched by a ReadOnlyError.
var ErrReadOnly = errors.New("server defined in a file mcpcli does not edit")

// ReadOnlyError is what Remove says about a server that only files of other
// tools define.
type ReadOnlyError struct {
	Name     string
	Source   Source // the file that defines it (the one that wins)
	UserFile string // mcpcli's own file
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("server %s is defined in %s (%s), not in mcpcli's own file %s; mcpcli only edits its own file, so remove it there with %s or by editing that file",
		quote(e.Name), e.Source, e.Source.Kind.Title(), showPath(e.UserFile), e.Source.Kind.Tool())
}

func (e *ReadOnlyError) Is(target error) bool { return target == ErrReadOnly }

// CheckName says what is wrong with a name for a server that mcpcli is to
// write to its file, or nil when it will do.
func CheckName(name string) error {
	if name == "" {
		return errors.New("a server name cannot be empty")
	}
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
			return fmt.Errorf("server name %s has whitespace in it; use - or _ instead, like %q", quote(name), strings.Join(strings.Fields(name), "-"))
		case unsafeRune(r):
			return fmt.Errorf("server name %s has a control or invisible character in it (%U); use letters, digits, - or _", quote(name), r)
		}
	}
	return nil
}

// unsafeRune reports characters a terminal may obey or hide: C0 and C1
// controls, DEL, and format characters (bidi overrides, zero-width...).
func unsafeRune(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r)
}

// quote quotes a string from a file for a message: always in double quotes,
// with anything unprintable escaped.
func quote(s string) string { return strconv.Quote(s) }

// showPath prints a path as it is when every character in it is printable,
// and quoted otherwise.
func showPath(p string) string {
	for _, r := range p {
		if unsafeRune(r) || !unicode.IsPrint(r) && r != ' ' {
			return strconv.Quote(p)
		}
	}
	return p
}
