package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/schema"
)

// answerer picks how elicitations are answered in this run: an answers
// file, or the person at the terminal.
func (a *app) answerer(cmd *cobra.Command) (client.Answerer, error) {
	if a.flags.answers != "" {
		return a.scriptAnswerer(cmd)
	}
	if f := a.formAnswerer(); f != nil {
		return a.withURLScreens(f), nil
	}
	p := render.NewPrompter(a.deps.In, a.deps.Err)
	p.URL = a.urlConsent().Line
	if a.deps.InTTY {
		fd := a.deps.InFd
		p.ReadSecret = func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		}
	} else {
		p.Echo = true
	}
	return p, nil
}

func (a *app) scriptAnswerer(cmd *cobra.Command) (client.Answerer, error) {
	var r io.Reader
	name := a.flags.answers
	if name == "-" {
		r, name = a.deps.In, "from stdin"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, usageErrorf(cmd, "--answers: %v", err)
		}
		defer f.Close()
		r = f
	}
	s, err := client.ParseScript(r, name)
	if err != nil {
		return nil, usageErrorf(cmd, "%v", err)
	}
	s.Check = checkContent
	s.Notify = func(ask client.Ask, res *mcp.ElicitResult, key string) {
		fmt.Fprintf(a.deps.Err, "→ %s: %s (answers file, key %q)\n", render.Line(ask.Key), res.Action, key)
	}
	// A scripted accept of a URL is the script's consent: opened with
	// --open-urls, printed otherwise; refused schemes become decline.
	return a.urlConsent().Script(s, a.flags.openURLs), nil
}

// checkContent vets scripted content against the requested schema, as a
// form would: content that does not fit is never sent.
func checkContent(ask client.Ask, content map[string]any) error {
	form, err := schema.Parse(ask.RawSchema())
	if err != nil {
		return err
	}
	typed, err := form.FromContent(content)
	if err != nil {
		return err
	}
	return form.Validate(typed)
}

var outMu sync.Mutex

// showLog prints a server's notifications/message on stderr.
func (a *app) showLog(p *mcp.LoggingMessageParams) {
	var data string
	switch d := p.Data.(type) {
	case string:
		data = d
	default:
		b, _ := json.Marshal(d)
		data = string(b)
	}
	logger := ""
	if p.Logger != "" {
		logger = " " + render.Line(p.Logger)
	}
	outMu.Lock()
	defer outMu.Unlock()
	a.clearProgress()
	fmt.Fprintf(a.deps.Err, "[server %s%s] %s\n", render.Line(string(p.Level)), logger, render.Line(data))
}

// showProgress shows notifications/progress on stderr: a live bar on a
// terminal, plain lines otherwise.
func (a *app) showProgress(p *mcp.ProgressNotificationParams) {
	outMu.Lock()
	defer outMu.Unlock()
	a.progressView().Update(p)
}

// showStep makes each round trip visible on stderr (--verbose, demo).
func (a *app) showStep(st client.Step) {
	outMu.Lock()
	defer outMu.Unlock()
	a.clearProgress()
	fmt.Fprintln(a.deps.Err, describeStep(st))
}

func describeStep(st client.Step) string {
	target := render.Line(st.Target)
	switch st.Kind {
	case client.StepSend:
		if st.Round == 0 {
			return fmt.Sprintf("→ %s %s", st.Method, target)
		}
		var parts []string
		keys := make([]string, 0, len(st.Answers))
		for k := range st.Answers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s=%s", render.Line(k), st.Answers[k]))
		}
		answers := "no inputResponses"
		if len(parts) > 0 {
			answers = "inputResponses {" + strings.Join(parts, ", ") + "}"
		}
		return fmt.Sprintf("→ %s %s again, new id: %s; %s", st.Method, target, answers, stateText(st.StateLen, "requestState echoed"))
	case client.StepInputRequired:
		asked := "no input requests"
		if len(st.Asked) > 0 {
			q := make([]string, len(st.Asked))
			for i, k := range st.Asked {
				q[i] = render.Line(k)
			}
			asked = "asks " + strings.Join(q, ", ")
		}
		return fmt.Sprintf("← input_required (round %d): %s; %s", st.Round, asked, stateText(st.StateLen, "requestState"))
	case client.StepComplete:
		if st.Round == 0 {
			return "← result"
		}
		return fmt.Sprintf("← result, after %d round%s", st.Round, plural(st.Round))
	}
	return ""
}

func stateText(n int, what string) string {
	if n < 0 {
		return "no requestState"
	}
	return fmt.Sprintf("%s (%d bytes)", what, n)
}

// warnHandler shows the SDK's warnings (and worse) as plain stderr lines.
type warnHandler struct {
	w     io.Writer
	attrs []slog.Attr
}

func newWarnLogger(w io.Writer) *slog.Logger { return slog.New(&warnHandler{w: w}) }

func (h *warnHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *warnHandler) Handle(_ context.Context, r slog.Record) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "mcpcli: warning: %s", r.Message)
	attrs := append([]slog.Attr(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool { attrs = append(attrs, a); return true })
	for _, a := range attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	outMu.Lock()
	defer outMu.Unlock()
	fmt.Fprintln(h.w, render.Line(b.String()))
	return nil
}

func (h *warnHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &warnHandler{w: h.w, attrs: append(append([]slog.Attr(nil), h.attrs...), as...)}
}

func (h *warnHandler) WithGroup(string) slog.Handler { return h }

// discoverNotes keeps what server/discover said that the SDK does not
// hand back: the server's supported versions.
type discoverNotes struct {
	mu        sync.Mutex
	supported []string
}

func (d *discoverNotes) observe(msg []byte) {
	if !bytes.Contains(msg, []byte(`"supportedVersions"`)) {
		return
	}
	var m struct {
		Result *struct {
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) == nil && m.Result != nil && m.Result.SupportedVersions != nil {
		d.mu.Lock()
		d.supported = m.Result.SupportedVersions
		d.mu.Unlock()
	}
}

func (d *discoverNotes) versions() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.supported...)
}
