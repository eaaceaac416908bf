package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// With MCPCLI_FAKE_LOG set, the test binary is a stand-in for mcpcli: it
// records its arguments (and the answers file's content) and prints
// $MCPCLI_FAKE_LIST for tools/prompts/resources -o json.
func init() {
	log := os.Getenv("MCPCLI_FAKE_LOG")
	if log == "" {
		return
	}
	args := os.Args[1:]
	env := map[string]string{}
	for _, k := range []string{"BROWSER", "XDG_STATE_HOME", "MCPCLI_TOKEN_STORE", "MCPCLI_CLIENT_SECRET", "DBUS_SESSION_BUS_ADDRESS"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	rec := map[string]any{"args": args, "env": env}
	for i, a := range args {
		if a == "--answers" && i+1 < len(args) {
			b, _ := os.ReadFile(args[i+1])
			rec["answers"] = json.RawMessage(b)
		}
	}
	b, _ := json.Marshal(rec)
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	f.Write(append(b, '\n'))
	f.Close()
	switch args[0] {
	case "tools", "prompts", "resources":
		fmt.Print(os.Getenv("MCPCLI_FAKE_LIST"))
	}
	os.Exit(0)
}

type invocation struct {
	Args    []string          `json:"args"`
	Answers json.RawMessage   `json:"answers"`
	Env     map[string]string `json:"env"`
}

// play runs the adapter for a scenario against the stand-in mcpcli and
// returns what mcpcli was asked to do.
func play(t *testing.T, scenario, context, list string) (int, []invocation, string) {
	t.Helper()
	log := t.TempDir() + "/log.jsonl"
	env := map[string]string{
		"MCP_CONFORMANCE_SCENARIO":         scenario,
		"MCP_CONFORMANCE_PROTOCOL_VERSION": "2026-07-28",
		"MCP_CONFORMANCE_CONTEXT":          context,
	}
	t.Setenv("MCPCLI_FAKE_LOG", log)
	t.Setenv("MCPCLI_FAKE_LIST", list)
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"-mcpcli", os.Args[0], "http://localhost:1234/mcp"}, func(k string) string { return env[k] }, &stderr)
	os.Unsetenv("MCPCLI_FAKE_LOG")
	var calls []invocation
	b, _ := os.ReadFile(log)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var inv invocation
		if err := json.Unmarshal([]byte(line), &inv); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		calls = append(calls, inv)
	}
	return code, calls, stderr.String()
}

// Each command is what a person would type, against the URL as given, with
// an answers file and a timeout.
func TestCustomHeadersScenarioCallsWhatTheContextSays(t *testing.T) {
	ctx := `{"toolCalls":[{"name":"test_custom_headers","arguments":{"region":"us-west1","priority":42,"non_ascii_val":"Hello, 世界","verbose":null}},{"name":"second","arguments":{}}]}`
	code, calls, stderr := play(t, "http-custom-headers", ctx, `{"tools":[]}`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got [][]string
	for _, c := range calls {
		n := len(c.Args)
		if n < 6 || c.Args[n-6] != "--url" || c.Args[n-5] != "http://localhost:1234/mcp" || c.Args[n-4] != "--answers" || c.Args[n-2] != "--timeout" {
			t.Errorf("mcpcli %q does not end with --url URL --answers FILE --timeout D", c.Args)
			continue
		}
		got = append(got, c.Args[:n-6])
	}
	want := [][]string{
		{"tools", "-o", "json"},
		{"call", "test_custom_headers", "-o", "json", "--args", `{"region":"us-west1","priority":42,"non_ascii_val":"Hello, 世界","verbose":null}`},
		{"call", "second", "-o", "json", "--args", `{}`},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("mcpcli commands (-want +got):\n%s", d)
	}
}

func TestSchemaPreservationEchoesTheListedSchemaVerbatim(t *testing.T) {
	schema := `{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema","allOf":[{"anyOf":[{"required":["a"]}]}],"additionalProperties":false}`
	list := `{"tools":[{"name":"json_schema_echo","inputSchema":{"type":"object"}},{"name":"json_schema_2020_12_tool","inputSchema":` + schema + `}]}`
	code, calls, stderr := play(t, "json-schema-2020-12-preservation", "", list)
	if code != 0 || len(calls) != 2 {
		t.Fatalf("exit %d, %d commands: %s", code, len(calls), stderr)
	}
	args := calls[1].Args
	if args[0] != "call" || args[1] != "json_schema_echo" || args[4] != "--args" || args[5] != `{"schema": `+schema+`}` {
		t.Errorf("echo call = %q", args)
	}
}

func TestMRTRScenarioAnswersTheConfirmation(t *testing.T) {
	code, calls, stderr := play(t, "sep-2322-client-request-state", "", "")
	if code != 0 || len(calls) != 4 {
		t.Fatalf("exit %d, %d commands: %s", code, len(calls), stderr)
	}
	for _, c := range calls {
		if !strings.Contains(string(c.Answers), `"confirm":{"action":"accept","content":{"confirmed":true}}`) {
			t.Errorf("mcpcli %q answers with %s", c.Args, c.Answers)
		}
	}
}

func TestUnknownScenario(t *testing.T) {
	code, calls, stderr := play(t, "no-such-scenario", "", "")
	if code != 2 || len(calls) != 0 || !strings.Contains(stderr, `no play for scenario "no-such-scenario"`) {
		t.Errorf("exit %d, %d commands, stderr %q", code, len(calls), stderr)
	}
}

// An auth scenario signs in through mcpcli's own flags: --open-urls with
// the suite's browser stand-in as $BROWSER, tokens in a file in the
// scenario's directory, and the pre-registered client from the context,
// its secret in the environment only.
func TestPreRegistrationSignsInWithTheContextsClient(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/0/bus")
	t.Setenv("MCPCLI_CLIENT_SECRET", "from-the-person-running-the-suite")
	code, calls, stderr := play(t, "auth/pre-registration", `{"client_id":"pre-registered-client","client_secret":"pre-registered-secret"}`, `{"tools":[]}`)
	if code != 0 || len(calls) != 2 {
		t.Fatalf("exit %d, %d commands: %s", code, len(calls), stderr)
	}
	for _, c := range calls {
		n := len(c.Args)
		joined := strings.Join(c.Args, " ")
		if !strings.Contains(joined, "--open-urls --client-id pre-registered-client --url") {
			t.Errorf("mcpcli %q lacks --open-urls --client-id pre-registered-client before --url", c.Args)
		}
		if strings.Contains(joined, "pre-registered-secret") || n < 6 {
			t.Errorf("mcpcli %q: the secret is on the command line", c.Args)
		}
		if c.Env["MCPCLI_CLIENT_SECRET"] != "pre-registered-secret" || c.Env["MCPCLI_TOKEN_STORE"] != "file" ||
			!strings.HasSuffix(c.Env["XDG_STATE_HOME"], "/state") || !strings.HasSuffix(c.Env["BROWSER"], "conformance-browser") {
			t.Errorf("mcpcli environment %v", c.Env)
		}
		if _, ok := c.Env["DBUS_SESSION_BUS_ADDRESS"]; ok {
			t.Errorf("mcpcli was given the session bus: %v", c.Env)
		}
	}
	if calls[0].Env["XDG_STATE_HOME"] != calls[1].Env["XDG_STATE_HOME"] {
		t.Errorf("the two commands keep tokens in different places: %v, %v", calls[0].Env, calls[1].Env)
	}
	if got := calls[1].Args[:2]; !cmp.Equal(got, []string{"call", "test-tool"}) {
		t.Errorf("second command %q, want call test-tool", calls[1].Args)
	}
}

func TestBasicCIMDGivesTheSuitesDocument(t *testing.T) {
	code, calls, stderr := play(t, "auth/basic-cimd", "", `{"tools":[]}`)
	if code != 0 || len(calls) != 2 {
		t.Fatalf("exit %d, %d commands: %s", code, len(calls), stderr)
	}
	if !strings.Contains(strings.Join(calls[0].Args, " "), "--client-metadata-url https://conformance-test.local/client-metadata.json") {
		t.Errorf("mcpcli %q lacks the suite's client metadata URL", calls[0].Args)
	}
}
