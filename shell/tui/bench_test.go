package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// listed is a client whose lists are given: the benchmarks measure the
// session's own work, not a server's.
type listed struct {
	tools   *client.ToolList
	prompts *client.PromptList
	res     *client.ResourceList
}

func (l *listed) Server() client.Server {
	return client.Server{Name: "bench", Title: "Bench Server", Version: "1.0.0", Via: "stdio: bench", Protocol: "2026-07-28"}
}
func (l *listed) Capabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
}
func (l *listed) ListTools(context.Context) (*client.ToolList, error)         { return l.tools, nil }
func (l *listed) ListPrompts(context.Context) (*client.PromptList, error)     { return l.prompts, nil }
func (l *listed) ListResources(context.Context) (*client.ResourceList, error) { return l.res, nil }
func (l *listed) CallTool(context.Context, string, map[string]any) (*client.Result, error) {
	return nil, fmt.Errorf("not in a benchmark")
}
func (l *listed) GetPrompt(context.Context, string, map[string]string) (*client.Result, error) {
	return nil, fmt.Errorf("not in a benchmark")
}
func (l *listed) ReadResource(context.Context, string) (*client.Result, error) {
	return nil, fmt.Errorf("not in a benchmark")
}
func (l *listed) ListResourceTemplates(context.Context) (*client.TemplateList, error) {
	return &client.TemplateList{}, nil
}
func (l *listed) Complete(context.Context, *mcp.CompleteReference, string, string, map[string]string) (*client.Completion, error) {
	return &client.Completion{}, nil
}
func (l *listed) LogLevel() string                          { return "" }
func (l *listed) SetLogLevel(context.Context, string) error { return nil }
func (l *listed) Subscribe(context.Context, string) error   { return nil }
func (l *listed) Unsubscribe(context.Context, string) error { return nil }
func (l *listed) Wait(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}
func (l *listed) Explain(err error) error { return err }
func (l *listed) list(which tab) loadedMsg {
	return loadedMsg{which: which, tools: l.tools, pr: l.prompts, res: l.res}
}
func (l *listed) lists() []loadedMsg {
	return []loadedMsg{l.list(tabTools), l.list(tabPrompts), l.list(tabResources)}
}
func (l *listed) model() *Model {
	return New(Options{Client: l, Transport: "stdio", Negotiated: "discover"})
}
func (l *listed) ready(m *Model) *Model {
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.BackgroundColorMsg{})
	for _, msg := range l.lists() {
		m.Update(msg)
	}
	return m
}

// manyTools is a server listing n tools, each with a description and a
// few arguments, as the go-sdk decodes them and as they were sent.
func manyTools(n int) *listed {
	l := &listed{tools: &client.ToolList{Raw: map[string]json.RawMessage{}}, prompts: &client.PromptList{}, res: &client.ResourceList{}}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("tool_%04d_%s", i, []string{"search", "create", "delete", "update", "list"}[i%5])
		schema := fmt.Sprintf(`{"type":"object","properties":{"query":{"type":"string","description":"What to look for in thing %d"},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},"deep":{"type":"boolean"}},"required":["query"]}`, i)
		t := &mcp.Tool{Name: name, Title: fmt.Sprintf("Tool number %d", i), Description: fmt.Sprintf("Does thing %d to the things it is given, carefully, and says what it did. ", i) + strings.Repeat("More words about it. ", 5),
			InputSchema: json.RawMessage(schema), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: i%3 == 0}}
		raw, _ := json.Marshal(t)
		l.tools.Tools = append(l.tools.Tools, t)
		l.tools.Raw[name] = raw
	}
	for i := 0; i < 10; i++ {
		l.prompts.Prompts = append(l.prompts.Prompts, &mcp.Prompt{Name: fmt.Sprintf("prompt_%d", i), Description: "A prompt."})
		l.res.Resources = append(l.res.Resources, &mcp.Resource{URI: fmt.Sprintf("mem://r/%d", i), Name: fmt.Sprintf("r%d", i)})
	}
	return l
}

// BenchmarkFirstFrame: the lists arrive after connecting (15 tools, as
// server-everything has), and the first frame is drawn.
func BenchmarkFirstFrame(b *testing.B) {
	l := manyTools(15)
	b.ReportAllocs()
	for b.Loop() {
		l.ready(l.model()).View()
	}
}

// BenchmarkKeystrokeFilter1000: one character typed into the filter of a
// 1,000-tool list (every name matched again, the detail pane of the new
// first match drawn), and the frame it makes.
func BenchmarkKeystrokeFilter1000(b *testing.B) {
	l := manyTools(1000)
	m := l.ready(l.model())
	m.Update(keyMsg("/"))
	m.Update(keyMsg("c"))
	keys := []tea.KeyPressMsg{keyMsg("r"), keyMsg("backspace")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		m.View()
		i++
	}
}

// BenchmarkKeystrokeMove1000: one move down a 1,000-tool list, and the
// frame (a new detail pane each time).
func BenchmarkKeystrokeMove1000(b *testing.B) {
	l := manyTools(1000)
	m := l.ready(l.model())
	keys := []tea.KeyPressMsg{keyMsg("down"), keyMsg("down"), keyMsg("up")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%3])
		m.View()
		i++
	}
}

// textResultOf is a tool result of about n bytes of text, in lines of
// various lengths (some longer than the screen).
func textResultOf(n int) *client.Result {
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		fmt.Fprintf(&sb, "line %d: %s\n", i, strings.Repeat("lorem ipsum ", 1+i%20))
	}
	text := sb.String()
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	raw, _ := json.Marshal(res)
	return &client.Result{Method: "tools/call", Target: "big", Raw: raw, Tool: res}
}

// BenchmarkBuild10MBResult: a 10 MB result sanitized, split and laid out
// for the screen. It runs off the event loop (the call's goroutine, then a
// command), so it costs no frame; the frames are the next benchmarks.
func BenchmarkBuild10MBResult(b *testing.B) {
	res := textResultOf(10 << 20)
	b.ReportAllocs()
	for b.Loop() {
		v := newResultView(res)
		v.setRows(v.layout(44))
	}
}

// a10MB is a session showing a laid-out 10 MB result.
func a10MB(b *testing.B) *Model {
	l := manyTools(15)
	m := l.ready(l.model())
	c := &call{id: 1, method: "tools/call", target: "big", state: stateDone, result: textResultOf(10 << 20)}
	c.view = newResultView(c.result)
	m.calls, m.byID[1], m.viewing = append(m.calls, c), c, c
	c.view.width = m.resultWidth(c)
	c.view.setRows(c.view.layout(c.view.width))
	return m
}

// BenchmarkFrame10MBResult: a frame of the call view with a 10 MB result.
func BenchmarkFrame10MBResult(b *testing.B) {
	m := a10MB(b)
	b.ReportAllocs()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkScroll10MBResult: a page down (and back up) in a 10 MB result,
// and the frame.
func BenchmarkScroll10MBResult(b *testing.B) {
	m := a10MB(b)
	keys := []tea.KeyPressMsg{keyMsg("pgdown"), keyMsg("pgdown"), keyMsg("end"), keyMsg("home")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%4])
		m.View()
		i++
	}
}
