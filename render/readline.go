package render

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
)

// MaxLineBytes bounds a line read as input (a command of the line
// session, an answer typed or piped to a line prompt): a line longer is
// refused, and what it held is read past and let go, not kept.
const MaxLineBytes = 1 << 20

// LineTooLongError is a line longer than MaxLineBytes. It keeps only the
// line's first few characters, to say which line it was.
type LineTooLongError struct {
	Line int    // its number, from 1
	Max  int    // the bound
	Head string // its first characters
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than %s, the bound on a line of input (it began %q…); it was skipped: give large arguments a line of their own under the bound", e.Line, sizeWords(e.Max), e.Head)
}

// sizeWords is n bytes in words: "1 MiB", "64 KiB", "100 bytes".
func sizeWords(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// headRunes is how much of a refused line its error shows.
const headRunes = 24

// readBoundedLine reads one line from r, its newline included (as
// ReadString does), keeping at most max bytes of it. A longer line is read
// to its end and let go: the error is a *LineTooLongError (with Line
// unset), and the next read starts at the next line.
func readBoundedLine(r *bufio.Reader, max int) (string, error) {
	var (
		buf  []byte
		over bool
		head string
	)
	for {
		frag, err := r.ReadSlice('\n')
		if !over {
			// The newline (and a CR before it) does not count.
			body := len(buf) + len(strings.TrimRight(string(frag), "\r\n"))
			if body > max {
				over = true
				head = firstRunes(string(append(buf, frag...)), headRunes)
				buf = nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over {
			if err != nil && len(frag) == 0 {
				// The line ended with the input: still refused.
				err = nil
			}
			return "", &LineTooLongError{Max: max, Head: Line(head)}
		}
		return string(buf), err
	}
}

// firstRunes is s's first n runes.
func firstRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
