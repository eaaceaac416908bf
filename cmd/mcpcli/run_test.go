package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// The run functions, with a fake for everything outside them: a go-sdk
// server in this process over in-memory transports, a person who answers
// forms and value questions (fakeAsker), buffers for stdout and stderr.
// No process starts.

// shop is a server with a tool that takes a required city, a prompt whose
// argument completes, and a resource template.
func shop() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"Lisbon", "Oslo"}}}, nil
		},
	})
	srv.AddTool(&mcp.Tool{Name: "book", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"nights":{"type":"integer"}},"required":["city"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "booked " + string(req.Params.Arguments)}}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "trip", Arguments: []*mcp.PromptArgument{{Name: "city", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Plan a trip to " + req.Params.Arguments["city"]}}}}, nil
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "guide", URITemplate: "shop://guides/{city}"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "guide " + req.Params.URI}}}, nil
		})
	return srv
}

// inMemory is a connector to srv, in this process.
func inMemory(t *testing.T, srv *mcp.Server) connector {
	return func(ctx context.Context) (*client.Session, error) {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { ss.Close() })
		return client.Connect(ctx, transport.Wrap(ct, "shop"), client.Options{Modes: client.Modes{Form: true}})
	}
}

// fakeAsker answers an arguments form and value questions as a person
// would; it fails the test when asked what it did not expect.
type fakeAsker struct {
	t      *testing.T
	form   map[string]any
	values map[string]string
	asked  []string
}

func (a *fakeAsker) AskArguments(_ context.Context, args request.Arguments) (map[string]any, error) {
	a.asked = append(a.asked, "form "+args.Target)
	if a.form == nil {
		a.t.Errorf("asked the form of %s, which the test does not answer", args.Target)
		return nil, request.ErrCancelled
	}
	return a.form, nil
}

func (a *fakeAsker) AskValue(_ context.Context, q request.Question) (string, error) {
	a.asked = append(a.asked, "value "+q.Name+" "+strings.Join(q.Suggestions, ","))
	v, ok := a.values[q.Name]
	if !ok {
		a.t.Errorf("asked for %s, which the test does not answer", q.Name)
		return "", request.ErrCancelled
	}
	return v, nil
}

func buffers() (*bytes.Buffer, *bytes.Buffer, *render.Console) {
	var out, errb bytes.Buffer
	return &out, &errb, render.NewConsole(&errb, render.ConsoleOptions{})
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestCallRun(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pairs    []request.Pair
		form     map[string]any
		wantOut  string
		wantErr  any
		wantAsks []string
	}{
		{name: "typed by the schema", pairs: []request.Pair{{Key: "city", Value: "Oslo"}, {Key: "nights", Value: "2"}}, wantOut: `booked {"city":"Oslo","nights":2}`},
		{name: "missing, asked on the form", pairs: []request.Pair{{Key: "nights", Value: "3"}}, form: map[string]any{"city": "Lisbon", "nights": 3}, wantOut: `"city":"Lisbon"`, wantAsks: []string{"form book"}},
		{name: "a typo in a closed schema", pairs: []request.Pair{{Key: "citty", Value: "Oslo"}}, wantErr: new(*request.NoSuchArgumentError)},
		{name: "a value that is not an integer", pairs: []request.Pair{{Key: "city", Value: "Oslo"}, {Key: "nights", Value: "two"}}, wantErr: new(*request.ArgumentError)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, con := buffers()
			ask := &fakeAsker{t: t, form: tc.form}
			opts := &CallOptions{Out: out, Console: con, Connect: inMemory(t, shop()), Tool: "book", Base: map[string]any{}, Pairs: tc.pairs}
			if tc.form != nil {
				opts.Form = ask
			}
			err := callRun(testContext(t), opts)
			if tc.wantErr != nil {
				if !errors.As(err, tc.wantErr) {
					t.Fatalf("callRun(%s) = %v, want a %T", tc.name, err, tc.wantErr)
				}
				return
			}
			if err != nil || !strings.Contains(out.String(), tc.wantOut) {
				t.Fatalf("callRun(%s) = %v, stdout %q; want %q", tc.name, err, out, tc.wantOut)
			}
			if strings.Join(ask.asked, "|") != strings.Join(tc.wantAsks, "|") {
				t.Errorf("callRun(%s) asked %q, want %q", tc.name, ask.asked, tc.wantAsks)
			}
		})
	}
	// Nobody to ask: the missing argument is the error, before anything is
	// sent.
	out, _, con := buffers()
	err := callRun(testContext(t), &CallOptions{Out: out, Console: con, Connect: inMemory(t, shop()), Tool: "book", Base: map[string]any{}})
	var me *request.MissingError
	if !errors.As(err, &me) || me.Name != "book" || me.Missing[0] != "city" || me.Asker {
		t.Errorf("callRun(no city, nobody to ask) = %v, want a MissingError for city", err)
	}
	// An unknown tool names the one meant.
	err = callRun(testContext(t), &CallOptions{Out: out, Console: con, Connect: inMemory(t, shop()), Tool: "bok", Base: map[string]any{}})
	var ue *request.UnknownError
	if !errors.As(err, &ue) || len(ue.Maybe) != 1 || ue.Maybe[0] != "book" {
		t.Errorf("callRun(bok) = %v, want an UnknownError suggesting book", err)
	}
}

func TestPromptRun(t *testing.T) {
	// The server completes the argument: asked one by one, with its
	// suggestions.
	out, _, con := buffers()
	ask := &fakeAsker{t: t, values: map[string]string{"city": "Oslo"}}
	err := promptRun(testContext(t), &PromptOptions{Out: out, Console: con, Connect: inMemory(t, shop()), Name: "trip", Args: map[string]string{}, Form: ask, Value: ask})
	if err != nil || !strings.Contains(out.String(), "Plan a trip to Oslo") {
		t.Fatalf("promptRun = %v, stdout %q", err, out)
	}
	if len(ask.asked) != 1 || ask.asked[0] != "value city Lisbon,Oslo" {
		t.Errorf("promptRun asked %q, want the city with the server's two suggestions", ask.asked)
	}
	// Given: nothing is asked.
	out.Reset()
	ask.asked = nil
	err = promptRun(testContext(t), &PromptOptions{Out: out, Console: con, Connect: inMemory(t, shop()), Name: "trip", Args: map[string]string{"city": "Lisbon"}, Value: ask})
	if err != nil || !strings.Contains(out.String(), "Lisbon") || len(ask.asked) != 0 {
		t.Errorf("promptRun(city=Lisbon) = %v, stdout %q, asked %q", err, out, ask.asked)
	}
}

func TestReadRun(t *testing.T) {
	out, errb, con := buffers()
	ask := &fakeAsker{t: t, values: map[string]string{"city": "Oslo"}}
	err := readRun(testContext(t), &ReadOptions{Out: out, Console: con, Connect: inMemory(t, shop()), URI: "shop://guides/{city}", Value: ask})
	if err != nil || !strings.Contains(out.String(), "guide shop://guides/Oslo") {
		t.Fatalf("readRun = %v, stdout %q", err, out)
	}
	if !strings.Contains(errb.String(), "mcpcli: reading shop://guides/Oslo") {
		t.Errorf("readRun does not say the URI it read:\n%s", errb)
	}
	// A variable it does not have is refused before anything is sent.
	err = readRun(testContext(t), &ReadOptions{Out: out, Console: con, Connect: inMemory(t, shop()), URI: "shop://guides/{city}", Vars: map[string]string{"town": "x"}})
	var ne *request.NoSuchArgumentError
	if !errors.As(err, &ne) || ne.Key != "town" {
		t.Errorf("readRun(town=x) = %v, want a NoSuchArgumentError", err)
	}
}

func TestListAndDiscoverRuns(t *testing.T) {
	out, _, con := buffers()
	if err := toolsRun(testContext(t), &ListOptions{Out: out, Console: con, Connect: inMemory(t, shop())}); err != nil || !strings.Contains(out.String(), "book city=string [nights=integer]") {
		t.Errorf("toolsRun = %v:\n%s", err, out)
	}
	out.Reset()
	if err := promptsRun(testContext(t), &ListOptions{Out: out, Console: con, Connect: inMemory(t, shop()), Name: "trip"}); err != nil || !strings.Contains(out.String(), "trip") {
		t.Errorf("promptsRun(trip) = %v:\n%s", err, out)
	}
	out.Reset()
	if err := resourcesRun(testContext(t), &ListOptions{Out: out, Console: con, Connect: inMemory(t, shop())}); err != nil || !strings.Contains(out.String(), "shop://guides/{city}") {
		t.Errorf("resourcesRun = %v:\n%s", err, out)
	}
	out.Reset()
	if err := discoverRun(testContext(t), &DiscoverOptions{Out: out, Console: con, Connect: inMemory(t, shop()), JSON: true}); err != nil || !strings.Contains(out.String(), `"name": "shop"`) {
		t.Errorf("discoverRun -o json = %v:\n%s", err, out)
	}
}

// A 2025-11-25 server's task (tasks/result waits for its end, tasks/get
// is polled meanwhile): the result arrives, the status is shown as it
// goes.
func TestLegacyTask(t *testing.T) {
	const task = `"taskId":"t1","createdAt":"2026-12-01T00:00:00Z","ttl":60000,"pollInterval":20`
	var srv *wiretest.Server
	srv = wiretest.New(t, map[string]wiretest.Handler{
		"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusOK, jsonrpc.CodeMethodNotFound, "Method not found", "")
		},
		"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"requests":{"tools":{"call":{}}},"list":{},"cancel":{}}},"serverInfo":{"name":"old","version":"1"}}`)
		},
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"tools":[{"name":"slow","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}]}`)
		},
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"task":{`+task+`,"status":"working"}}`)
		},
		"tasks/get": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{`+task+`,"status":"working","statusMessage":"halfway"}`)
		},
		"tasks/result": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			// The client polls tasks/get one after another, saying each
			// status before the next poll: a second poll means the first
			// one's "halfway" was shown.
			deadline := time.Now().Add(20 * time.Second)
			for len(srv.Calls("tasks/get")) < 2 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			wiretest.Result(w, r, `{"content":[{"type":"text","text":"done"}]}`)
		},
	})
	code, out, errs := cli(t, "call", "slow", "--url", srv.URL)
	if code != 0 || strings.TrimSpace(out) != "done" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	for _, want := range []string{": working — halfway", ": completed"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not show %q:\n%s", want, errs)
		}
	}
}

// A 2025-11-25 server's own requests: sampling/createMessage answered from
// an answers file with --sampling; roots/list without --root refused,
// with the flag that gives roots named.
func TestLegacyServerRequests(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "sample", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "capital?"}}}})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "model said: " + res.Content.(*mcp.TextContent).Text}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "roots", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Roots[0].URI}}}, nil
	})
	url := serve(t, srv, false)
	reply := writeFile(t, "reply.json", `{"sampling": {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "atlas-7"}}`)
	out, errs := wantRun(t, 0, "call", "sample", "--sampling", "--answers", reply, "--url", url)
	wantContains(t, "sample", out, "model said: Paris")
	wantContains(t, "stderr", errs, `→ sampling: reply from model atlas-7 (answers file, key "sampling")`)
	dir := t.TempDir()
	out, _ = wantRun(t, 0, "call", "roots", "--root", dir, "--url", url)
	wantContains(t, "roots", out, "file://")
	_, errs = wantRun(t, 2, "call", "roots", "--url", url)
	wantContains(t, "stderr", errs, "sent a roots/list request, although mcpcli did not declare roots", "pass --root DIR")
	_, errs = wantRun(t, 1, "call", "sample", "--url", url)
	wantContains(t, "stderr", errs, "did not declare sampling", "pass --sampling")
}

// Ctrl+C while a tool runs as a task cancels the task: tasks/cancel is
// sent, and the run says the task was abandoned.
func TestCtrlCCancelsATask(t *testing.T) {
	url := demoHTTP(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errw := &stderrWatcher{match: ": working — ", cancel: cancel}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	deps := &Deps{Streams: Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: errw}, Getenv: func(string) string { return "" }}
	code := Run(ctx, []string{"call", "build_release", "version=9", "--trace", trace, "--url", url}, deps)
	errw.mu.Lock()
	errs := errw.b.String()
	errw.mu.Unlock()
	if code != exitAbandoned {
		t.Fatalf("exit %d after Ctrl+C, want %d; stderr:\n%s", code, exitAbandoned, errs)
	}
	wantContains(t, "stderr", errs, `of tool "build_release" was abandoned; tasks/cancel was sent`)
	wantContains(t, "the trace", readFile(t, trace), `"method":"tasks/cancel"`)
}

// --save writes a resource's blob under its URI's name; a result with
// nothing to save says so.
func TestCallRunSavesBlobs(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "zip", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "files://out/hello.gz", MIMEType: "application/gzip", Blob: []byte("\x1f\x8bhello")}}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "say", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil
	})
	dir := t.TempDir()
	out, errb, con := buffers()
	if err := callRun(testContext(t), &CallOptions{Out: out, Console: con, Connect: inMemory(t, srv), Tool: "zip", Base: map[string]any{}, Save: dir}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hello.gz")); err != nil || !strings.HasPrefix(string(b), "\x1f\x8b") {
		t.Errorf("hello.gz: %q, %v; stderr:\n%s", b, err, errb)
	}
	errb.Reset()
	if err := callRun(testContext(t), &CallOptions{Out: out, Console: con, Connect: inMemory(t, srv), Tool: "say", Base: map[string]any{}, Save: dir}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "stderr", errb.String(), "--save: the result has no image, audio or blob content to save")

	// A resource read's blobs are saved the same way.
	srv.AddResource(&mcp.Resource{URI: "files://out/logo.png", Name: "logo", MIMEType: "image/png"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "files://out/logo.png", MIMEType: "image/png", Blob: []byte("\x89PNG")}}}, nil
	})
	errb.Reset()
	if err := readRun(testContext(t), &ReadOptions{Out: out, Console: con, Connect: inMemory(t, srv), URI: "files://out/logo.png", Save: dir}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "logo.png")); err != nil || string(b) != "\x89PNG" {
		t.Errorf("logo.png: %q, %v; stderr:\n%s", b, err, errb)
	}
}

// A value the tool's enum does not list is refused before anything is
// sent, naming the values it takes.
func TestCallRunRefusesAValueOutsideTheEnum(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "paint", Version: "1"}, nil)
	called := false
	srv.AddTool(&mcp.Tool{Name: "paint", InputSchema: json.RawMessage(`{"type":"object","properties":{"colour":{"type":"string","enum":["red","green"]}},"required":["colour"]}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		called = true
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "painted"}}}, nil
	})
	out, _, con := buffers()
	err := callRun(testContext(t), &CallOptions{Out: out, Console: con, Connect: inMemory(t, srv), Tool: "paint", Base: map[string]any{}, Pairs: []request.Pair{{Key: "colour", Value: "blue"}}})
	if err == nil || called {
		t.Fatalf("colour=blue: err %v, called %v; want refused before the call", err, called)
	}
	if msg := (shell.Words{}).Error(err); !strings.Contains(msg, `the tool takes one of "red", "green"`) {
		t.Errorf("colour=blue worded %q; want the values it takes", msg)
	}
	if err := callRun(testContext(t), &CallOptions{Out: out, Console: con, Connect: inMemory(t, srv), Tool: "paint", Base: map[string]any{}, Pairs: []request.Pair{{Key: "colour", Value: "red"}}}); err != nil || !called {
		t.Errorf("colour=red: err %v, called %v", err, called)
	}
}
