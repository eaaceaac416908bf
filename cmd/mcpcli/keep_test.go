package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/urlmode/browsertest"
)

// When the retry that carries the person's answers fails, the answers are
// kept as an answers file, and the command to send them again is printed;
// that command works.
func TestAnswersSurviveAFailedRetry(t *testing.T) {
	var failRetry atomic.Bool
	failRetry.Store(true)
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "order", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, ok := req.Params.InputResponses["size"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"size": &mcp.ElicitParams{Message: "Which size?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"size":{"type":"string","enum":["S","M","L"]}},"required":["size"]}`)}}}, nil
		}
		if failRetry.Load() {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the warehouse is offline"}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ordered size " + r.Content["size"].(string)}}}, nil
	})
	url := serve(t, srv, true)
	t.Setenv("TMPDIR", t.TempDir())
	code, _, errs := runCLI(t, "a\nL\ny\n", browsertest.New(t), "call", "order", "--url", url)
	if code != exitError {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errs)
	}
	m := regexp.MustCompile(`mcpcli: your answers are kept in (\S+); to send them again: (mcpcli call order --url \S+ --answers \S+)\n`).FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("stderr does not say where the answers are kept:\n%s", errs)
	}
	b, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(m[1]); st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600 (answers may hold secrets)", m[1], st.Mode().Perm())
	}
	if !strings.Contains(string(b), `"size": {`) || !strings.Contains(string(b), `"L"`) {
		t.Errorf("the kept answers are:\n%s", b)
	}
	failRetry.Store(false)
	args := strings.Fields(strings.TrimPrefix(m[2], "mcpcli "))
	code, out, errs := runCLI(t, "", browsertest.New(t), args...)
	if code != 0 || !strings.Contains(out, "ordered size L") {
		t.Errorf("sending the kept answers again: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}

	// --save-answers saves them after a run that worked too.
	saved := filepath.Join(t.TempDir(), "answers.json")
	code, _, errs = runCLI(t, "a\nM\ny\n", browsertest.New(t), "call", "order", "--save-answers", saved, "--url", url)
	if code != 0 || !strings.Contains(errs, "your answers are saved in "+saved) {
		t.Fatalf("--save-answers: exit %d, stderr:\n%s", code, errs)
	}
	if b, err := os.ReadFile(saved); err != nil || !strings.Contains(string(b), `"M"`) {
		t.Errorf("--save-answers wrote %s, %v", b, err)
	}
}

// A run that failed after the person only declined (a URL the server
// requires, -32042) has no answers to keep: no file, no resend command.
func TestNoAnswersKeptAfterADecline(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bank", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "pay", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: mcp.CodeURLElicitationRequired, Message: "sign in first",
			Data: json.RawMessage(`{"elicitations":[{"mode":"url","message":"Sign in to the bank","url":"https://bank.example/signin","elicitationId":"e1"}]}`)}
	})
	url := serve(t, srv, true)
	t.Setenv("TMPDIR", t.TempDir())
	code, _, errs := runCLI(t, "d\n", browsertest.New(t), "call", "pay", "--url", url)
	if code != exitError || !strings.Contains(errs, "you answered decline") {
		t.Fatalf("exit %d, want 1 with the decline said; stderr:\n%s", code, errs)
	}
	if strings.Contains(errs, "answers are kept") {
		t.Errorf("answers are said to be kept after only a decline:\n%s", errs)
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "mcpcli-answers-*")); len(left) > 0 {
		t.Errorf("an answers file was written: %v", left)
	}
}
