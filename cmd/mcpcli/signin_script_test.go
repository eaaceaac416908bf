package main

import (
	"encoding/json"
	"os"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// waitgrep FILE REGEXP: wait (30s at most) until FILE matches REGEXP: the
// output of a command left running in the background, written to a file.
func cmdWaitGrep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitgrep FILE REGEXP")
	}
	rx, err := regexp.Compile(args[1])
	ts.Check(err)
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(ts.MkAbs(args[0]))
		if rx.Match(b) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s never matched %q; it holds:\n%s", args[0], args[1], b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// expiretokens FILE: every token kept in FILE (mcpcli's oauth.json)
// expired an hour ago and has no refresh token: a sign-in that must be
// done again.
func cmdExpireTokens(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: expiretokens FILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var doc map[string]any
	ts.Check(json.Unmarshal(b, &doc))
	n := 0
	for _, e := range doc["entries"].(map[string]any) {
		for _, r := range e.(map[string]any)["records"].(map[string]any) {
			tok, ok := r.(map[string]any)["token"].(map[string]any)
			if !ok {
				continue
			}
			tok["expiry"] = time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			delete(tok, "refresh_token")
			delete(tok, "expires_in")
			n++
		}
	}
	if n == 0 {
		ts.Fatalf("%s keeps no token", args[0])
	}
	out, err := json.Marshal(doc)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), out, 0o600))
}
