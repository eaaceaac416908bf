package explore_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

func demoSession(t *testing.T, plug *explore.Plug) *client.Session {
	t.Helper()
	d, err := demoserver.New(demoserver.Options{TaskStep: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := d.Server().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s, err := client.Connect(ctx, transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, "demo"), client.Options{
		Modes: client.Modes{Form: true, URL: true}, Answerer: plug, Backoff: func(int) time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The demo's create_repo asks twice: its tree answers each round accept,
// decline and cancel.
func TestTreeOfCreateRepoShowsEachAnswerPerRound(t *testing.T) {
	plug := &explore.Plug{}
	s := demoSession(t, plug)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := &request.Request{Method: request.ToolsCall, Target: "create_repo", Args: map[string]any{"owner": "octo"}}
	branches := explore.Tree(ctx, s, plug, req, explore.Options{})
	var got []string
	for _, b := range branches {
		got = append(got, b.PathString())
	}
	want := []string{
		"basics:accept → details:accept",
		"basics:accept → details:decline",
		"basics:accept → details:cancel",
		"basics:decline",
		"basics:cancel",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Tree(create_repo) paths (-want +got):\n%s", diff)
	}
	for _, b := range branches {
		if b.Run.Err != nil || b.Run.Result == nil {
			t.Errorf("%s: %v", b.PathString(), b.Run.Err)
		}
	}
	if o := branches[0].Outcome(); !strings.HasPrefix(o, "result: Created") {
		t.Errorf("accept, accept: outcome %q, want a created repository", o)
	}
	if o := branches[3].Outcome(); !strings.Contains(o, "Declined") {
		t.Errorf("decline: outcome %q", o)
	}
	var tbl bytes.Buffer
	if err := explore.Table(&tbl, "create_repo", branches); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(tbl.String()), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "TOOL         ANSWERS") || !strings.HasPrefix(lines[4], "create_repo  basics:decline  ") || !strings.HasSuffix(lines[4], "  result: Declined: creating the repository. Nothing changed.") {
		t.Errorf("Table:\n%s", tbl.String())
	}
	// The bound holds.
	if b := explore.Tree(ctx, s, plug, req, explore.Options{MaxBranches: 2}); len(b) != 2 || !b[1].Cut {
		t.Errorf("MaxBranches 2: %d branches, last cut %v", len(b), len(b) > 0 && b[len(b)-1].Cut)
	}
}

func TestArgumentsFromAFlatInputSchema(t *testing.T) {
	got, err := explore.Arguments([]byte(`{"type":"object","properties":{"owner":{"type":"string","default":"octo"},"n":{"type":"integer","minimum":3}},"required":["n"]}`))
	if err != nil || !cmp.Equal(got, map[string]any{"owner": "octo", "n": int64(3)}) {
		t.Errorf("Arguments = %v, %v", got, err)
	}
	if _, err := explore.Arguments([]byte(`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`)); err == nil || !strings.Contains(err.Error(), "give its arguments") {
		t.Errorf("Arguments(nested) = %v", err)
	}
}
