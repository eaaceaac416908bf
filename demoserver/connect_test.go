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

// The service's name and the link's id come from the page's address:
// they reach the page as text and quoted attribute values, never markup.
func TestConnectPageEscapesTheAddressesStrings(t *testing.T) {
	hostile := `x"><script>alert('hi')</script><b a="`
	for _, d := range []pageData{{ID: hostile, Service: hostile}, {ID: hostile, Service: hostile, Auto: true}, {Done: true, Service: hostile}} {
		var b strings.Builder
		if err := writePage(&b, d); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if strings.Contains(page, "<script>alert") || strings.Contains(page, "<b a=") || strings.Contains(page, `x">`) {
			t.Errorf("writePage(%+v) let markup through:\n%s", d, page)
		}
		if !strings.Contains(page, "x&#34;&gt;&lt;script&gt;alert(&#39;hi&#39;)&lt;/script&gt;") {
			t.Errorf("writePage(%+v) does not show the name as escaped text:\n%s", d, page)
		}
		if d.Auto != strings.Contains(page, `<script>document.getElementById("connect").submit();</script>`) {
			t.Errorf("writePage(%+v): the submit-on-load script is there = %v, want %v", d, !d.Auto, d.Auto)
		}
	}
	var b strings.Builder
	writePage(&b, pageData{Done: true})
	if !strings.Contains(b.String(), "<p>Your account is connected.") {
		t.Errorf("writePage with no service = %q, want \"Your account is connected\"", b.String())
	}
}
