package demoserver

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func get(t *testing.T, u string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestConnectPageStates(t *testing.T) {
	d := newDemo(t, Options{})
	cs := session(t, d, nil)
	r1 := call(t, cs, "connect_account", map[string]any{"service": "calendar"}, nil, "")
	ask := r1.InputRequests["connect"].(*mcp.ElicitParams)

	code, body, h := get(t, ask.URL)
	if code != 200 || !strings.Contains(body, `<form id="connect"`) || strings.Contains(body, "<script>") {
		t.Errorf("GET the link = %d, want the form without the auto-submit script:\n%s", code, body)
	}
	for k, want := range map[string]string{"Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY", "Cache-Control": "no-store"} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if _, body, _ := get(t, ask.URL+"&auto=1"); !strings.Contains(body, `document.getElementById("connect").submit()`) {
		t.Errorf("auto=1 does not add the submit-on-load script:\n%s", body)
	}
	if code, _, _ := get(t, d.PageURL()+"/connect?id=forged&service=calendar"); code != http.StatusNotFound {
		t.Errorf("GET a link never issued = %d, want 404", code)
	}
	u, _ := url.Parse(ask.URL)
	resp, err := http.PostForm(d.PageURL()+"/connect", url.Values{"id": {u.Query().Get("id")}, "service": {"calendar"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "Your calendar account is connected") {
		t.Errorf("after POST: %s", b)
	}
	// Opened again after finishing: it says so instead of offering the form.
	if code, body, _ := get(t, ask.URL+"&auto=1"); code != 200 || !strings.Contains(body, `id="done"`) || strings.Contains(body, "<form") {
		t.Errorf("GET after finishing = %d:\n%s", code, body)
	}
}
