// Package shell holds what the two shells over an MCP session share: the
// full-screen one (shell/tui) and the line one (shell/line). Both are thin
// over the request layer (request/); they differ only in how they ask and
// how they show.
package shell

// Ended is a shell that its context ended (a signal): the shell, not a
// request, was what it stopped.
type Ended struct {
	Connecting bool // before it was connected
	Cut        int  // requests it cut short
	Err        error
}

func (e *Ended) Error() string { return "the session ended: " + e.Err.Error() }
func (e *Ended) Unwrap() error { return e.Err }
