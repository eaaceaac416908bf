package urlmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrSignInDeclined is a sign-in the person chose not to start.
var ErrSignInDeclined = errors.New("you chose not to sign in")

// RefusedError is an authorization URL mcpcli will not open.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "mcpcli will not open the sign-in URL: " + e.Reason }

// What the line sign-in says.
const (
	signInHeading = "   To sign in, open this link in your browser:"
	signInPrompt  = "Sign in? [o]pen in browser/[s]how the URL to copy/[c]ancel: "
)

// SignIn asks the person about an OAuth authorization URL the way a
// URL-mode elicitation is asked about: the whole URL, its host, the
// warnings; the browser opens only when they type o. It returns once the
// URL is open, or shown for them to copy (the sign-in then waits for the
// browser to come back), or ErrSignInDeclined.
func (c *Consent) SignIn(ctx context.Context, p LineAsker, authURL string) error {
	an := Analyze(authURL)
	fmt.Fprintln(p, signInHeading)
	writeURL(p, "   ", an)
	if !an.Openable() {
		return &RefusedError{Reason: an.Refused}
	}
	st := &step{}
	for attempt := 0; ; attempt++ {
		line, err := p.ReadLine(ctx, signInPrompt)
		if err != nil {
			return err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "o", "open":
			c.open(ctx, p, "   ", an, st, 0)
			return nil
		case "s", "show":
			showURL(p, "   ", an)
			return nil
		case "c", "cancel", "d", "decline", "n", "no", "esc", "\x1b":
			return ErrSignInDeclined
		}
		if attempt+1 >= p.Attempts() {
			fmt.Fprintln(p, "  too many invalid answers: not signing in")
			return ErrSignInDeclined
		}
		fmt.Fprintln(p, "  ! type o, s or c; nothing opens unless you type o")
	}
}

// SignInScript shows an authorization URL without asking, for a run that
// answers from a file: the browser opens it when open is set
// (--open-urls), otherwise it is printed for the person to open.
func (c *Consent) SignInScript(ctx context.Context, w io.Writer, authURL string, open bool) error {
	an := Analyze(authURL)
	fmt.Fprintln(w, signInHeading)
	writeURL(w, "   ", an)
	if !an.Openable() {
		return &RefusedError{Reason: an.Refused}
	}
	if open {
		c.open(ctx, w, "   ", an, &step{}, 0)
		return nil
	}
	fmt.Fprintln(w, "   not opened (pass --open-urls to open it):")
	showURL(w, "   ", an)
	return nil
}
