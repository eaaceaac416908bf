package flow

import (
	"bytes"
	"encoding/json"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// shape is what a flow checks of a requestedSchema: its fields in order,
// each one's type as written, the required set, and each field's choices.
type shape struct {
	fields   []string
	types    map[string]string
	required []string
	enums    map[string][]string // only fields that have choices
}

// shapeOf reads the schema as the server wrote it, whether or not a form
// could be made of it.
func shapeOf(raw json.RawMessage) shape {
	s := shape{fields: []string{}, required: []string{}, types: map[string]string{}, enums: map[string][]string{}}
	if jsonpeek.IsNull(bytes.TrimSpace(raw)) {
		return s
	}
	names, values, _ := jsonpeek.Members(jsonpeek.Get(raw, "properties"))
	for i, name := range names {
		if contains(s.fields, name) {
			continue
		}
		s.fields = append(s.fields, name)
		s.types[name] = typeOf(values[i])
		if e, ok := choices(values[i]); ok {
			s.enums[name] = e
		}
	}
	_ = jsonpeek.Array(jsonpeek.Get(raw, "required"), func(v []byte) bool {
		if name, ok := jsonpeek.String(v); ok {
			s.required = append(s.required, name)
		}
		return true
	})
	return s
}

// typeOf is a property's type: its "type" when a string, else the JSON
// written ("" when there is none).
func typeOf(prop []byte) string {
	t := jsonpeek.Get(prop, "type")
	if s, ok := jsonpeek.String(t); ok {
		return s
	}
	if jsonpeek.IsNull(t) {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, t) != nil {
		return string(t)
	}
	return b.String()
}

// choices are a property's allowed values: enum, oneOf consts, or the
// same under items for a multi-select.
func choices(prop []byte) ([]string, bool) {
	if e := jsonpeek.Get(prop, "enum"); e != nil {
		return stringItems(e, ""), true
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if e := jsonpeek.Get(prop, k); e != nil {
			return stringItems(e, "const"), true
		}
	}
	if items := jsonpeek.Get(prop, "items"); items != nil {
		return choices(items)
	}
	return nil, false
}

// stringItems are the string items of a JSON array (each one's member key,
// when key is set); anything else is written as JSON.
func stringItems(arr []byte, key string) []string {
	out := []string{}
	_ = jsonpeek.Array(arr, func(v []byte) bool {
		if key != "" {
			v = jsonpeek.Get(v, key)
		}
		if s, ok := jsonpeek.String(v); ok {
			out = append(out, s)
		} else if v != nil {
			var b bytes.Buffer
			if json.Compact(&b, v) == nil {
				out = append(out, b.String())
			}
		}
		return true
	})
	return out
}

// liveAsk is a LiveAsk's facts, read once.
type liveAsk struct {
	LiveAsk
	shape shape
}

func readAsk(a LiveAsk) liveAsk {
	la := liveAsk{LiveAsk: a, shape: shapeOf(nil)}
	if a.Mode != "url" {
		la.shape = shapeOf(a.Schema)
	}
	return la
}

// facts of a result, as checks see it.
type resultFacts struct {
	text       string
	structured json.RawMessage // nil when there is none
	isError    bool
	rounds     int
}

func factsOf(res *client.Result) resultFacts {
	f := resultFacts{rounds: res.Rounds}
	raw := res.Raw
	if raw == nil {
		var v any
		switch {
		case res.Tool != nil:
			v = res.Tool
		case res.Prompt != nil:
			v = res.Prompt
		case res.Resource != nil:
			v = res.Resource
		}
		raw, _ = json.Marshal(v)
	}
	var r struct {
		Content           json.RawMessage `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		Messages          []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Contents []struct {
			Text *string `json:"text"`
		} `json:"contents"`
	}
	_ = json.Unmarshal(raw, &r)
	var texts []string
	switch res.Method {
	case "prompts/get":
		for _, m := range r.Messages {
			texts = append(texts, blockTexts(m.Content)...)
		}
	case "resources/read":
		for _, c := range r.Contents {
			if c.Text != nil {
				texts = append(texts, *c.Text)
			}
		}
	default:
		texts = blockTexts(r.Content)
		f.isError = r.IsError
		if !jsonpeek.IsNull(bytes.TrimSpace(r.StructuredContent)) {
			f.structured = r.StructuredContent
		}
	}
	for i, t := range texts {
		if i > 0 {
			f.text += "\n"
		}
		f.text += t
	}
	return f
}

// blockTexts are the texts of text content blocks: one block or a list.
func blockTexts(raw json.RawMessage) []string {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var list []block
	if json.Unmarshal(raw, &list) != nil {
		var one block
		if json.Unmarshal(raw, &one) != nil {
			return nil
		}
		list = []block{one}
	}
	var out []string
	for _, b := range list {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}
