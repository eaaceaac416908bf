package htmltext

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		`<script>alert("x")</script>`: "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;",
		`a & 'b'`:                     "a &amp; &#39;b&#39;",
		"nul\x00here":                 "nul\uFFFDhere",
		"plain café":                  "plain café",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
