package lint_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/transport"
)

// declineAll declines every ask: the hostile server gives up after round 1.
var declineAll = client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out := map[string]*mcp.ElicitResult{}
	for _, a := range r.Asks {
		out[a.Key] = &mcp.ElicitResult{Action: client.Decline}
	}
	return out, nil
})

// inputRequired is an InputRequiredResult with these inputRequests
// members (raw JSON, so that a key can be given twice) and state.
func inputRequired(members, state string) string {
	s := `{"resultType":"input_required"`
	if members != "" {
		s += `,"inputRequests":{` + members + `}`
	}
	if state != "" {
		s += `,"requestState":` + quoteJSON(state)
	}
	return s + "}"
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func form(key, message, schema string) string {
	return fmt.Sprintf(`%q:{"method":"elicitation/create","params":{"mode":"form","message":%q,"requestedSchema":%s}}`, key, message, schema)
}

func urlAsk(key, message, url string) string {
	return fmt.Sprintf(`%q:{"method":"elicitation/create","params":{"mode":"url","message":%q,"url":%q}}`, key, message, url)
}

const okSchema = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`

// plant is one violation the hostile server makes, and the rules lint
// must find for it (and none other).
type plant struct {
	tool   string
	result string // the first answer to tools/call; "" when handled apart
	rules  []string
}

var plants = []plant{
	{"nested", inputRequired(form("k", "Where do you live?", `{"type":"object","properties":{"address":{"type":"object","properties":{"street":{"type":"string"}}}}}`), ""), []string{lint.FormSchema}},
	{"ghost", inputRequired(form("k", "Confirm?", `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok","ghost"]}`), ""), []string{lint.RequiredNoProperty}},
	{"defaulttype", inputRequired(form("k", "How many?", `{"type":"object","properties":{"n":{"type":"integer","default":"ten"}}}`), ""), []string{lint.DefaultType}},
	{"defaultrange", inputRequired(form("k", "How many?", `{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":5,"default":9}}}`), ""), []string{lint.DefaultInvalid}},
	{"enumnames", inputRequired(form("k", "Which plan?", `{"type":"object","properties":{"plan":{"type":"string","enum":["free","pro","team"],"enumNames":["Free","Pro"]}}}`), ""), []string{lint.EnumNames}},
	{"password", inputRequired(form("k", "Sign in to continue.", `{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`), ""), []string{lint.SecretInForm}},
	{"link", inputRequired(form("k", "Accept the terms at https://example.com/terms first.", okSchema), ""), []string{lint.URLInForm}},
	{"nomessage", inputRequired(form("k", " ", okSchema), ""), []string{lint.EmptyMessage}},
	{"badmode", inputRequired(`"k":{"method":"elicitation/create","params":{"mode":"sms","message":"Text me"}}`, ""), []string{lint.BadMode}},
	{"badurl", inputRequired(urlAsk("k", "Open this.", "not a url"), ""), []string{lint.URLInvalid}},
	{"jsurl", inputRequired(urlAsk("k", "Open this.", "javascript:alert(1)"), ""), []string{lint.URLScheme}},
	{"http", inputRequired(urlAsk("k", "Connect your account.", "http://example.com/connect"), ""), []string{lint.URLNotHTTPS}},
	{"userinfo", inputRequired(urlAsk("k", "Connect your account.", "https://ada:hunter2@example.com/connect"), ""), []string{lint.URLSensitive}},
	{"sampling", inputRequired(`"draft":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}}`, ""), []string{lint.Undeclared}},
	{"empty", inputRequired("", ""), []string{lint.EmptyInputRequired}},
	{"ping", inputRequired(`"k":{"method":"ping","params":{}}`, ""), []string{lint.UnknownInputRequest}},
	{"dupkey", inputRequired(form("k", "First?", okSchema)+","+form("k", "Second?", okSchema), ""), []string{lint.DuplicateKey}},
	{"bigstate", inputRequired(form("k", "Go on?", okSchema), strings.Repeat("s", lint.DefaultMaxState+1)), []string{lint.LargeRequestState}},
	{"rekey", "", []string{lint.KeySchemaChanged}},
	{"loop", "", []string{lint.TooManyRounds}},
	{"push", "", []string{lint.ServerRequestOnMRTR}},
	{"needurl", "", []string{lint.URLRequiredNoElicits}},
	{"tools/list", "", []string{lint.UnsupportedMethod}},
}

// hostile is a 2026-07-28 server over Streamable HTTP that plants one
// violation a tool.
func hostile(t *testing.T) *wiretest.Server {
	byTool := map[string]string{}
	for _, p := range plants {
		byTool[p.tool] = p.result
	}
	return wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, inputRequired(form("k", "Which tools?", okSchema), ""))
		},
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			var p struct {
				Name           string          `json:"name"`
				InputResponses json.RawMessage `json:"inputResponses"`
				RequestState   string          `json:"requestState"`
			}
			json.Unmarshal(r.Params, &p)
			retry := p.InputResponses != nil || p.RequestState != ""
			done := `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`
			switch p.Name {
			case "rekey":
				switch p.RequestState {
				case "":
					wiretest.Result(w, r, inputRequired(form("k", "Name?", `{"type":"object","properties":{"name":{"type":"string"}}}`), "s1"))
				case "s1":
					wiretest.Result(w, r, inputRequired(form("k", "Name?", `{"type":"object","properties":{"name":{"type":"integer"}}}`), "s2"))
				default:
					wiretest.Result(w, r, done)
				}
			case "loop":
				wiretest.Result(w, r, inputRequired(form("k", "Again?", okSchema), "again"))
			case "push":
				wiretest.Stream(w,
					`{"jsonrpc":"2.0","id":"srv-1","method":"elicitation/create","params":{"mode":"form","message":"Old style","requestedSchema":`+okSchema+`}}`,
					wiretest.ResultEvent(r, done))
			case "needurl":
				wiretest.Error(w, r, http.StatusOK, -32042, "URL elicitation required", `{"elicitations":[]}`)
			default:
				if retry {
					wiretest.Result(w, r, done)
					return
				}
				wiretest.Result(w, r, byTool[p.Name])
			}
		},
		// The client's answer to the server's own request (push) may come
		// after the test has ended; wiretest answers it 404, which the
		// client shrugs off.
	})
}

// session connects a client to url with lint watching its wire.
func session(t *testing.T, url string, opts client.Options, l *lint.Linter) *client.Session {
	t.Helper()
	ht := &transport.HTTP{URL: url}
	ht.Observe(l.Observe)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	if opts.Answerer == nil {
		opts.Answerer = declineAll
	}
	if opts.Modes == (client.Modes{}) {
		opts.Modes = client.Modes{Form: true, URL: true}
	}
	opts.Backoff = func(int) time.Duration { return 0 }
	s, err := client.Connect(ctx, ht, opts)
	if err != nil {
		t.Fatalf("client.Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestLintFindsEachPlantedViolation(t *testing.T) {
	srv := hostile(t)
	l := lint.New(lint.Options{MaxRounds: 3})
	s := session(t, srv.URL, client.Options{MaxRounds: 3}, l)
	ctx := context.Background()
	for _, p := range plants {
		if p.tool == "tools/list" {
			s.ListTools(ctx) // the client refuses the answer; lint saw it
			continue
		}
		s.CallTool(ctx, p.tool, nil) // many fail: the client refuses what lint reports
	}
	got := map[string][]string{} // tool → rules found
	for _, f := range l.Findings() {
		target := f.Target
		if f.Method == "tools/list" {
			target = "tools/list"
		}
		got[target] = append(got[target], f.Rule)
		if f.Server != "wiretest" {
			t.Errorf("finding %s on %q names server %q, want wiretest", f.Rule, target, f.Server)
		}
		if f.Spec == "" || !strings.Contains(f.Spec, "#") {
			t.Errorf("finding %s has no spec section: %q", f.Rule, f.Spec)
		}
	}
	covered := map[string]bool{}
	for _, p := range plants {
		rules := append([]string(nil), got[p.tool]...)
		sort.Strings(rules)
		want := append([]string(nil), p.rules...)
		sort.Strings(want)
		if strings.Join(rules, ",") != strings.Join(want, ",") {
			t.Errorf("lint on %s found %v, want %v", p.tool, rules, want)
		}
		for _, r := range p.rules {
			covered[r] = true
		}
	}
	covered[lint.URLNoElicitationID] = true // TestLintLegacy
	for _, r := range lint.Rules {
		if !covered[r.ID] {
			t.Errorf("rule %s has no planted violation", r.ID)
		}
	}
}

// Where a finding happened: the server, the request, the round, the key
// and the field.
func TestFindingSaysWhere(t *testing.T) {
	srv := hostile(t)
	l := lint.New(lint.Options{})
	s := session(t, srv.URL, client.Options{}, l)
	s.CallTool(context.Background(), "password", nil)
	s.CallTool(context.Background(), "rekey", nil)
	s.CallTool(context.Background(), "push", nil) // (the server's handlers all want a request)
	s.ListTools(context.Background())
	var fs []lint.Finding
	for _, f := range l.Findings() {
		if f.Target == "password" || f.Target == "rekey" {
			fs = append(fs, f)
		}
	}
	if len(fs) != 2 {
		t.Fatalf("findings = %+v, want two", fs)
	}
	want := lint.Where{Server: "wiretest", Method: "tools/call", Target: "password", Call: 1, Round: 1, Key: "k", Field: "password"}
	if fs[0].Where != want || fs[0].Severity != lint.Error || fs[0].Spec != "2026-07-28/client/elicitation#form-mode-security" {
		t.Errorf("finding = %+v\nwant where %+v, an error from #form-mode-security", fs[0], want)
	}
	if w := fs[1].Where; w.Target != "rekey" || w.Round != 2 || w.Key != "k" || w.Call != 2 || fs[1].Severity != lint.Warning {
		t.Errorf("key-schema-changed finding = %+v, want rekey round 2 key k, a warning", fs[1])
	}
}

// A 2025-11-25 server: a -32042 error whose URL elicitation has no
// elicitationId (at 2026-07-28 there is no such field, and none is asked).
func TestLintLegacy(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`)
		},
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusOK, -32042, "URL elicitation required",
				`{"elicitations":[{"mode":"url","message":"Connect your account.","url":"https://example.com/connect"}]}`)
		},
	})
	l := lint.New(lint.Options{})
	s := session(t, srv.URL, client.Options{ProtocolVersion: "2025-11-25", PinProtocol: true}, l)
	s.CallTool(context.Background(), "connect", nil)
	fs := l.Findings()
	if len(fs) != 1 || fs[0].Rule != lint.URLNoElicitationID || fs[0].Server != "old" || fs[0].Key != "elicitation" {
		t.Fatalf("findings = %+v, want one url-missing-elicitation-id on old's ask", fs)
	}
}

func TestFailed(t *testing.T) {
	warn := []lint.Finding{{Rule: lint.URLNotHTTPS, Severity: lint.Warning}}
	errs := []lint.Finding{{Rule: lint.SecretInForm, Severity: lint.Error}}
	for _, tc := range []struct {
		fs     []lint.Finding
		strict bool
		want   bool
	}{
		{nil, false, false}, {nil, true, false},
		{warn, false, false}, {warn, true, true},
		{errs, false, true}, {errs, true, true},
	} {
		if got := lint.Failed(tc.fs, tc.strict); got != tc.want {
			t.Errorf("Failed(%v, strict %v) = %v, want %v", tc.fs, tc.strict, got, tc.want)
		}
	}
}
