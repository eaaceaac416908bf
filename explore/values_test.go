package explore_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/schema"
)

func values(t *testing.T, raw string) (map[string]any, error) {
	t.Helper()
	f, err := schema.Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("Parse(%s): %v", raw, err)
	}
	return explore.Values(f)
}

func TestValues(t *testing.T) {
	for _, tc := range []struct {
		prop string
		want any
	}{
		{`{"type":"string"}`, "example"},
		{`{"type":"string","default":"hi"}`, "hi"},
		{`{"type":"string","default":5}`, "example"}, // a default that does not fit is left out
		{`{"type":"string","minLength":10}`, "examplexxx"},
		{`{"type":"string","maxLength":3}`, "exa"},
		{`{"type":"string","maxLength":0}`, ""},
		{`{"type":"string","format":"email"}`, "ada.lovelace@example.com"},
		{`{"type":"string","format":"email","maxLength":16}`, "ada@example.com"},
		{`{"type":"string","format":"uri"}`, "https://example.com/page"},
		{`{"type":"string","format":"date"}`, "2026-01-02"},
		{`{"type":"string","format":"date-time"}`, "2026-01-02T03:04:05Z"},
		{`{"type":"string","enum":["b","a"]}`, "b"},
		{`{"type":"string","oneOf":[{"const":"x","title":"X"}]}`, "x"},
		{`{"type":"string","enum":["b","a"],"default":"a"}`, "a"},
		{`{"type":"boolean"}`, false},
		{`{"type":"boolean","default":true}`, true},
		{`{"type":"integer"}`, int64(0)},
		{`{"type":"integer","minimum":13,"maximum":130}`, int64(13)},
		{`{"type":"integer","minimum":-20,"maximum":-10}`, int64(-20)},
		{`{"type":"integer","maximum":-3.5}`, int64(-4)},
		{`{"type":"integer","minimum":0.5}`, int64(1)},
		{`{"type":"integer","exclusiveMinimum":0}`, int64(1)},
		{`{"type":"integer","minimum":1,"multipleOf":5}`, int64(5)},
		{`{"type":"integer","minimum":1,"multipleOf":2.5}`, int64(5)},
		{`{"type":"number","minimum":0.5,"maximum":2.5}`, 0.5},
		{`{"type":"number","exclusiveMinimum":0.5,"maximum":2.5}`, 1.5},
		{`{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}`, 0.5},
		{`{"type":"number","minimum":0.15,"multipleOf":0.1}`, 0.2},
		{`{"type":"array","items":{"type":"string","enum":["en","fr"]}}`, []string{"en"}},
		{`{"type":"array","items":{"type":"string","enum":["en","fr","ja"]},"minItems":2}`, []string{"en", "fr"}},
		{`{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"}]},"maxItems":0}`, []string{}},
	} {
		got, err := values(t, `{"type":"object","properties":{"f":`+tc.prop+`}}`)
		if err != nil {
			t.Errorf("Values(%s) = %v", tc.prop, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got["f"]); diff != "" {
			t.Errorf("Values(%s) (-want +got):\n%s", tc.prop, diff)
		}
	}
}

func TestValuesSaysWhatCannotBeFilled(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"code":{"type":"string","pattern":"^[0-9]{6}$"}}}`, "code"},
		{`{"type":"object","properties":{"d":{"type":"string","format":"date","maxLength":4}}}`, "d no date example is between 0 and 4 characters long"},
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":1.2,"maximum":1.8}}}`, "n no number fits its bounds"},
		{`{"type":"object","properties":{"x":{"type":"object"}}}`, "cannot be answered"},
	} {
		_, err := values(t, tc.schema)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Values(%s) = %v, want an error with %q", tc.schema, err, tc.want)
		}
	}
}

// The demo's everything-form is filled in whole.
func TestValuesFillTheDemoProfile(t *testing.T) {
	got, err := values(t, demoserver.ProfileSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"name", "email", "website", "birthday", "call_at", "bio", "age", "height", "newsletter", "theme", "country", "plan", "languages", "topics"} {
		if _, ok := got[name]; !ok {
			t.Errorf("Values(profile) has no %s: %v", name, got)
		}
	}
	if got["email"] != "ada@example.com" || got["age"] != int64(13) {
		t.Errorf("Values(profile): email %v (the default), age %v (the minimum)", got["email"], got["age"])
	}
}

// Property: whatever form mode schema, every value generated validates
// against it (Values validates before it returns, so an error is the
// failure).
func TestValuesAlwaysFit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		raw := randomSchema(r)
		f, err := schema.Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("Parse(%s): %v", raw, err)
		}
		if !f.Renderable() {
			continue // no answer can fit: schema.Parse says so
		}
		got, err := explore.Values(f)
		if err != nil {
			t.Fatalf("Values(%s) = %v", raw, err)
		}
		if err := f.Validate(got); err != nil {
			t.Fatalf("Values(%s) = %v, which does not validate: %v", raw, got, err)
		}
	}
}

// randomSchema makes a form mode schema of 1 to 6 fields of every kind,
// with bounds, formats, choices and defaults drawn at random.
func randomSchema(r *rand.Rand) string {
	var props, required []string
	n := 1 + r.IntN(6)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("f%d", i)
		var p []string
		switch r.IntN(7) {
		case 0:
			p = append(p, `"type":"string"`)
			if r.IntN(2) == 0 {
				// A format's examples are 3 to 24 characters long.
				p = append(p, fmt.Sprintf(`"format":%q`, []string{"email", "uri", "date", "date-time"}[r.IntN(4)]))
				if r.IntN(2) == 0 {
					p = append(p, fmt.Sprintf(`"maxLength":%d`, 24+r.IntN(40)))
				}
			} else {
				lo := r.IntN(30)
				if r.IntN(2) == 0 {
					p = append(p, fmt.Sprintf(`"minLength":%d`, lo))
				}
				if r.IntN(2) == 0 {
					p = append(p, fmt.Sprintf(`"maxLength":%d`, lo+r.IntN(40)))
				}
			}
			if r.IntN(4) == 0 {
				p = append(p, fmt.Sprintf(`"default":%q`, strings.Repeat("d", r.IntN(10))))
			}
		case 1, 2:
			p = append(p, fmt.Sprintf(`"type":%q`, []string{"number", "integer"}[r.IntN(2)]))
			// Every range drawn holds several multiples of the step, so a
			// value always exists.
			m := []float64{0, 0.1, 0.25, 0.5, 2, 3, 5}[r.IntN(7)]
			lo := float64(r.IntN(200)-100) / float64(1+r.IntN(4))
			hi := lo + 10*max(m, 1) + float64(r.IntN(50))/float64(1+r.IntN(4))
			switch r.IntN(3) {
			case 0:
				p = append(p, fmt.Sprintf(`"minimum":%v,"maximum":%v`, lo, hi))
			case 1:
				p = append(p, fmt.Sprintf(`"exclusiveMinimum":%v`, lo))
			case 2:
				p = append(p, fmt.Sprintf(`"maximum":%v`, hi))
			}
			if m > 0 {
				p = append(p, fmt.Sprintf(`"multipleOf":%v`, m))
			}
			if r.IntN(4) == 0 {
				p = append(p, fmt.Sprintf(`"default":%v`, lo))
			}
		case 3:
			p = append(p, `"type":"boolean"`)
			if r.IntN(2) == 0 {
				p = append(p, `"default":true`)
			}
		case 4:
			p = append(p, `"type":"string"`, fmt.Sprintf(`"enum":%s`, choices(r)))
			if r.IntN(3) == 0 {
				p = append(p, `"default":"c1"`)
			}
		case 5:
			p = append(p, `"type":"string"`, `"oneOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]`)
		case 6:
			p = append(p, `"type":"array"`, fmt.Sprintf(`"items":{"type":"string","enum":%s}`, choices(r)))
			if r.IntN(2) == 0 {
				p = append(p, fmt.Sprintf(`"minItems":%d`, r.IntN(4)))
			}
			if r.IntN(2) == 0 {
				p = append(p, fmt.Sprintf(`"maxItems":%d`, r.IntN(4)))
			}
		}
		props = append(props, fmt.Sprintf(`%q:{%s}`, name, strings.Join(p, ",")))
		if r.IntN(2) == 0 {
			required = append(required, fmt.Sprintf("%q", name))
		}
	}
	return fmt.Sprintf(`{"type":"object","properties":{%s},"required":[%s]}`, strings.Join(props, ","), strings.Join(required, ","))
}

func choices(r *rand.Rand) string {
	var c []string
	for i := 0; i <= r.IntN(4); i++ {
		c = append(c, fmt.Sprintf(`"c%d"`, i))
	}
	return "[" + strings.Join(c, ",") + "]"
}
