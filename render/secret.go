package render

import (
	"context"
	"fmt"
)

// ReadSecretLine writes prompt and reads one line that is not shown:
// without echo through ReadSecret on a terminal, otherwise as ReadLine
// does, with an echo (if any) of dots.
func (p *Prompter) ReadSecretLine(ctx context.Context, prompt string) (string, error) {
	if p.ReadSecret == nil {
		return p.readLine(ctx, prompt, true)
	}
	fmt.Fprint(p.Out, prompt)
	s, err := p.ReadSecret()
	fmt.Fprintln(p.Out)
	if err != nil {
		return "", err
	}
	p.lines++
	return s, nil
}
