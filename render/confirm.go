package render

import (
	"context"
	"fmt"
	"strings"
)

// Confirm asks a yes-or-no question that gives something away (trust in a
// file, say), and reads the answer: y or yes is yes; an empty line, n or
// no is no, as is anything else after Attempts tries. What was typed
// before the question was drawn is dropped first (DropTypeahead), so that
// keys meant for something else cannot answer it.
func (p *Prompter) Confirm(ctx context.Context, question string) (bool, error) {
	if p.DropTypeahead != nil {
		p.DropTypeahead()
		p.In.Discard(p.In.Buffered())
	}
	for attempt := 0; ; attempt++ {
		line, err := p.ReadLine(ctx, question)
		if err != nil {
			return false, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "", "n", "no":
			return false, nil
		}
		if attempt+1 >= p.Attempts() {
			return false, nil
		}
		fmt.Fprintln(p.Out, "  ! type y for yes, or n (or just Enter) for no")
	}
}
