package textsafe

import (
	"encoding/json"
	"testing"
)

func TestEscapeKeepsMeaning(t *testing.T) {
	in := []byte("{\"a\":\"x\u009b31my \u202eevil\u200b \u00e9t\u00e9 \U000E0041\",\"n\":1}")
	got := EscapeJSON(in)
	want := `{"a":"x\u009b31my \u202eevil\u200b été \udb40\udc41","n":1}`
	if string(got) != want {
		t.Errorf("EscapeJSON(%q) = %s, want %s", in, got, want)
	}
	var a, b any
	if json.Unmarshal(in, &a) != nil || json.Unmarshal(got, &b) != nil {
		t.Fatal("not JSON")
	}
	if a.(map[string]any)["a"] != b.(map[string]any)["a"] {
		t.Errorf("Escape changed the string: %q vs %q", a, b)
	}
	plain := []byte(`{"a":"plain"}`)
	if got := EscapeJSON(plain); &got[0] != &plain[0] {
		t.Errorf("Escape copied JSON with nothing to escape")
	}
}
