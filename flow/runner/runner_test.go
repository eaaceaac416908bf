package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/report"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// servers are the in-process servers a flow's `server NAME` names.
type servers map[string]func() *mcp.Server

// dialer connects to the in-process server a flow names, and counts the
// connections it makes.
func (sv servers) dialer(t testing.TB, dials *int) runner.Dialer {
	var mu sync.Mutex
	return func(ctx context.Context, srv flow.Server, a client.Answerer, observe transport.Observer) (*client.Session, error) {
		mk := sv[srv.Name]
		if mk == nil {
			return nil, fmt.Errorf("no server %q", srv.Name)
		}
		mu.Lock()
		if dials != nil {
			*dials++
		}
		mu.Unlock()
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		ct := transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, srv.Name)
		if observe != nil {
			ct.Observe(observe)
		}
		ss, err := mk().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { ss.Close() })
		return client.Connect(ctx, ct, client.Options{Modes: client.Modes{Form: true, URL: true}, Answerer: a, Backoff: func(int) time.Duration { return 0 }})
	}
}

func demo(t testing.TB) func() *mcp.Server {
	return func() *mcp.Server {
		d, err := demoserver.New(demoserver.Options{TaskStep: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d.Server()
	}
}

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, sv servers, o runner.Options, paths ...string) []runner.Outcome {
	t.Helper()
	if o.Dial == nil {
		o.Dial = sv.dialer(t, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return runner.Run(ctx, paths, o)
}

const declineFlow = `# Declining the first step creates nothing.
server demo

call create_repo {"owner": "octo"}
  round 1
    ask basics form
      message ~ /step 1 of 2/
      fields == ["name", "visibility"]
      required == ["name", "visibility"]
    answer basics decline
  result
    rounds == 1
    isError == false
`

func TestARecordingReplaysGreen(t *testing.T) {
	sv := servers{"demo": demo(t)}
	// Record create_repo as a front end does: request.Recorder around a
	// person who accepts both rounds.
	rec := &request.Recorder{}
	person := client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		out := map[string]*mcp.ElicitResult{}
		for _, a := range r.Asks {
			switch a.Key {
			case "basics":
				out[a.Key] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "hello", "visibility": "private"}}
			default:
				out[a.Key] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"license": "MIT"}}
			}
		}
		return out, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := sv.dialer(t, nil)(ctx, flow.Server{Name: "demo"}, rec.Answerer(person), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := &request.Request{Method: request.ToolsCall, Target: "create_repo", Args: map[string]any{"owner": "octo"}}
	res, err := request.Send(ctx, s, req, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "create.flow")
	ledger := &safefile.Ledger{Path: filepath.Join(t.TempDir(), "written")}
	msg, err := runner.Save(path, flow.Server{Name: "demo"}, []runner.Recorded{{Request: req, Rounds: rec.Rounds(1), Result: res}}, ledger)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "mcpcli test "+path) {
		t.Errorf("Save said %q; want it to say how to run it", msg)
	}
	src, _ := os.ReadFile(path)
	for _, want := range []string{"server demo\n", "call create_repo {\"owner\": \"octo\"}", "answer basics accept {\"name\": \"hello\", \"visibility\": \"private\"}", "round 2", "rounds == 2"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the recording has no %q:\n%s", want, src)
		}
	}
	out := run(t, sv, runner.Options{Jobs: 1}, path)
	if st := out[0].Status(); st != report.Pass {
		t.Fatalf("replay of the recording: %s, %v %v\n%s", st, out[0].Err, out[0].Mismatches, src)
	}
	// Saving again over it is fine (mcpcli wrote it, as its ledger
	// says); over a file of someone else's is refused, even one that
	// starts as a recording does.
	if _, err := runner.Save(path, flow.Server{Name: "demo"}, []runner.Recorded{{Request: req, Rounds: rec.Rounds(1), Result: res}}, ledger); err != nil {
		t.Errorf("Save over its own recording: %v", err)
	}
	for name, src := range map[string]string{"mine.flow": "call x\n", "planted.flow": "# Recorded by mcpcli.\ncall x\n"} {
		other := write(t, t.TempDir(), name, src)
		if _, err := runner.Save(other, flow.Server{Name: "demo"}, []runner.Recorded{{Request: req, Rounds: rec.Rounds(1), Result: res}}, ledger); err == nil || !strings.Contains(err.Error(), "mcpcli did not write it") {
			t.Errorf("Save over %s, a flow mcpcli did not write = %v; want it refused", name, err)
		}
		if b, _ := os.ReadFile(other); string(b) != src {
			t.Errorf("Save over %s wrote over it: %q", name, b)
		}
	}
}

// wizard is the demo's create_repo in small, changed as change says.
func wizard(change string) func() *mcp.Server {
	return func() *mcp.Server {
		srv := mcp.NewServer(&mcp.Implementation{Name: "wizard", Version: "1"}, nil)
		srv.AddTool(&mcp.Tool{Name: "create_repo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			key, required := "basics", `["name","visibility"]`
			if change == "rename" {
				key = "setup"
			}
			if change == "drop" {
				required = `["visibility"]`
			}
			if req.Params.RequestState == "" {
				return &mcp.CallToolResult{RequestState: "1", InputRequests: mcp.InputRequestMap{key: &mcp.ElicitParams{Mode: "form", Message: "New repository (step 1 of 2).",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"visibility":{"type":"string","enum":["public","private"]}},"required":` + required + `}`)}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Declined: nothing was created."}}}, nil
		})
		return srv
	}
}

func TestAChangedServerFailsWithADiffAndUpdateMakesItGreen(t *testing.T) {
	for _, tc := range []struct{ change, want string }{
		{"rename", `ask "setup": ask`},
		{"drop", `ask "basics": required (line 9)`},
	} {
		t.Run(tc.change, func(t *testing.T) {
			sv := servers{"demo": wizard(tc.change)}
			path := write(t, t.TempDir(), "decline.flow", declineFlow)
			out := run(t, sv, runner.Options{Jobs: 1}, path)
			if out[0].Status() != report.Fail {
				t.Fatalf("%s: status %s (%v), want fail", tc.change, out[0].Status(), out[0].Err)
			}
			var diffs []string
			for _, m := range out[0].Mismatches {
				diffs = append(diffs, m.Diff())
			}
			if !strings.Contains(strings.Join(diffs, "\n"), tc.want) {
				t.Errorf("%s: diffs\n%s\nname no %q", tc.change, strings.Join(diffs, "\n"), tc.want)
			}
			out = run(t, sv, runner.Options{Jobs: 1, Update: true}, path)
			if out[0].Status() != report.Pass || !out[0].Updated {
				t.Fatalf("%s --update: %s, updated %v, %v", tc.change, out[0].Status(), out[0].Updated, out[0].Mismatches)
			}
			src, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(src), "# Declining the first step creates nothing.\n") {
				t.Errorf("%s --update lost the comment:\n%s", tc.change, src)
			}
			if out := run(t, sv, runner.Options{Jobs: 1}, path); out[0].Status() != report.Pass {
				t.Errorf("%s: after --update the flow fails: %v %v\n%s", tc.change, out[0].Err, out[0].Mismatches, src)
			}
		})
	}
}

func TestSharedFlowsRunOnOneConnectionAndOthersOnTheirOwn(t *testing.T) {
	dir := t.TempDir()
	shared := strings.Replace(declineFlow, "server demo\n", "server demo\nconnection shared\n", 1)
	var paths []string
	for i := range 3 {
		paths = append(paths, write(t, dir, fmt.Sprintf("s%d.flow", i), shared))
	}
	for i := range 2 {
		paths = append(paths, write(t, dir, fmt.Sprintf("o%d.flow", i), declineFlow))
	}
	dials := 0
	sv := servers{"demo": demo(t)}
	out := run(t, sv, runner.Options{Jobs: 4, Dial: sv.dialer(t, &dials)}, paths...)
	for _, oc := range out {
		if oc.Status() != report.Pass {
			t.Errorf("%s: %s %v %v", oc.Name, oc.Status(), oc.Err, oc.Mismatches)
		}
	}
	if dials != 3 {
		t.Errorf("5 flows, 3 sharing: %d connections, want 3", dials)
	}
}

func TestBadInputIsNamedByFileAndLine(t *testing.T) {
	dir := t.TempDir()
	sv := servers{"demo": demo(t)}
	broken := write(t, dir, "broken.flow", "server demo\ncall create_repo\n  rond 1\n")
	secret := write(t, dir, "secret.flow", `server demo
call create_repo {"owner": "octo"}
  round 1
    answer basics accept {"name": "$env:MCPCLI_TEST_NOT_SET", "visibility": "public"}
`)
	unknown := write(t, dir, "unknown.flow", "# a server nobody has\nserver nowhere\ncall create_repo\n")
	none := write(t, dir, "none.flow", "call create_repo\n")
	out := run(t, sv, runner.Options{Jobs: 2, Env: func(string) (string, bool) { return "", false }}, broken, secret, unknown, none)
	for i, want := range []string{
		broken + ":3:",
		secret + ":4: the answer to \"basics\" takes $MCPCLI_TEST_NOT_SET from the environment, which is not set",
		unknown + ":2: no server \"nowhere\"",
		none + ": the flow names no server",
	} {
		if out[i].Err == nil || !strings.HasPrefix(out[i].Err.Error(), want) || strings.Contains(out[i].Err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q", out[i].Name, out[i].Err, want)
		}
	}
}

// A server whose form asks for a password: lint finds it during the
// run; --strict fails the flow for it.
func TestLintWatchesEveryRun(t *testing.T) {
	login := func() *mcp.Server {
		srv := mcp.NewServer(&mcp.Implementation{Name: "login", Version: "1"}, nil)
		srv.AddTool(&mcp.Tool{Name: "login", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState == "" {
				return &mcp.CallToolResult{RequestState: "1", InputRequests: mcp.InputRequestMap{"login": &mcp.ElicitParams{Mode: "form", Message: "Sign in.",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}`)}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no"}}}, nil
		})
		return srv
	}
	path := write(t, t.TempDir(), "login.flow", "server login\n\ncall login\n  round 1\n    answer login decline\n")
	sv := servers{"login": login}
	for _, strict := range []bool{false, true} {
		out := run(t, sv, runner.Options{Jobs: 1, Strict: strict}, path)
		fs := out[0].Findings
		if len(fs) != 1 || fs[0].Rule != lint.SecretInForm || fs[0].File != path || fs[0].Line != 3 {
			t.Fatalf("strict %v: findings %+v, want secret-in-form at %s:3", strict, fs, path)
		}
		want := map[bool]report.Status{false: report.Pass, true: report.Fail}[strict]
		if out[0].Status() != want {
			t.Errorf("strict %v: status %s, want %s", strict, out[0].Status(), want)
		}
	}
}

func TestFilesFindsFlowsBelowADirectory(t *testing.T) {
	dir := t.TempDir()
	b := write(t, dir, "b/two.flow", "call x\n")
	a := write(t, dir, "a.flow", "call x\n")
	write(t, dir, "notes.txt", "")
	got, err := runner.Files([]string{dir})
	if err != nil || len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("Files(%s) = %v, %v; want [%s %s]", dir, got, err, a, b)
	}
	if _, err := runner.Files([]string{filepath.Join(dir, "missing")}); err == nil || !strings.Contains(err.Error(), "no such flow file") {
		t.Errorf("Files(missing) = %v", err)
	}
	empty := filepath.Dir(write(t, t.TempDir(), "empty/x.txt", ""))
	if _, err := runner.Files([]string{empty}); err == nil || !strings.Contains(err.Error(), "holds no .flow file") {
		t.Errorf("Files(a directory without flows) = %v", err)
	}
}

// A round mcpcli's own answerer failed has no answer to replay: Save
// refuses the recording, and says which step and round; a round answered
// is written as always.
func TestSaveRefusesARoundMcpcliCouldNotAnswer(t *testing.T) {
	dir := t.TempDir()
	req := &request.Request{Method: request.ToolsCall, Target: "create_repo"}
	ask := client.Ask{Key: "basics", Params: &mcp.ElicitParams{Mode: "form", Message: "step 1", RequestedSchema: map[string]any{"type": "object"}}, Schema: json.RawMessage(`{"type": "object"}`)}
	failed := []runner.Recorded{{Request: req, Err: fmt.Errorf("answers have nothing"),
		Rounds: []request.Round{{Number: 1, Keys: []string{"basics"}, Asks: []client.Ask{ask}, Err: fmt.Errorf("answers have nothing for %q", "basics")}}}}
	path := filepath.Join(dir, "failed.flow")
	_, err := runner.Save(path, flow.Server{Command: []string{"srv"}}, failed, nil)
	var ue *runner.UnansweredError
	if !errors.As(err, &ue) || ue.Step != 1 || ue.Round != 1 {
		t.Fatalf("Save(a failed round) = %v, want an *UnansweredError at step 1, round 1", err)
	}
	if !strings.Contains(err.Error(), "not written") || !strings.Contains(err.Error(), "record again") {
		t.Errorf("Save(a failed round) error = %q, want it to say the file is not written and what to do", err)
	}
	if _, serr := os.Stat(path); !os.IsNotExist(serr) {
		t.Errorf("Save(a failed round) wrote %s (stat: %v)", path, serr)
	}
	answered := []runner.Recorded{{Request: req, Result: nil, Err: fmt.Errorf("declined"),
		Rounds: []request.Round{{Number: 1, Keys: []string{"basics"}, Asks: []client.Ask{ask}, Answers: map[string]*mcp.ElicitResult{"basics": {Action: "decline"}}}}}}
	if _, err := runner.Save(path, flow.Server{Command: []string{"srv"}}, answered, nil); err != nil {
		t.Fatalf("Save(an answered round) = %v, want it written", err)
	}
}

// Finish: the run's own error stands, and a flow file that could not be
// written is said beside it, or is the error when nothing else went wrong;
// a written one is said. No recording: the run's error, nothing said.
func TestFinishNeverCostsTheOutcome(t *testing.T) {
	dir := t.TempDir()
	planted := write(t, dir, "planted.flow", "# Recorded by mcpcli.\ncall x\n")
	ledger := &safefile.Ledger{Path: filepath.Join(t.TempDir(), "written")}
	req := &request.Request{Method: request.ToolsCall, Target: "echo", Args: map[string]any{}}
	res := &client.Result{Method: "tools/call", Rounds: 1, Raw: json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`)}
	failed := errors.New("the tool failed")
	for _, tc := range []struct {
		name    string
		rec     *runner.Recording
		out     error
		wantErr string // "" for nil
		said    string // "" for nothing
	}{
		{"no recording", nil, failed, "the tool failed", ""},
		{"written", &runner.Recording{Path: filepath.Join(dir, "new.flow"), Ledger: ledger}, nil, "", "saved the flow"},
		{"refused, the run went well", &runner.Recording{Path: planted, Ledger: ledger}, nil, "mcpcli did not write it", ""},
		{"refused, the run failed", &runner.Recording{Path: planted, Ledger: ledger}, failed, "the tool failed", "mcpcli did not write it"},
	} {
		var said []string
		err := tc.rec.Finish(func(s string) { said = append(said, s) }, req, res, nil, tc.out)
		if (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: Finish = %v, want %q", tc.name, err, tc.wantErr)
		}
		if got := strings.Join(said, "\n"); (got == "") != (tc.said == "") || !strings.Contains(got, tc.said) {
			t.Errorf("%s: Finish said %q, want %q", tc.name, got, tc.said)
		}
	}
}
