package render

import (
	"reflect"
	"testing"
)

// Backgrounds a form may be drawn on: a dark terminal is black to #262626,
// a light one white to #f0f0f0.
var (
	darkBackgrounds  = []string{"#000000", "#1E1E1E", "#262626"}
	lightBackgrounds = []string{"#FFFFFF", "#F5F5F5", "#F0F0F0"}
)

// Every text color of each palette has at least 4.5:1 contrast on every
// background of its kind (WCAG AA for text); the buttons, on their own.
func TestPaletteContrast(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Palette
		bgs  []string
	}{{"dark", DarkPalette, darkBackgrounds}, {"light", LightPalette, lightBackgrounds}} {
		v := reflect.ValueOf(tc.p)
		for i := 0; i < v.NumField(); i++ {
			name, color := v.Type().Field(i).Name, v.Field(i).String()
			switch name {
			case "Button", "Off":
				continue // backgrounds of buttons: checked with their text
			case "ButtonText":
				if c := Contrast(color, tc.p.Button); c < 4.5 {
					t.Errorf("%s palette: button text %s on %s has contrast %.2f, want at least 4.5", tc.name, color, tc.p.Button, c)
				}
				continue
			case "OffText":
				if c := Contrast(color, tc.p.Off); c < 4.5 {
					t.Errorf("%s palette: button text %s on %s has contrast %.2f, want at least 4.5", tc.name, color, tc.p.Off, c)
				}
				continue
			}
			for _, bg := range tc.bgs {
				if c := Contrast(color, bg); c < 4.5 {
					t.Errorf("%s palette: %s %s on %s has contrast %.2f, want at least 4.5", tc.name, name, color, bg, c)
				}
			}
		}
	}
}

func TestContrast(t *testing.T) {
	if c := Contrast("#000000", "#FFFFFF"); c < 20.9 || c > 21.1 {
		t.Errorf("Contrast(black, white) = %.2f, want 21", c)
	}
	if c := Contrast("#767676", "#FFFFFF"); c < 4.5 || c > 4.6 {
		t.Errorf("Contrast(#767676, white) = %.2f, want 4.54", c)
	}
}
