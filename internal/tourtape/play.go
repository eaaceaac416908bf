package tourtape

import (
	"fmt"
	"io"

	"github.com/mcpcli/mcpcli/internal/cast"
)

// WriteOutput writes the output events of the cast r to w, in order, as
// fast as w takes them: the screen they leave is the screen the recording
// ends on (as asciinema cat plays it). A resize is an error, since w
// cannot follow it; the cast is checked as it is read.
func WriteOutput(w io.Writer, r io.Reader) error {
	cr, err := cast.NewReader(r)
	if err != nil {
		return err
	}
	for {
		e, err := cr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch e.Code {
		case cast.Output:
			if _, err := io.WriteString(w, e.Data); err != nil {
				return err
			}
		case cast.Resize:
			return fmt.Errorf("the cast resizes the terminal to %s at %v: a fixed terminal cannot play it", e.Data, e.Time)
		}
	}
}
