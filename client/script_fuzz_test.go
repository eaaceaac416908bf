package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
)

// fuzzForm is the requested schema every key of a fuzzed answers file is
// asked with.
const fuzzForm = `{"type":"object","properties":{
	"name":{"type":"string","minLength":1,"maxLength":20},
	"age":{"type":"integer","minimum":0,"maximum":150},
	"ok":{"type":"boolean","default":true},
	"color":{"type":"string","enum":["red","green"]},
	"tags":{"type":"array","items":{"enum":["a","b"]},"maxItems":2}
},"required":["name"]}`

// FuzzParseScript: an answers file is accepted only if it is one JSON
// object, valid UTF-8, with no key twice and nothing after it (what
// schema.DecodeJSON accepts, a leading BOM aside); its keys are the
// object's; and an answer it gives to a form is one of the three actions,
// with content that fits the form. The seeds are in
// testdata/fuzz/FuzzParseScript.
func FuzzParseScript(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := client.ParseScript(bytes.NewReader(data), "answers.json")
		if err != nil {
			return
		}
		v, derr := schema.DecodeJSON(data)
		if derr != nil {
			t.Fatalf("ParseScript(%q) accepted a file schema.DecodeJSON refuses: %v", data, derr)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("ParseScript(%q) accepted %T, not an object", data, v)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if diff := cmp.Diff(keys, s.Keys()); diff != "" {
			t.Fatalf("ParseScript(%q).Keys() differ from the object's (-file +script):\n%s", data, diff)
		}

		for _, key := range keys {
			ask := client.NewAsk(key, &mcp.ElicitParams{Message: "?"}, json.RawMessage(fuzzForm))
			got, err := s.Answer(context.Background(), client.Round{Number: 1, Asks: []client.Ask{ask}})
			if err != nil {
				continue
			}
			res := got[key]
			if res == nil {
				t.Fatalf("ParseScript(%q).Answer gave nothing for %q and no error", data, key)
			}
			switch res.Action {
			case client.Accept:
				typed, err := ask.Form.FromContent(res.Content)
				if err == nil {
					err = ask.Form.Validate(typed)
				}
				if err != nil {
					t.Fatalf("ParseScript(%q) answers %q with content %v that does not fit the form: %v", data, key, res.Content, err)
				}
			case client.Decline, client.Cancel:
				if res.Content != nil {
					t.Fatalf("ParseScript(%q) answers %q %s with content %v", data, key, res.Action, res.Content)
				}
			default:
				t.Fatalf("ParseScript(%q) answers %q with action %q", data, key, res.Action)
			}
		}
	})
}
