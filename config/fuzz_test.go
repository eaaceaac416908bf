package config

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// inert reports whether a message is one line a terminal cannot be made
// to obey: no line breaks, no controls, no invisible characters.
func inert(s string) bool {
	for _, r := range s {
		if unsafeRune(r) || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	return true
}

// FuzzParse checks the parser against encoding/json, and that a file in
// mcpcli's shape survives being rewritten. The seeds are in
// testdata/fuzz/FuzzParse: one file of each tool's shape, and broken ones.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, jsonc := range []bool{false, true} {
			d, err := parseJSON(data, jsonc)
			if err != nil {
				line, col := d.pos(err.off)
				msg := (&Error{File: "/f", Line: line, Col: col, Msg: err.msg}).Error()
				if line < 1 || col < 1 || !inert(msg) {
					t.Fatalf("parseJSON(jsonc=%v) error %q at %d:%d: not one inert line at a place in the file", jsonc, msg, line, col)
				}
			}
			if jsonc {
				continue
			}
			// Strict JSON: ours accepts exactly what encoding/json does,
			// once a BOM is dropped, for valid UTF-8, and reads the same.
			src := trimBOM(data)
			blank := len(bytes.Trim(src, " \t\r\n")) == 0 // JSON whitespace only: defines nothing
			want := (json.Valid(src) && utf8.Valid(src)) || (blank && utf8.Valid(src))
			if (err == nil) != want {
				t.Fatalf("parseJSON(%q) error = %v; encoding/json says valid = %v", data, err, json.Valid(src))
			}
			if err == nil && !blank {
				dec := json.NewDecoder(bytes.NewReader(src))
				dec.UseNumber()
				var std any
				if derr := dec.Decode(&std); derr != nil {
					t.Fatalf("encoding/json cannot decode what it calls valid: %v", derr)
				}
				if diff := cmp.Diff(std, plain(d.root)); diff != "" {
					t.Fatalf("parseJSON(%q) reads differently from encoding/json (-std +ours):\n%s", data, diff)
				}
			}
		}

		d, err := parseJSON(data, false)
		if err != nil || d.root == nil || d.root.kind != kObject {
			return
		}
		if _, dup := firstDuplicate(d.root); dup {
			return // mcpcli refuses to rewrite such a file
		}
		before := decodeAll(t, d.root)

		out := encode(d.root)
		d2, err := parseJSON(out, false)
		if err != nil {
			t.Fatalf("parseJSON(encode(%q)): %v\n%s", data, err, out)
		}
		if !json.Valid(out) {
			t.Fatalf("encode(%q) is not valid JSON:\n%s", data, out)
		}
		if diff := cmp.Diff(plain(d.root), plain(d2.root)); diff != "" {
			t.Fatalf("encode(%q) does not round-trip (-before +after):\n%s", data, diff)
		}
		if again := encode(d2.root); !bytes.Equal(out, again) {
			t.Fatalf("encode is not stable for %q:\n%s\nthen\n%s", data, out, again)
		}
		if diff := cmp.Diff(before, decodeAll(t, d2.root)); diff != "" {
			t.Fatalf("the servers of %q read differently once rewritten (-before +after):\n%s", data, diff)
		}

		// Adding a server through the writer keeps every other server,
		// and the new one reads back as it was given.
		servers, _ := d2.root.get("mcpServers")
		if servers == nil || servers.kind != kObject {
			return
		}
		e := Entry{Type: Stdio, Command: "npx", Args: []string{"-y", "${PKG}"}, Env: map[string]string{"K": "v"}}
		servers.members = append(servers.members, member{key: "fuzz-added", keyOff: -1, val: entryValue(e, nil)})
		d3, err := parseJSON(encode(d2.root), false)
		if err != nil {
			t.Fatalf("parseJSON after adding a server: %v", err)
		}
		after := decodeAll(t, d3.root)
		added := after["fuzz-added"]
		delete(after, "fuzz-added")
		if _, had := before["fuzz-added"]; !had {
			if diff := cmp.Diff(before, after); diff != "" {
				t.Fatalf("adding a server changed the others (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(decoded{Entry: e}, added); diff != "" {
				t.Fatalf("the added server reads back differently (-given +read):\n%s", diff)
			}
		}
	})
}

// decoded is a server's entry or what is wrong with it.
type decoded struct {
	Entry Entry
	Err   string
}

// decodeAll reads every server of a file in mcpcli's shape; a name given
// twice keeps its last definition, as the map would.
func decodeAll(t *testing.T, root *value) map[string]decoded {
	servers, _ := root.get("mcpServers")
	if servers == nil || servers.kind != kObject {
		return nil
	}
	out := map[string]decoded{}
	for _, m := range servers.members {
		e, ferr := decodeEntry(m.val)
		if ferr != nil {
			if !inert(ferr.msg) {
				t.Fatalf("decodeEntry error %q is not one inert line", ferr.msg)
			}
			out[m.key] = decoded{Err: ferr.msg}
			continue
		}
		out[m.key] = decoded{Entry: e}
	}
	return out
}

// FuzzExpand checks expansion: no panic, errors that are one inert line,
// and a value without ${ unchanged.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"plain", "${A}", "${A:-d}", "${U:-${A}}", "$${A}", "${env:A}", "${input:x}", "${", "${A", "}${}", "${a b}", "${config:x}", "$$$${A}}", "${workspaceFolder}${/}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c := &Config{
			opts:    Options{OS: "linux", Home: "/h", LookupEnv: func(k string) (string, bool) { return map[string]string{"A": "a", "E": ""}[k], k == "A" || k == "E" }},
			answers: map[answerKey]string{},
		}
		c.opts.Ask = func(Input) (string, error) { return "answer", nil }
		s := &source{Source: Source{Kind: KindVSCode, Path: "/p/.vscode/mcp.json"}, workspace: "/p"}
		x := &expander{c: c, s: s, server: "s"}
		out, err := x.expand(`"args"[0]`, in)
		if err != nil {
			if !inert(err.Error()) {
				t.Fatalf("expand(%q) error %q is not one inert line", in, err)
			}
			return
		}
		if !strings.Contains(in, "${") && out != in {
			t.Fatalf("expand(%q) = %q; a value without ${ must stay as it is", in, out)
		}
	})
}
