package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
)

// schema200 is a form of 200 fields of every kind.
func schema200() string {
	var props []string
	for i := 0; i < 200; i++ {
		var p string
		switch i % 6 {
		case 0:
			p = `{"type":"string","title":"Name %d","description":"What to call thing %d.","minLength":1,"maxLength":80}`
		case 1:
			p = `{"type":"integer","title":"Count %d","minimum":0,"maximum":1000,"default":%d}`
		case 2:
			p = `{"type":"boolean","title":"Enabled %d","default":true}`
		case 3:
			p = `{"type":"string","title":"Color %d","enum":["red","green","blue","cyan","magenta","yellow"],"default":"blue"}`
		case 4:
			p = `{"type":"array","title":"Tags %d","items":{"anyOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"Beta"},{"const":"c","title":"Gamma"}]}}`
		case 5:
			p = `{"type":"string","title":"When %d","format":"date"}`
		}
		if strings.Count(p, "%d") == 2 {
			p = fmt.Sprintf(p, i, i)
		} else {
			p = fmt.Sprintf(p, i)
		}
		props = append(props, fmt.Sprintf(`"f%03d":%s`, i, p))
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
}

// schemaSelect is one single-select of n options.
func schemaSelect(n int) string {
	opts := make([]map[string]string, n)
	for i := range opts {
		opts[i] = map[string]string{"const": fmt.Sprintf("id-%05d", i), "title": fmt.Sprintf("Option number %d", i)}
	}
	b, _ := json.Marshal(opts)
	return `{"type":"object","properties":{"pick":{"type":"string","title":"Pick one","oneOf":` + string(b) + `}},"required":["pick"]}`
}

func benchRound(schema string) client.Round {
	return client.Round{Server: client.Server{Name: "bench"}, Asks: []client.Ask{client.NewAsk("k", &mcp.ElicitParams{Message: "A big form."}, json.RawMessage(schema))}}
}

// newBenchModel builds the model and sizes it as bubbletea would, without
// Init (which readies the validator in the background: see
// BenchmarkValidateSelect10k).
func newBenchModel(r client.Round) *askModel {
	m := newAskModel(r, 0)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if m.screen == screenEdit {
		m.slot().Input.Focus()
	}
	return m
}

// benchBuild times schema to a laid-out form's first frame.
func benchBuild(b *testing.B, r client.Round) {
	b.ReportAllocs()
	for b.Loop() {
		newBenchModel(r).View()
	}
}

// BenchmarkBuild200Fields: schema to the first frame of a 200-field form.
func BenchmarkBuild200Fields(b *testing.B) { benchBuild(b, benchRound(schema200())) }

// BenchmarkValidate10kSelect: what accept costs on a 10,000-option select
// when the background preparation has not finished: parse, prepare the
// validator, check the content.
func BenchmarkValidateSelect10k(b *testing.B) {
	raw := json.RawMessage(schemaSelect(10000))
	b.ReportAllocs()
	for b.Loop() {
		form, err := schema.Parse(raw)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := form.Content(map[string]any{"pick": "id-09999"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeystroke200Fields: one key typed into a 200-field form, and
// the frame it makes.
func BenchmarkKeystroke200Fields(b *testing.B) {
	m := newBenchModel(benchRound(schema200()))
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		m.View()
		i++
	}
}

// BenchmarkBuildSelect10k: schema to the first frame of a form with a
// 10,000-option select.
func BenchmarkBuildSelect10k(b *testing.B) { benchBuild(b, benchRound(schemaSelect(10000))) }

// BenchmarkKeystrokeSelect10k: one move in a 10,000-option select, and
// the frame it makes.
func BenchmarkKeystrokeSelect10k(b *testing.B) {
	m := newBenchModel(benchRound(schemaSelect(10000)))
	keys := []tea.KeyPressMsg{{Code: tea.KeyDown}, {Code: tea.KeyDown}, {Code: tea.KeyUp}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%3])
		m.View()
		i++
	}
}

// BenchmarkFilterSelect10k: one character typed into the filter of a
// 10,000-option select (every option is matched again), and the frame.
func BenchmarkFilterSelect10k(b *testing.B) {
	m := newBenchModel(benchRound(schemaSelect(10000)))
	m.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	m.Update(tea.KeyPressMsg{Code: '9', Text: "9"})
	keys := []tea.KeyPressMsg{{Code: '9', Text: "9"}, {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		m.View()
		i++
	}
}

// BenchmarkKeystrokeLongMessage: one key in a form whose server message
// is 20,000 characters (the header shows its first lines).
func BenchmarkKeystrokeLongMessage(b *testing.B) {
	r := benchRound(`{"type":"object","properties":{"name":{"type":"string"}}}`)
	r.Asks[0].Params.Message = strings.Repeat("A long message, said again and again. ", 600)
	m := newBenchModel(r)
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		m.View()
		i++
	}
}

// schemaArgs is an inputSchema of n arguments of the kinds tools take,
// nested objects and arrays of objects among them (JSON fields).
func schemaArgs(n int) json.RawMessage {
	var props []string
	for i := 0; i < n; i++ {
		var p string
		switch i % 7 {
		case 0:
			p = `{"type":"string","description":"What to call thing %d."}`
		case 1:
			p = `{"type":"integer","minimum":0,"maximum":1000,"description":"How many of thing %d."}`
		case 2:
			p = `{"type":"boolean","description":"Whether thing %d is on."}`
		case 3:
			p = `{"type":"string","enum":["red","green","blue"],"description":"Colour of thing %d."}`
		case 4:
			p = `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"description":"Options of thing %d."}`
		case 5:
			p = `{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}}},"description":"Entries of thing %d."}`
		case 6:
			p = `{"type":"string","format":"date","description":"When thing %d happens."}`
		}
		props = append(props, fmt.Sprintf(`"arg%02d":`+p, i, i))
	}
	return json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["arg00"]}`)
}

// BenchmarkOpenArguments50: the arguments form of a 50-argument tool, from
// its inputSchema to the first frame (what enter on the tool costs in the
// session, before the form's program starts).
func BenchmarkOpenArguments50(b *testing.B) {
	raw := schemaArgs(50)
	b.ReportAllocs()
	for b.Loop() {
		form, err := schema.ParseArguments(raw)
		if err != nil || !form.Renderable() {
			b.Fatalf("ParseArguments: %v %v", err, form.Problems)
		}
		a := Arguments{Server: client.Server{Name: "bench"}, Method: "tools/call", Target: "big", Description: "A tool with 50 arguments.", Form: form}
		m := newAskModel(argsRound(&a), 0)
		m.args = &a
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.slot().Input.Focus()
		m.View()
	}
}

// BenchmarkKeystrokeArguments50: one key typed into a 50-argument form,
// and the frame.
func BenchmarkKeystrokeArguments50(b *testing.B) {
	form, _ := schema.ParseArguments(schemaArgs(50))
	a := Arguments{Server: client.Server{Name: "bench"}, Method: "tools/call", Target: "big", Form: form}
	m := newAskModel(argsRound(&a), 0)
	m.args = &a
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.slot().Input.Focus()
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		m.View()
		i++
	}
}

// benchPasted is a form whose one field (a line, or long text) holds a
// 1 MB paste, focused.
func benchPasted(b *testing.B, prop string) *askModel {
	m := newBenchModel(benchRound(`{"type":"object","properties":{"f":` + prop + `}}`))
	m.slot().focus()
	m.Update(tea.PasteMsg{Content: strings.Repeat("pasted text ", 1<<20/12)})
	return m
}

// BenchmarkKeystrokeAfter1MBPaste: one key typed into a line input after a
// 1 MB paste, and the frame it makes.
func BenchmarkKeystrokeAfter1MBPaste(b *testing.B) {
	for _, tc := range []struct{ name, prop string }{
		{"line", `{"type":"string"}`},
		{"text", `{"type":"string","title":"Notes"}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := benchPasted(b, tc.prop)
			keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.Update(keys[i%2])
				m.View()
				i++
			}
		})
	}
}
