package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/request"
)

// testFactory is a Factory over buffers, with no terminal.
func testFactory() *Factory {
	return &Factory{Deps: &Deps{Streams: Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}}}
}

// The call command's flags and arguments reach callRun's options as given,
// and nothing starts when they are wrong.
func TestCallOptionsFromFlags(t *testing.T) {
	tests := []struct {
		args       []string
		wantTool   string
		wantPairs  []request.Pair
		wantBase   map[string]any
		wantJSON   bool
		wantErr    string
		wantServer []string
	}{
		{args: []string{"call", "greet", "name=Ada", "-o", "json", "--", "srv"}, wantTool: "greet", wantPairs: []request.Pair{{Key: "name", Value: "Ada"}}, wantBase: map[string]any{}, wantJSON: true},
		{args: []string{"call", "greet", "--args", `{"n":1}`, "x==y", "--", "srv"}, wantTool: "greet", wantPairs: []request.Pair{{Key: "x", Value: "=y"}}, wantBase: map[string]any{"n": jsonNumber("1")}},
		{args: []string{"call", "--", "srv"}, wantErr: "name the tool to call"},
		// A -- before the tool ends the flags: a tool named -x is not one;
		// a second -- starts the server command.
		{args: []string{"call", "--args", `{"n":1}`, "--", "-x", "k=v", "--", "srv", "--", "-y"}, wantTool: "-x", wantPairs: []request.Pair{{Key: "k", Value: "v"}}, wantBase: map[string]any{"n": jsonNumber("1")}, wantServer: []string{"srv", "--", "-y"}},
		{args: []string{"call", "--url", "http://127.0.0.1:1/mcp", "--", "-x"}, wantTool: "-x", wantBase: map[string]any{}},
		{args: []string{"call", "-x", "--", "srv"}, wantErr: "unknown shorthand flag: 'x' in -x"},
		{args: []string{"call", "greet", "name", "--", "srv"}, wantErr: `argument "name" must look like KEY=VALUE`},
		{args: []string{"call", "greet", "--args", `{"n":1}{"m":2}`, "--", "srv"}, wantErr: "there is more after the value"},
		{args: []string{"call", "greet", "--args", `{"n":1,"n":2}`, "--", "srv"}, wantErr: `key "n" appears twice`},
		{args: []string{"call", "greet"}, wantErr: "no server given"},
	}
	for _, tt := range tests {
		f := testFactory()
		var got *CallOptions
		root := NewCmdRoot(f)
		root.RemoveCommand(mustFind(t, root, "call"))
		root.AddCommand(NewCmdCall(f, func(_ context.Context, o *CallOptions) error { got = o; return nil }))
		root.SetArgs(tt.args)
		root.SetOut(f.Deps.Out)
		root.SetErr(f.Deps.Err)
		err := root.ExecuteContext(context.Background())
		if tt.wantErr != "" {
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("mcpcli %q = %v (ran: %v), want a usage error with %q and nothing run", tt.args, err, got != nil, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil {
			t.Fatalf("mcpcli %q = %v, ran %v", tt.args, err, got != nil)
		}
		if got.Tool != tt.wantTool || got.JSON != tt.wantJSON {
			t.Errorf("mcpcli %q: Tool %q JSON %v, want %q %v", tt.args, got.Tool, got.JSON, tt.wantTool, tt.wantJSON)
		}
		if diff := cmp.Diff(tt.wantPairs, got.Pairs, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("mcpcli %q: pairs (-want +got):\n%s", tt.args, diff)
		}
		if diff := cmp.Diff(tt.wantBase, got.Base); diff != "" {
			t.Errorf("mcpcli %q: --args (-want +got):\n%s", tt.args, diff)
		}
		if tt.wantServer != nil && !cmp.Equal(tt.wantServer, f.Flags.ServerArgv) {
			t.Errorf("mcpcli %q: server command %q, want %q", tt.args, f.Flags.ServerArgv, tt.wantServer)
		}
	}
}

func jsonNumber(s string) any { return json.Number(s) }

func mustFind(t *testing.T, root *cobra.Command, name string) *cobra.Command {
	t.Helper()
	for _, c := range root.Commands() {
		if c.Name() == name {
			return c
		}
	}
	t.Fatalf("no command %q", name)
	return nil
}
