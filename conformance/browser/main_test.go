package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFollowsRedirectsToTheCallback(t *testing.T) {
	var got string
	callback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.RawQuery
		w.Write([]byte("signed in"))
	}))
	defer callback.Close()
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, callback.URL+"/callback?code=c&state="+r.URL.Query().Get("state"), http.StatusFound)
	}))
	defer as.Close()
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{as.URL + "/authorize?state=s1"}, &stderr); code != 0 {
		t.Fatalf("run = %d, stderr %q", code, stderr.String())
	}
	if got != "code=c&state=s1" {
		t.Errorf("callback got %q, want code=c&state=s1", got)
	}
}

func TestStopsOnErrorsAndLeavesNoMachine(t *testing.T) {
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, "https://example.com/phish", http.StatusFound)
			return
		}
		http.Error(w, "state mismatch", http.StatusBadRequest)
	}))
	defer bad.Close()
	tests := []struct {
		url, want string
	}{
		{bad.URL + "/callback", "HTTP 400"},
		{bad.URL + "/away", "will not leave this machine"},
		{"https://example.com/authorize", "will not leave this machine"},
		{"file:///etc/passwd", "only http and https"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		if code := run(context.Background(), []string{tt.url}, &stderr); code != 1 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("run(%s) = %d, stderr %q; want 1 and %q", tt.url, code, stderr.String(), tt.want)
		}
	}
}
