package render

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/schema"
)

// A form is laid out by measuring its fields without drawing them: the
// measure must be what View draws, for every kind of field, focused or
// not, at any width, with short and long titles and descriptions.
func TestSlotHeight(t *testing.T) {
	long := strings.Repeat("a long title that goes on ", 6)
	desc := strings.Repeat("A description that wraps. ", 8)
	var props []string
	kinds := []string{
		`{"type":"string"%s}`, `{"type":"integer","minimum":1%s}`, `{"type":"boolean"%s}`, `{"type":"boolean","default":true%s}`,
		`{"type":"string","enum":["a","b","c"]%s}`, `{"type":"string","enum":["a","b","c","d","e","f","g","h","i","j","k","l"]%s}`,
		`{"type":"array","items":{"type":"string","enum":["x","y"]}%s}`, `{"type":"object"%s}`, `{"type":"string","maxLength":1000,"title":"Notes"%s}`,
		`{"type":"string","format":"date"%s}`, `{"type":"string","title":"Password"%s}`,
	}
	for i, k := range kinds {
		for j, extra := range []string{``, fmt.Sprintf(`,"title":%q`, long), fmt.Sprintf(`,"description":%q`, desc), fmt.Sprintf(`,"title":%q,"description":%q`, long, desc)} {
			if strings.Contains(k, `"title"`) && strings.Contains(extra, `"title"`) {
				continue // a keyword given twice makes a form no one shows
			}
			props = append(props, fmt.Sprintf(`"f%d_%d":`, i, j)+fmt.Sprintf(k, extra))
		}
	}
	form, err := schema.ParseArguments([]byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["f0_0","f4_1"]}`))
	if err != nil || !form.Renderable() {
		t.Fatalf("ParseArguments: %v %v", err, form.Problems)
	}
	for _, w := range []int{20, 37, 80, 100} {
		for _, descLines := range []int{1, 3, 8} {
			ff := BuildForm(form)
			l := ff.look
			for _, s := range ff.Slots {
				s.setDescription(w-2, descLines)
				s.Input.WithWidth(w)
				s.width = w
				if lf, ok := s.Input.(*listField); ok {
					lf.WithHeight(9)
				}
				for _, focused := range []bool{false, true} {
					if focused {
						s.focused = true
						s.Input.Focus()
					}
					if got, want := s.height(l), lipgloss.Height(s.View(l)); got != want {
						t.Errorf("field %s at width %d, %d description lines, focused %v: height() = %d, View draws %d lines:\n%s",
							s.Field.Name, w, descLines, focused, got, want, s.View(l))
					}
				}
				s.focused = false
				s.Input.Blur()
			}
		}
	}
}

// A text area not made yet looks as huh's own blurred one does.
func TestLazyTextLooksLikeTheTextArea(t *testing.T) {
	form, err := schema.ParseArguments([]byte(`{"type":"object","properties":{
		"opts":{"type":"object","description":"Options, as JSON","default":{"a":1,"b":[1,2]}},
		"empty":{"type":"object"},
		"long":{"type":"object","default":{"key":"a long value that goes well past the width of a narrow screen, and on"}},
		"notes":{"type":"string","title":"Notes","default":"one\ntwo\nthree\nfour"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{30, 80} {
		ff := BuildForm(form)
		for _, s := range ff.Slots {
			s.setDescription(w-2, 3)
			s.Input.WithWidth(w)
			s.width = w
			lazy := ansi.Strip(s.View(ff.look))
			s.Input.Focus()
			s.Input.Blur()
			made := ansi.Strip(s.View(ff.look))
			if lazy != made {
				t.Errorf("field %s at width %d: before it is made it draws\n%q\nand huh's text area\n%q", s.Field.Name, w, lazy, made)
			}
		}
	}
}
