package wiretest

import (
	"net/http"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what the server under test reports.
type recorder struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Helper()          {}

func (r *recorder) end() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func TestAHandlerNeverReachedFailsTheTest(t *testing.T) {
	rec := &recorder{TB: t}
	s := New(rec, map[string]Handler{"tools/call": Text("ok"), "tools/list": Tools(`[]`)})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	resp, err := http.Post(s.URL, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	rec.end()
	if len(rec.errs) != 1 {
		t.Fatalf("the server reported %d problems, want 1 (tools/call was never called): %q", len(rec.errs), rec.errs)
	}
}

func TestEveryHandlerReachedPasses(t *testing.T) {
	rec := &recorder{TB: t}
	s := New(rec, map[string]Handler{"tools/list": Tools(`[]`)})
	resp, err := http.Post(s.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	rec.end()
	if len(rec.errs) != 0 {
		t.Errorf("the server reported %q, want nothing", rec.errs)
	}
}
