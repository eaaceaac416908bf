//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package interrupt

// savedTerminal: where mcpcli does not read the terminal's settings, the
// full-screen programs restore what they change themselves.
type savedTerminal struct{}

func saveTerminal() *savedTerminal { return nil }

func (*savedTerminal) restore() {}
