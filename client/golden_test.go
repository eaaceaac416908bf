package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/transport"
)

var update = flag.Bool("update", false, "rewrite the golden wire transcripts in testdata/wire")

// transcript records the wire as golden files show it: one line per
// message, "->" sent and "<-" received, and HTTP exchanges as one line.
type transcript struct {
	mu    sync.Mutex
	lines []string
}

// headers are the request headers a transcript shows (the rest vary).
var headers = []string{"Mcp-Method", "Mcp-Name", "Mcp-Protocol-Version"}

func (tr *transcript) observe(ev transport.Event) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	arrow := "->"
	if ev.Dir == transport.Recv {
		arrow = "<-"
	}
	switch {
	case ev.HTTP != nil && ev.HTTP.Method != "":
		var hs []string
		for _, h := range headers {
			if v := ev.HTTP.Header.Get(h); v != "" {
				hs = append(hs, h+": "+v)
			}
		}
		tr.lines = append(tr.lines, fmt.Sprintf("%s HTTP %s %s", arrow, ev.HTTP.Method, strings.Join(hs, "; ")))
	case ev.HTTP != nil:
		tr.lines = append(tr.lines, fmt.Sprintf("%s HTTP %d %s", arrow, ev.HTTP.Status, ev.HTTP.Header.Get("Content-Type")))
	case len(ev.Msg) > 0:
		var b bytes.Buffer
		if err := json.Compact(&b, ev.Msg); err != nil {
			b.Reset()
			b.Write(ev.Msg)
		}
		tr.lines = append(tr.lines, arrow+" "+b.String())
	}
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.lines, "\n") + "\n"
}

// golden compares got with testdata/wire/NAME.txtar, or rewrites it with
// -update. The archive's comment says what the transcript shows.
func golden(t *testing.T, name, comment string, files map[string]string) {
	t.Helper()
	path := filepath.Join("testdata", "wire", name+".txtar")
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	ar := &txtar.Archive{Comment: []byte(comment + "\n")}
	for _, n := range names {
		ar.Files = append(ar.Files, txtar.File{Name: n, Data: []byte(files[n])})
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./client -run Golden -update to write it)", err)
	}
	for _, f := range want.Files {
		if diff := cmp.Diff(string(f.Data), files[f.Name]); diff != "" {
			t.Errorf("%s, %s differs from the golden transcript (-want +got; -update rewrites it):\n%s", path, f.Name, diff)
		}
	}
	if len(want.Files) != len(files) {
		t.Errorf("%s has %d files, the test made %d", path, len(want.Files), len(files))
	}
}

// stdioLike connects to srv over in-process pipes, recording the wire.
func stdioLike(t *testing.T, srv *mcp.Server, opts client.Options) (*client.Session, *transcript) {
	t.Helper()
	tr := &transcript{}
	w := &wire{}
	ct, st := pipes(w)
	ct.Observe(tr.observe)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	if opts.Modes == (client.Modes{}) {
		opts.Modes = client.Modes{Form: true, URL: true}
	}
	s, err := client.Connect(ctx, ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, tr
}

func resultText(res *client.Result, err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	return string(res.Raw) + "\n"
}

func TestGoldenFormRound(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "rename", InputSchema: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.InputResponses == nil {
				return &mcp.CallToolResult{RequestState: "step-1", InputRequests: mcp.InputRequestMap{
					"confirm": &mcp.ElicitParams{Message: "Rename it?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"sure":{"type":"boolean"},"why":{"type":"string"}},"required":["sure"]}`)},
				}}, nil
			}
			r := req.Params.InputResponses["confirm"].(*mcp.ElicitResult)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %v (state %s)", r.Action, r.Content["sure"], req.Params.RequestState)}}}, nil
		})
	s, tr := stdioLike(t, srv, client.Options{Answerer: acceptAll(map[string]any{"sure": true})})
	res, err := s.CallTool(context.Background(), "rename", map[string]any{"to": "b"})
	golden(t, "form-round", "A 2026-07-28 tools/call answered input_required with one form ask, accepted:\nthe retry has a new id, the same arguments, inputResponses keyed as asked and\nthe requestState echoed.",
		map[string]string{"wire": tr.String(), "result": resultText(res, err)})
}

func TestGoldenURLRound(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "connect", InputSchema: emptyObject},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.InputResponses == nil {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"signin": &mcp.ElicitParams{Mode: "url", Message: "Sign in to continue.", URL: "https://auth.example.com/start?id=7", ElicitationID: "e-7"},
				}}, nil
			}
			r := req.Params.InputResponses["signin"].(*mcp.ElicitResult)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "connected: " + r.Action}}}, nil
		})
	s, tr := stdioLike(t, srv, client.Options{Answerer: acceptAll(nil)})
	res, err := s.CallTool(context.Background(), "connect", nil)
	golden(t, "url-round", "A URL-mode ask, accepted: the retry carries accept without content, and no\nrequestState since the server sent none.",
		map[string]string{"wire": tr.String(), "result": resultText(res, err)})
}

func TestGoldenLegacyElicitation(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old-server", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "greet", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Hello, %v!", res.Content["name"])}}}, nil
	})
	s, tr := stdioLike(t, srv, client.Options{Answerer: acceptAll(map[string]any{"name": "Ada"})})
	res, err := s.CallTool(context.Background(), "greet", nil)
	golden(t, "legacy-elicitation", "A 2025-11-25 server: server/discover is refused, initialize follows, and the\nserver's own elicitation/create during tools/call is answered through the same\nanswerer.",
		map[string]string{"wire": tr.String(), "result": resultText(res, err)})
}

func TestGoldenHTTPFailure(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			http.Error(w, "upstream database unavailable", http.StatusBadGateway)
		},
	})
	tr := &transcript{}
	ht := &transport.HTTP{URL: srv.URL}
	ht.Observe(tr.observe)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, ht, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.CallTool(ctx, "lookup", map[string]any{"q": "x"})
	golden(t, "http-failure", "Streamable HTTP: a tools/call answered 502 with a text/plain body and no\nJSON-RPC error; the transport explains it with the status and the body.",
		map[string]string{"wire": strings.ReplaceAll(tr.String(), srv.URL, "URL"), "result": strings.ReplaceAll(resultText(res, s.Explain(err)), srv.URL, "URL")})
}
