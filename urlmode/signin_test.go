package urlmode

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/urlmode/browsertest"
)

const authURL = "https://auth.example.com/authorize?client_id=mcpcli&state=xyz"

func TestSignInLine(t *testing.T) {
	tests := []struct {
		name   string
		url    string
		input  string
		opened []string
		err    error
		shows  []string
	}{
		{name: "open", url: authURL, input: "o\n", opened: []string{authURL},
			shows: []string{"To sign in, open this link in your browser:", "URL:  " + authURL, "Host: auth.example.com · site example.com", "Opened " + authURL + " in your browser."}},
		{name: "show never opens", url: authURL, input: "s\n", shows: []string{"Copy this URL into your browser:\n\n" + authURL + "\n"}},
		{name: "cancel", url: authURL, input: "c\n", err: ErrSignInDeclined},
		{name: "no", url: authURL, input: "n\n", err: ErrSignInDeclined},
		{name: "empty lines give up", url: authURL, input: "\n\n\n", err: ErrSignInDeclined, shows: []string{"nothing opens unless you type o", "not signing in"}},
		{name: "end of input", url: authURL, input: "", err: render.ErrNoInput},
		{name: "look-alike host warned", url: "https://xn--pple-43d.com/authorize", input: "c\n", err: ErrSignInDeclined, shows: []string{"⚠"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := render.NewPrompter(strings.NewReader(tt.input), &out)
			c := &Consent{Open: browsertest.New(t, tt.opened...).Open}
			err := c.SignIn(context.Background(), p, tt.url)
			if !errors.Is(err, tt.err) {
				t.Errorf("SignIn(%q) on input %q = %v, want %v\n%s", tt.url, tt.input, err, tt.err, out.String())
			}
			for _, s := range tt.shows {
				if !strings.Contains(out.String(), s) {
					t.Errorf("SignIn(%q) on input %q did not show %q:\n%s", tt.url, tt.input, s, out.String())
				}
			}
		})
	}
}

// A URL mcpcli refuses is not even asked about.
func TestSignInRefusesWhatItWouldNotOpen(t *testing.T) {
	var out bytes.Buffer
	p := render.NewPrompter(strings.NewReader("o\n"), &out)
	c := &Consent{Open: browsertest.New(t).Open}
	err := c.SignIn(context.Background(), p, "javascript:alert(1)")
	var re *RefusedError
	if !errors.As(err, &re) || re.Reason == "" {
		t.Fatalf("SignIn(javascript:) = %v, want a *RefusedError", err)
	}
	if strings.Contains(out.String(), signInPrompt) {
		t.Errorf("SignIn asked about a refused URL:\n%s", out.String())
	}
}

func TestSignInScript(t *testing.T) {
	for _, open := range []bool{true, false} {
		var out bytes.Buffer
		var want []string
		if open {
			want = []string{authURL}
		}
		c := &Consent{Open: browsertest.New(t, want...).Open}
		if err := c.SignInScript(context.Background(), &out, authURL, open); err != nil {
			t.Errorf("SignInScript(open=%v) = %v", open, err)
		}
		if !open && !strings.Contains(out.String(), "pass --open-urls to open it") {
			t.Errorf("SignInScript(open=false) did not say how to open it:\n%s", out.String())
		}
		if !strings.Contains(out.String(), "URL:  "+authURL) {
			t.Errorf("SignInScript(open=%v) did not show the URL:\n%s", open, out.String())
		}
	}
}
