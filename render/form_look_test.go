package render

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpcli/mcpcli/demoserver"
)

// The terminal's background reaches every field: huh keeps the first theme
// a field is given, so the model must change that same look.
func TestBackgroundReachesEveryField(t *testing.T) {
	m := newAskModel(roundOf([3]string{"profile", "Tell me about yourself.", demoserver.ProfileSchema}), 0)
	text := m.fields.Slots[0].Input // "Full name", a huh Input
	dark := text.View()
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if light := text.View(); light == dark {
		t.Errorf("the text field looks the same on a light background as on a dark one:\n%q", light)
	}
}
