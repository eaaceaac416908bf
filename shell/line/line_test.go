package line

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// A server with a tool that asks (a form round), a prompt, a template.
func server() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "desk", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Text string }
			json.Unmarshal(req.Params.Arguments, &args)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + args.Text}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["name"].(*mcp.ElicitResult); ok {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + r.Content["name"].(string)}}}, nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"name": &mcp.ElicitParams{Message: "Your name?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "wipe", Annotations: &mcp.ToolAnnotations{}, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wiped"}}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "plan", Arguments: []*mcp.PromptArgument{{Name: "goal", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "plan " + req.Params.Arguments["goal"]}}}}, nil
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "note", URITemplate: "desk://notes/{topic}"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "note " + req.Params.URI}}}, nil
		})
	return srv
}

// words are the errors and notes as they come.
type words struct{}

func (words) Error(err error) string     { return err.Error() }
func (words) Note(n request.Note) string { return "note" }

// answers answers every ask with the name "Ada".
var answers = client.AnswererFunc(func(_ context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out := map[string]*mcp.ElicitResult{}
	for _, a := range r.Asks {
		out[a.Key] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}
	}
	return out, nil
})

// run runs the line shell over the commands given, against server().
func run(t *testing.T, commands string, o *Options) (error, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	con := render.NewConsole(&errb, render.ConsoleOptions{})
	o.Out, o.Console, o.Words = &out, con, words{}
	o.Prompter = render.NewPrompter(strings.NewReader(commands), con)
	o.Now = func() time.Time { return time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC) }
	o.Connect = func(ctx context.Context, rec *request.Recorder) (*client.Session, error) {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server().Connect(ctx, st, nil)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { ss.Close() })
		opts := client.Options{Modes: client.Modes{Form: true}, Answerer: rec.Answerer(answers)}
		rec.Hook(&opts)
		return client.Connect(ctx, transport.Wrap(ct, "desk"), opts)
	}
	err := Run(ctx, o)
	return err, out.String(), errb.String()
}

func TestLineShell(t *testing.T) {
	script := filepath.Join(t.TempDir(), "s.sh")
	err, out, errs := run(t, "tools\ncall echo text=hi\ncall ask\nprompt plan goal=ship\nread desk://notes/{topic} topic=go\nhistory\nrerun 2\nsave "+script+"\nquit\n", &Options{Scripted: true})
	if err != nil {
		t.Fatalf("Run = %v; stderr:\n%s", err, errs)
	}
	for _, want := range []string{"echo text=string", "echo hi\n", "hello Ada\n", "plan ship\n", "note desk://notes/go\n",
		"  1  call echo text=hi  (done)", "  2  call ask  (done, 1 round)", "  4  read desk://notes/go  (done)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "hello Ada") != 2 {
		t.Errorf("rerun 2 did not call ask again:\n%s", out)
	}
	if !strings.Contains(errs, "mcpcli: note") {
		t.Errorf("the template filled in is not said:\n%s", errs)
	}
	b, err := os.ReadFile(script)
	if err != nil || !strings.Contains(string(b), `"name": {"action":"accept","content":{"name":"Ada"}}`) {
		t.Errorf("the saved script (%v) does not carry the answer:\n%s", err, b)
	}
}

func TestLineShellFailures(t *testing.T) {
	err, _, errs := run(t, "call echo\ncall nope\nprompt plan\nread desk://plain topic=x\nfrob\nlevel\n", &Options{})
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Failed != 6 || fe.Of != 6 {
		t.Fatalf("Run = %v, want 6 of 6 commands failed; stderr:\n%s", err, errs)
	}
	for _, want := range []string{`tool "echo" needs [text]`, `has no tool "nope"`, `prompt "plan" needs [goal]`, `"desk://plain" is not a URI template`,
		`unknown command "frob"`, "level takes one of: debug, info"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// A tool marked destructive is called only after a y on the next line.
func TestLineShellAsksBeforeADestructiveTool(t *testing.T) {
	err, out, errs := run(t, "call wipe\nn\ncall wipe\ny\n", &Options{})
	if err != nil || strings.Count(out, "wiped") != 1 || !strings.Contains(errs, "not called: nothing was sent") {
		t.Errorf("Run = %v; stdout:\n%s\nstderr:\n%s", err, out, errs)
	}
}

// The results a line session keeps for save flow are copied out of the
// transport's buffer (which they would keep alive whole) and stay within
// the result budget: past it the oldest are let go, and counted.
func TestKeptResultsAreDetachedAndBounded(t *testing.T) {
	l := &line{o: &Options{ResultBudget: 200}}
	buf := []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("a", 40) + `"}]}......`)
	raw := buf[:len(buf)-6] // a result read into a bigger buffer
	for i := 0; i < 3; i++ {
		res := &client.Result{Method: "tools/call", Target: "echo", Raw: raw}
		l.reqs = append(l.reqs, request.Saved{ID: i + 1})
		l.reqs[i].Result = l.keep(res)
	}
	if k := l.reqs[2].Result; k == nil || &k.Raw[0] == &buf[0] || string(k.Raw) != string(raw) {
		t.Fatalf("keep kept %+v; want a copy of the result's bytes, detached from the buffer", k)
	}
	if l.reqs[0].Result != nil || l.reqs[1].Result == nil || l.dropped != 1 || l.kept != int64(2*len(raw)) {
		t.Errorf("after 3 results of %d bytes in a budget of 200: kept %v %v %v, %d bytes, %d dropped; want the oldest let go",
			len(raw), l.reqs[0].Result != nil, l.reqs[1].Result != nil, l.reqs[2].Result != nil, l.kept, l.dropped)
	}
	big := &client.Result{Method: "tools/call", Raw: json.RawMessage(strings.Repeat(" ", 201))}
	if k := l.keep(big); k != nil || l.dropped != 2 {
		t.Errorf("keep(a result bigger than the budget) = %v with %d dropped; want it let go", k, l.dropped)
	}
	if k := l.keep(nil); k != nil {
		t.Errorf("keep(nil) = %v", k)
	}
}
