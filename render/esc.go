package render

import (
	"bytes"
	"os"
)

// loneEsc is how a lone Esc is handed on: the kitty keyboard protocol's
// Esc (CSI 27 u), which the input decoder reads as Esc at once. A bare ESC
// byte it holds for 50 ms, in case more of an escape sequence follows.
const loneEsc = "\x1b[27u"

// Bracketed paste markers: what is pasted is never rewritten.
var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// escFile is the terminal's input with a lone Esc made unambiguous. A read
// that returns the ESC byte alone, with nothing more waiting to be read, is
// the Esc key: a terminal writes an escape sequence (an arrow key, a
// function key) whole, and tmux does too. Such a read is rewritten as
// loneEsc, so that Esc acts at once instead of after the decoder's 50 ms
// timeout. Anything else passes unchanged, and so does everything inside
// a bracketed paste.
type escFile struct {
	*os.File
	pending func() bool // more input is waiting to be read
	pasting bool
}

func (f *escFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if n > 0 {
		f.track(p[:n])
	}
	if n == 1 && p[0] == 0x1b && !f.pasting && len(p) >= len(loneEsc) && !f.pending() {
		return copy(p, loneEsc), err
	}
	return n, err
}

// track follows bracketed pastes through what was read.
func (f *escFile) track(b []byte) {
	s, e := bytes.LastIndex(b, pasteStart), bytes.LastIndex(b, pasteEnd)
	switch {
	case s > e:
		f.pasting = true
	case e > s:
		f.pasting = false
	}
}
