package render

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/schema"
)

// ErrNoInput means a server asked for input, stdin is not a terminal, and
// nothing at all was piped in.
var ErrNoInput = errors.New("the server asked for input, but stdin is not a terminal and holds no answers; pass --answers FILE (see 'mcpcli help answers'), or pipe line answers in (see 'mcpcli help accessible')")

// Prompter is the line-by-line answerer: questions on Out (stderr), one
// answer per line from In. It works on a terminal and on piped input, and
// it is what --accessible uses.
//
// The lines it reads for a form ask are: a/d/c (accept and fill in,
// decline, cancel); then one line per field (empty takes the default, or
// leaves an optional field unset); then y/e/d/c at the review (send, edit,
// decline, cancel). End of input cancels.
type Prompter struct {
	In  *bufio.Reader
	Out io.Writer
	// URL answers URL-mode asks, after the Prompter has shown who asks and
	// why; the urlmode package provides it (asking on this Prompter).
	URL func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error)
	// ReadSecret reads a line without echo, when In is a terminal.
	ReadSecret func() (string, error)
	// Echo writes each line read back to Out: on piped input it makes the
	// transcript read like a session.
	Echo bool
	// MaxAttempts bounds the re-asks after invalid input (default 3).
	MaxAttempts int
	// Banner, when set, heads every ask (the demo's "Tour 3/7 · …").
	Banner string
	// DropTypeahead, when set, discards what was typed ahead on the
	// terminal, before Confirm reads its answer.
	DropTypeahead func()
	// MaxLine bounds a line read (0: MaxLineBytes); a longer one is
	// refused with a *LineTooLongError.
	MaxLine int

	lines int // lines read so far as answers
	read  int // lines read from In so far, commands too (ReadRaw)
}

// NewPrompter returns a Prompter reading in and writing out.
func NewPrompter(in io.Reader, out io.Writer) *Prompter {
	return &Prompter{In: bufio.NewReader(in), Out: out}
}

// NewTerminalPrompter is a Prompter reading in: on a terminal (tty, its
// descriptor fd), a secret is read without echo and what was typed ahead
// is dropped before a question; piped, each answer read is echoed.
func NewTerminalPrompter(in io.Reader, out io.Writer, tty bool, fd int) *Prompter {
	p := NewPrompter(in, out)
	if !tty {
		p.Echo = true
		return p
	}
	p.ReadSecret = func() (string, error) {
		b, err := term.ReadPassword(fd)
		return string(b), err
	}
	p.DropTypeahead = func() { DropTerminalInput(fd) }
	return p
}

// Write writes to the Prompter's output: what it asks, and what goes with
// a question.
func (p *Prompter) Write(b []byte) (int, error) { return p.Out.Write(b) }

// errEOF is end of input in the middle of an ask (errors.Is io.EOF).
var errEOF = fmt.Errorf("end of input (%w)", io.EOF)

// errGaveUp is too many invalid answers to one question.
var errGaveUp = errors.New("too many invalid answers")

// ReadLine writes prompt and reads one line, without its newline.
func (p *Prompter) ReadLine(ctx context.Context, prompt string) (string, error) {
	return p.readLine(ctx, prompt, false)
}

// readLine is ReadLine; a secret line is echoed (on piped input) as dots.
func (p *Prompter) readLine(ctx context.Context, prompt string, secret bool) (string, error) {
	fmt.Fprint(p.Out, prompt)
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		s, err := p.ReadRaw()
		ch <- result{s, err}
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(p.Out)
		return "", ctx.Err()
	case r := <-ch:
		var long *LineTooLongError
		if errors.As(r.err, &long) {
			fmt.Fprintln(p.Out)
			return "", r.err
		}
		if r.err != nil && (r.s == "" || !errors.Is(r.err, io.EOF)) {
			fmt.Fprintln(p.Out)
			if p.lines == 0 && errors.Is(r.err, io.EOF) {
				return "", ErrNoInput
			}
			if errors.Is(r.err, io.EOF) {
				return "", errEOF
			}
			return "", r.err
		}
		p.lines++
		s := strings.TrimRight(r.s, "\r\n")
		if p.Echo {
			if secret && s != "" {
				fmt.Fprintln(p.Out, mask(s))
			} else {
				fmt.Fprintln(p.Out, Line(s))
			}
		}
		return s, nil
	}
}

// ReadRaw reads the next line from In as it is, its newline included,
// bounded by MaxLine: a longer line is read past and refused with a
// *LineTooLongError naming it. It prompts and echoes nothing.
func (p *Prompter) ReadRaw() (string, error) {
	max := p.MaxLine
	if max <= 0 {
		max = MaxLineBytes
	}
	s, err := readBoundedLine(p.In, max)
	var long *LineTooLongError
	if errors.As(err, &long) {
		p.read++
		long.Line = p.read
		return "", long
	}
	if s != "" {
		p.read++
	}
	return s, err
}

// choose reads one of the letters in opts (first letter of each word);
// empty input takes def, or, when def is "", is asked again (a choice that
// must be made explicitly).
func (p *Prompter) choose(ctx context.Context, prompt string, opts []string, def string) (string, error) {
	for attempt := 0; ; attempt++ {
		line, err := p.ReadLine(ctx, prompt)
		if err != nil {
			return "", err
		}
		in := strings.ToLower(strings.TrimSpace(line))
		if in == "" && def != "" {
			return def, nil
		}
		for _, o := range opts {
			if in == o || in == o[:1] {
				return o, nil
			}
		}
		if attempt+1 >= p.Attempts() {
			return "", errGaveUp
		}
		fmt.Fprintf(p.Out, "  ! type one of: %s\n", strings.Join(opts, ", "))
	}
}

// Attempts is how many invalid answers to one question the prompter takes
// before giving up on it (MaxAttempts, or 3).
func (p *Prompter) Attempts() int {
	if p.MaxAttempts > 0 {
		return p.MaxAttempts
	}
	return 3
}

// Answer implements client.Answerer.
func (p *Prompter) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out := make(map[string]*mcp.ElicitResult, len(r.Asks))
	for i, a := range r.Asks {
		res, err := p.answerOne(ctx, r, i)
		switch {
		case errors.Is(err, errEOF):
			fmt.Fprintln(p.Out, "  end of input: cancelling")
			res = &mcp.ElicitResult{Action: client.Cancel}
		case errors.Is(err, errGaveUp):
			fmt.Fprintln(p.Out, "  too many invalid answers: cancelling")
			res = &mcp.ElicitResult{Action: client.Cancel}
		case err != nil:
			return nil, err
		}
		out[a.Key] = res
		p.status(r, i, res)
		if res.Action == client.Cancel && i+1 < len(r.Asks) {
			rest := len(r.Asks) - i - 1
			all := errors.Is(err, errEOF)
			if !all {
				c, cerr := p.choose(ctx, fmt.Sprintf("Cancel the other %d ask%s of this round too? [y]es/[n]o [y]: ", rest, plural.S(rest)), []string{"yes", "no"}, "yes")
				all = cerr != nil || c == "yes"
				if cerr != nil && !errors.Is(cerr, errEOF) && !errors.Is(cerr, errGaveUp) {
					return nil, cerr
				}
			}
			if all {
				for _, b := range r.Asks[i+1:] {
					out[b.Key] = &mcp.ElicitResult{Action: client.Cancel}
				}
				fmt.Fprintf(p.Out, "→ cancel for the other %d ask%s\n", rest, plural.S(rest))
				return out, nil
			}
		}
	}
	return out, nil
}

func (p *Prompter) status(r client.Round, i int, res *mcp.ElicitResult) {
	fmt.Fprintln(p.Out, statusLine(r, i, res))
}

func (p *Prompter) heading(r client.Round, i int) {
	a := r.Asks[i]
	if p.Banner != "" {
		fmt.Fprintf(p.Out, "\n%s", Line(p.Banner))
	}
	fmt.Fprintf(p.Out, "\n── %s ──\n", AskTitle(r, i))
	if c := Context(r); c != "" {
		fmt.Fprintf(p.Out, "   %s\n", c)
	}
	if a.Params != nil && a.Params.Message != "" {
		for _, l := range strings.Split(Sanitize(a.Params.Message), "\n") {
			fmt.Fprintf(p.Out, "   %s\n", l)
		}
	}
	fmt.Fprintf(p.Out, "   Your answers go to %s.\n", Who(r.Server))
}

func (p *Prompter) answerOne(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
	a := r.Asks[i]
	p.heading(r, i)
	if a.Mode() == "url" {
		if p.URL == nil {
			return nil, errors.New("mcpcli cannot ask about URLs in this run")
		}
		return p.URL(ctx, r, i)
	}
	form := a.Form
	switch {
	case a.Mode() != "form":
		form = &schema.Form{Problems: []schema.Problem{{Reason: fmt.Sprintf("the ask's mode is %q; mcpcli knows form and url", Line(a.Mode()))}}}
	case a.FormErr != nil:
		form = &schema.Form{Problems: []schema.Problem{{Reason: a.FormErr.Error()}}}
	case form == nil:
		form = &schema.Form{Problems: []schema.Problem{{Reason: "the ask has no schema mcpcli could read"}}}
	}
	if !form.Renderable() {
		fmt.Fprintln(p.Out, "   mcpcli cannot show this form:")
		for _, pr := range form.Problems {
			fmt.Fprintf(p.Out, "     - %s\n", Line(pr.String()))
		}
		c, err := p.choose(ctx, "Answer? [d]ecline/[c]ancel [c]: ", []string{"decline", "cancel"}, "cancel")
		if err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: c}, nil
	}
	p.listFields(form)
	c, err := p.choose(ctx, "Answer? [a]ccept and fill in/[d]ecline/[c]ancel [a]: ", []string{"accept", "decline", "cancel"}, "accept")
	if err != nil || c != client.Accept {
		return &mcp.ElicitResult{Action: c}, err
	}
	// The answers given the last time the request was sent (a re-run),
	// if any, are where each field starts ([now: …]).
	values := map[string]any{}
	for k, v := range a.Given {
		if f := form.Field(k); f != nil && v != nil {
			if tv, err := f.FromAny(jsonValue(v)); err == nil {
				values[k] = tv
			}
		}
	}
	content, action, err := p.fill(ctx, form, values, true)
	if err != nil {
		return nil, err
	}
	return &mcp.ElicitResult{Action: action, Content: content}, nil
}

// fill asks for each field of form in turn (values holds what is known
// already), then reviews: it returns the content to send and "accept", or
// "decline" (only where decline is offered) or "cancel" without content.
func (p *Prompter) fill(ctx context.Context, form *schema.Form, values map[string]any, decline bool) (map[string]any, string, error) {
	for _, f := range form.Fields {
		if err := p.askField(ctx, f, values); err != nil {
			return nil, "", err
		}
	}
	for {
		content, verr := form.Content(values)
		p.review(form, values, verr)
		prompt := "Send? [y]es/[e]dit/[d]ecline/[c]ancel [y]: "
		opts := []string{"yes", "edit", "decline", "cancel"}
		if verr != nil {
			prompt = "Fix it? [e]dit/[d]ecline/[c]ancel [e]: "
			opts = []string{"edit", "decline", "cancel"}
		}
		if !decline {
			prompt = strings.Replace(prompt, "[d]ecline/", "", 1)
			opts = slices.DeleteFunc(opts, func(o string) bool { return o == "decline" })
		}
		c, err := p.choose(ctx, prompt, opts, opts[0])
		if err != nil {
			return nil, "", err
		}
		switch c {
		case "yes":
			return content, client.Accept, nil
		case "decline", "cancel":
			return nil, c, nil
		}
		f, err := p.pickField(ctx, form, verr)
		if err != nil {
			return nil, "", err
		}
		if err := p.askField(ctx, f, values); err != nil {
			return nil, "", err
		}
	}
}

// AskArguments asks for a request's arguments as lines, starting from the
// values given, and returns the arguments to send, or ErrCancelled.
func (p *Prompter) AskArguments(ctx context.Context, args Arguments) (map[string]any, error) {
	fmt.Fprintf(p.Out, "\n── %s ──\n", argsTitle(&args))
	if args.Description != "" {
		for _, l := range strings.Split(Sanitize(args.Description), "\n") {
			fmt.Fprintf(p.Out, "   %s\n", l)
		}
	}
	fmt.Fprintf(p.Out, "   Sent to %s when you send it.\n", Who(args.Server))
	p.listFields(args.Form)
	values := map[string]any{}
	for k, v := range args.Given {
		if f := args.Form.Field(k); f != nil && v != nil {
			if tv, err := f.FromAny(jsonValue(v)); err == nil {
				values[k] = tv
			}
		}
	}
	content, action, err := p.fill(ctx, args.Form, values, false)
	if errors.Is(err, errEOF) || errors.Is(err, errGaveUp) || err == nil && action != client.Accept {
		return nil, ErrCancelled
	}
	return content, err
}

// jsonValue is v as encoding/json would decode it (float64 for numbers):
// the form's own typing starts from that.
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

func (p *Prompter) listFields(form *schema.Form) {
	if len(form.Fields) == 0 {
		fmt.Fprintln(p.Out, "   (no fields: accept just says yes)")
		return
	}
	names := make([]string, len(form.Fields))
	for i, f := range form.Fields {
		names[i] = Line(f.Label())
		if f.Required {
			names[i] += "*"
		}
	}
	note := ""
	for _, f := range form.Fields {
		if f.Required {
			note = "   (* required)"
			break
		}
	}
	// Wrapped under itself, not at the terminal's edge.
	fmt.Fprintf(p.Out, "   Fields: %s\n", wrapHanging(strings.Join(names, ", ")+note, 80-11, 11))
}

const maxListed = 30

func (p *Prompter) askField(ctx context.Context, f *schema.Field, values map[string]any) error {
	label := Line(f.Label())
	if f.Required {
		label += "*"
	}
	fmt.Fprintf(p.Out, "\n %s (%s)\n", label, Constraints(f))
	if f.Description != "" {
		for _, l := range strings.Split(Sanitize(f.Description), "\n") {
			fmt.Fprintf(p.Out, "   %s\n", l)
		}
	}
	if f.Secret {
		fmt.Fprintf(p.Out, "   ⚠ %s\n", SecretWarning)
	}
	if f.DefaultProblem != "" {
		fmt.Fprintf(p.Out, "   note: %s\n", Line(f.DefaultProblem))
	}
	if len(f.Options) > 0 {
		for j, o := range f.Options {
			if j == maxListed {
				fmt.Fprintf(p.Out, "   … %d more; type a value or title\n", len(f.Options)-maxListed)
				break
			}
			fmt.Fprintf(p.Out, "   %d) %s\n", j+1, Line(o.Label()))
		}
		if f.Kind == schema.MultiSelect {
			fmt.Fprintln(p.Out, "   (several: separate with commas; - for none)")
		}
	}
	current, has := values[f.Name]
	show := func(v any) string {
		if f.Secret {
			return mask(f.Show(v))
		}
		return showValue(f, v)
	}
	hint := ""
	switch {
	case has && current != nil:
		hint = fmt.Sprintf(" [now: %s]", show(current))
	case f.Default != nil:
		hint = fmt.Sprintf(" [default: %s]", show(f.Default))
	case !f.Required:
		hint = " [empty: leave unset]"
	}
	for attempt := 0; ; attempt++ {
		var line string
		var err error
		if f.Secret && p.ReadSecret != nil {
			fmt.Fprintf(p.Out, "> %s (input hidden):", hint)
			line, err = p.ReadSecret()
			fmt.Fprintln(p.Out)
			if err != nil {
				return errEOF
			}
			p.lines++
		} else {
			line, err = p.readLine(ctx, fmt.Sprintf(">%s: ", hint), f.Secret)
			if err != nil {
				return err
			}
		}
		if f.Kind == schema.MultiSelect && strings.TrimSpace(line) == "-" {
			values[f.Name] = []string{}
			if cerr := f.Check([]string{}); cerr == nil {
				return nil
			} else if attempt+1 >= p.Attempts() {
				return errGaveUp
			} else {
				fmt.Fprintf(p.Out, "  ! %s %s\n", Line(f.Label()), Line(cerr.Error()))
				continue
			}
		}
		v, perr := f.ParseInput(line)
		if perr == nil && v == nil {
			switch {
			case has && current != nil:
				return nil // keep the value from before
			case f.Default != nil:
				values[f.Name] = f.Default
				return nil
			case !f.Required:
				delete(values, f.Name)
				return nil
			default:
				perr = errors.New("is required")
			}
		}
		if perr == nil {
			values[f.Name] = v
			return nil
		}
		if attempt+1 >= p.Attempts() {
			return errGaveUp
		}
		fmt.Fprintf(p.Out, "  ! %s %s; try again\n", Line(f.Label()), Line(perr.Error()))
	}
}

func (p *Prompter) review(form *schema.Form, values map[string]any, verr error) {
	fmt.Fprintln(p.Out, "\n Review: this is what will be sent")
	width := 0
	for _, f := range form.Fields {
		width = max(width, len([]rune(Line(f.Label()))))
	}
	for i, f := range form.Fields {
		v, ok := values[f.Name]
		shown := "(not set: left out)"
		if ok && v != nil {
			shown = showValue(f, v)
			if f.Secret {
				shown = mask(shown)
			}
		}
		fmt.Fprintf(p.Out, "  %2d. %-*s  %s\n", i+1, width, Line(f.Label()), shown)
	}
	if verr != nil {
		fmt.Fprintf(p.Out, "  ! %s\n", Line(verr.Error()))
	}
}

func (p *Prompter) pickField(ctx context.Context, form *schema.Form, verr error) (*schema.Field, error) {
	var fe *schema.FieldError
	def := ""
	if errors.As(verr, &fe) {
		def = fe.Field
	}
	prompt := "Edit which field? (number or name): "
	if def != "" {
		prompt = fmt.Sprintf("Edit which field? (number or name) [%s]: ", Line(def))
	}
	for attempt := 0; ; attempt++ {
		line, err := p.ReadLine(ctx, prompt)
		if err != nil {
			return nil, err
		}
		in := strings.TrimSpace(line)
		if in == "" {
			in = def
		}
		if n, err := strconv.Atoi(in); err == nil && n >= 1 && n <= len(form.Fields) {
			return form.Fields[n-1], nil
		}
		for _, f := range form.Fields {
			if in == f.Name || strings.EqualFold(in, f.Title) {
				return f, nil
			}
		}
		if attempt+1 >= p.Attempts() {
			return nil, errGaveUp
		}
		fmt.Fprintf(p.Out, "  ! no field %q\n", Line(in))
	}
}

// mask stands for a secret: as many dots as it has characters, up to 12.
func mask(s string) string { return strings.Repeat("•", min(len([]rune(s)), 12)) }
