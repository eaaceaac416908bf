package client

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// declaredJSON writes what json.Marshal writes, for every declaration
// mcpcli makes, whatever the name and version say; what it does not write
// goes to json.Marshal.
func TestDeclaredJSONIsJSONMarshal(t *testing.T) {
	impls := []*mcp.Implementation{
		{Name: "mcpcli", Version: "dev"},
		{Name: "mcpcli", Version: "v1.2.3 (abc1234, 2026-12-01)"},
		{Name: `a "quoted" <b>&amp;</b> \ name`, Version: "\u2028\u2029\x00\x1f\x7f"},
		{Name: "bad \xff utf-8 \xed\xa0\x80", Version: "é 日本 😀"},
		{Name: "n", Title: "T", Description: "D", Version: "v", WebsiteURL: "https://example.com/?a=1&b=<2>"},
		{Name: "", Version: ""},
	}
	var caps []*mcp.ClientCapabilities
	for _, form := range []bool{false, true} {
		for _, url := range []bool{false, true} {
			for _, elicit := range []bool{false, true} {
				for _, roots := range []int{0, 1, 2} {
					for _, sampling := range []bool{false, true} {
						c := &mcp.ClientCapabilities{}
						if elicit {
							c.Elicitation = &mcp.ElicitationCapabilities{}
							if form {
								c.Elicitation.Form = &mcp.FormElicitationCapabilities{}
							}
							if url {
								c.Elicitation.URL = &mcp.URLElicitationCapabilities{}
							}
						}
						if roots > 0 {
							c.RootsV2 = &mcp.RootCapabilities{ListChanged: roots == 2}
						}
						if sampling {
							c.Sampling = &mcp.SamplingCapabilities{}
						}
						c.AddExtension(TasksExtension, nil)
						caps = append(caps, c)
					}
				}
			}
		}
	}
	caps = append(caps,
		&mcp.ClientCapabilities{},
		&mcp.ClientCapabilities{Roots: struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{ListChanged: true}},
		&mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{Context: &mcp.SamplingContextCapabilities{}, Tools: &mcp.SamplingToolsCapabilities{}}},
		&mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}}},
		&mcp.ClientCapabilities{Extensions: map[string]any{"z/last": map[string]any{}, "a/first": map[string]any{}, "m<&>": map[string]any{}}},
	)
	for _, impl := range impls {
		for _, c := range caps {
			want, err := json.Marshal(declaration{impl, c, c.RootsV2})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := declaredJSON(impl, c)
			if !ok {
				t.Errorf("declaredJSON(%+v, %s) left it to json.Marshal, want it written", impl, want)
				continue
			}
			if string(got) != string(want) {
				t.Errorf("declaredJSON(%+v, caps) =\n%s\nwant json.Marshal's\n%s", impl, got, want)
			}
		}
	}

	// What it does not write, json.Marshal does: the same string either way.
	others := []struct {
		impl *mcp.Implementation
		caps *mcp.ClientCapabilities
	}{
		{&mcp.Implementation{Name: "n", Version: "v", Icons: []mcp.Icon{{Source: "data:,"}}}, &mcp.ClientCapabilities{}},
		{&mcp.Implementation{Name: "n", Version: "v"}, &mcp.ClientCapabilities{Experimental: map[string]any{"x": true}}},
		{&mcp.Implementation{Name: "n", Version: "v"}, &mcp.ClientCapabilities{Extensions: map[string]any{"x/y": map[string]any{"on": true}}}},
		{&mcp.Implementation{Name: "n", Version: "v"}, &mcp.ClientCapabilities{Extensions: map[string]any{"x/y": map[string]any(nil)}}},
		{&mcp.Implementation{Name: "n", Version: "v"}, &mcp.ClientCapabilities{Extensions: map[string]any{"x/y": true}}},
	}
	for _, o := range others {
		want, _ := json.Marshal(declaration{o.impl, o.caps, o.caps.RootsV2})
		if _, ok := declaredJSON(o.impl, o.caps); ok {
			t.Errorf("declaredJSON(%s) wrote it, want it left to json.Marshal", want)
		}
		if got := declaredOf(o.impl, o.caps); got != string(want) {
			t.Errorf("declaredOf = %s, want json.Marshal's %s", got, want)
		}
	}
}

// declaredJSON writes the fields of the go-sdk's types it knows; a go-sdk
// that adds one would have it left out of the tool cache's key.
func TestDeclaredJSONKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{mcp.Implementation{}, []string{"Name", "Title", "Description", "Version", "WebsiteURL", "Icons"}},
		{mcp.ClientCapabilities{}, []string{"Experimental", "Extensions", "Roots", "RootsV2", "Sampling", "Elicitation"}},
		{mcp.RootCapabilities{}, []string{"ListChanged"}},
		{mcp.SamplingCapabilities{}, []string{"Context", "Tools"}},
		{mcp.ElicitationCapabilities{}, []string{"Form", "URL"}},
		{mcp.SamplingContextCapabilities{}, nil},
		{mcp.SamplingToolsCapabilities{}, nil},
		{mcp.FormElicitationCapabilities{}, nil},
		{mcp.URLElicitationCapabilities{}, nil},
		{mcp.ClientCapabilities{}.Roots, []string{"ListChanged"}},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("mcp.%s has fields %q, declaredJSON knows %q: write the new ones in declaredJSON (or leave them to json.Marshal) and update this list", typ.Name(), got, c.want)
		}
		if _, ok := reflect.New(typ).Interface().(json.Marshaler); ok {
			t.Errorf("mcp.%s has a MarshalJSON, which declaredJSON does not call", typ.Name())
		}
	}
}
