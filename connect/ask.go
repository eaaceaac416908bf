package connect

import (
	"bytes"
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/urlmode"
)

// Person is how a run reaches the person who runs it: the terminal (or
// pipe) they answer on, their browser, and the flags that say how they
// want to be asked.
type Person struct {
	In      io.Reader
	Console *render.Console
	// InTTY and ErrTTY say whether stdin and stderr are a terminal; InFd
	// is stdin's descriptor (for hidden input).
	InTTY, ErrTTY bool
	InFd          int
	// Getenv reads $TERM.
	Getenv func(string) string
	// Open opens a URL in the person's browser (nil: it cannot).
	Open urlmode.OpenFunc

	Answers    string // --answers FILE (- for stdin): answer from it, asking nobody
	OpenURLs   bool   // --open-urls: open the URLs the answers file accepts
	Accessible bool   // --accessible: lines instead of full-screen forms
}

// SessionForms are the full-screen shell's forms, run with the shell's
// screen lent to them: the status line a form leaves goes in the shell's
// timeline instead; what URL consent prints (the URL to copy) goes on the
// terminal while it has it.
func (p Person) SessionForms() *render.FormAnswerer {
	fa := &render.FormAnswerer{Term: p.Console.Terminal(p.In), Status: io.Discard, InSession: true}
	fa.URL = (&urlmode.Consent{Open: p.Open, Out: p.Console, Term: fa.Term, InSession: true}).TUI
	return fa
}

// NoTerminal says why the full screen cannot be shown to the person, or
// "".
func (p Person) NoTerminal() string {
	switch {
	case !p.InTTY && !p.ErrTTY:
		return "stdin and stderr are not a terminal"
	case !p.InTTY:
		return "stdin is not a terminal"
	case !p.ErrTTY:
		return "stderr is not a terminal"
	case p.Getenv != nil && p.Getenv("TERM") == "dumb":
		return "the terminal is \"dumb\" (TERM=dumb)"
	}
	return ""
}

// OnTerminal reports whether the person can be asked on the terminal:
// stdin to answer, stderr to see the question (piped answers never
// consent to a sign-in, nor fill in a secret).
func (p Person) OnTerminal() bool { return p.InTTY && p.ErrTTY }

// Answers are who answer one connection's asks and sampling requests.
type Answers struct {
	Answerer client.Answerer
	Sampler  client.Sampler
}

// Asking is how a run asks the person, made once for the run: from an
// answers file, on full-screen forms, or on lines.
type Asking struct {
	p Person
	// forms and prompter are the run's full-screen forms (nil: the run
	// cannot show them) and its line prompter (one: it reads stdin ahead).
	forms    *render.FormAnswerer
	prompter *render.Prompter
	// way is the run's way of answering, once picked.
	way *Answers
	// rec keeps what the person answers (nil with an answers file), to be
	// written as an answers file if the retry that carries it fails, or
	// with --save-answers.
	rec *request.Recorder
}

// NewAsking is p's forms and line prompter. The forms draw on stderr (nil
// when the run cannot show them: no terminal, --accessible, TERM=dumb);
// stdout keeps carrying only results, so `mcpcli call … -o json | jq`
// works with a form on screen.
func NewAsking(p Person) *Asking {
	a := &Asking{p: p, prompter: render.NewTerminalPrompter(p.In, p.Console, p.InTTY, p.InFd)}
	if !p.Accessible && p.NoTerminal() == "" {
		a.forms = &render.FormAnswerer{Term: p.Console.Terminal(p.In), Status: p.Console}
	}
	return a
}

// Forms are the run's full-screen forms, or nil.
func (a *Asking) Forms() *render.FormAnswerer { return a.forms }

// Prompter is the run's line prompter.
func (a *Asking) Prompter() *render.Prompter { return a.prompter }

// Recorder keeps what the person answered in this run's one-shot
// requests; nil when nobody is asked (an answers file), or before any
// was.
func (a *Asking) Recorder() *request.Recorder { return a.rec }

// Arguments is how this run asks for missing arguments: a form on a
// terminal, lines with --accessible on one; nil without a terminal, or
// when the run is scripted with --answers.
func (a *Asking) Arguments() request.FormAsker {
	if !a.p.InTTY || a.p.Answers != "" {
		return nil
	}
	if a.forms != nil {
		return a.forms
	}
	return a.prompter
}

// Values is how this run asks for one value with the server's
// completions: on the full screen, or as lines with --accessible, when
// stdin is a terminal and the run is not scripted with --answers; nil
// when nobody can be asked.
func (a *Asking) Values() request.ValueAsker {
	if !a.p.InTTY || a.p.Answers != "" {
		return nil
	}
	if a.forms != nil {
		return &render.ValueForm{Term: a.forms.Term}
	}
	return a.prompter
}

// SetBanner heads the run's forms and line asks with b.
func (a *Asking) SetBanner(b string) {
	if a.forms != nil {
		a.forms.Banner = b
	}
	a.prompter.Banner = b
}

// Way is how this run answers, picked once: an answers file (--answers),
// the full screen, or lines. Its sampler is there even without
// --sampling, off: a session can turn sampling on. A mistake in the
// answers file is a *FlagError.
func (a *Asking) Way(ctx context.Context) (*Answers, error) {
	if a.way != nil {
		return a.way, nil
	}
	con := a.p.Console
	consent := &urlmode.Consent{Open: a.p.Open, Out: con}
	switch {
	case a.p.Answers != "":
		s, err := a.script(ctx)
		if err != nil {
			return nil, err
		}
		// A scripted accept of a URL is the script's consent: opened with
		// --open-urls, printed otherwise; refused schemes become decline.
		a.way = &Answers{consent.Script(s, a.p.OpenURLs), s}
		return a.way, nil
	case a.forms != nil:
		consent.Term = a.forms.Term
		consent.Banner = func() string { return a.forms.Banner } // the tour's step, as on its forms
		a.forms.URL = consent.TUI
		a.way = &Answers{a.forms, a.forms}
	default:
		p := a.prompter
		p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
			return consent.Line(ctx, p, r, i)
		}
		a.way = &Answers{p, p}
	}
	a.rec = &request.Recorder{}
	return a.way, nil
}

// OneShot is how a one-shot command answers: the run's way, each answer
// and sampling reply recorded.
func (a *Asking) OneShot(ctx context.Context) (*Answers, error) {
	w, err := a.Way(ctx)
	if err != nil || a.rec == nil {
		return w, err
	}
	return &Answers{a.rec.Answerer(w.Answerer), a.rec.Sampler(w.Sampler)}, nil
}

// script reads --answers, saying on the console what each answer it gives
// answers.
func (a *Asking) script(ctx context.Context) (*client.Script, error) {
	name, what := a.p.Answers, a.p.Answers
	open := request.OpenFile(name)
	if name == "-" {
		name, what = "from stdin", "stdin"
		open = func() (io.ReadCloser, error) { return io.NopCloser(a.p.In), nil }
	}
	b, err := request.ReadInput(ctx, what, open)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, flagErrorf("--answers: %v", err)
	}
	s, err := client.ParseScript(bytes.NewReader(b), name)
	if err != nil {
		return nil, &FlagError{Msg: err.Error()}
	}
	con := a.p.Console
	s.Notify = func(ask client.Ask, res *mcp.ElicitResult, key string) {
		con.Printf("→ %s: %s (answers file, key %q)", render.Line(ask.Key), res.Action, key)
	}
	s.NotifySample = func(r client.SamplingRound, sa *client.SamplingAnswer, key string) {
		what := "decline"
		if !sa.Decline {
			what = "reply from model " + render.Line(sa.Result.Model)
		}
		con.Printf("→ %s: %s (answers file, key %q)", render.Line(r.Key), what, key)
	}
	return s, nil
}
