package urlmode

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzAnalyze: whatever URL a server sends, Analyze says nothing a
// terminal could obey; a refused URL has no Target; an openable one has a
// Target of printable ASCII over http or https that net/url reads as the
// same host, that is what is shown, and that analyzes again to itself.
// The seeds (testdata/fuzz/FuzzAnalyze) are TestAnalyze's URLs and
// look-alikes.
func FuzzAnalyze(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		a := Analyze(raw)
		checkInert(t, raw, a)
		before, sub, domain, after := a.Parts()
		if got := before + sub + domain + after; got != a.Shown {
			t.Fatalf("Analyze(%q).Parts() = %q %q %q %q; they do not make Shown %q", raw, before, sub, domain, after, a.Shown)
		}
		if a.Refused != "" {
			if a.Target != "" || a.Openable() {
				t.Fatalf("Analyze(%q) refused (%s) yet Target = %q, Openable = %v", raw, a.Refused, a.Target, a.Openable())
			}
			if n := len([]rune(a.Shown)); n > maxRefusedShown+40 {
				t.Fatalf("Analyze(%q) refused shows %d characters; want it cut near %d", raw, n, maxRefusedShown)
			}
			return
		}
		if !a.Openable() {
			t.Fatalf("Analyze(%q) is neither refused nor openable: %+v", raw, a)
		}
		for i := 0; i < len(a.Target); i++ {
			if c := a.Target[i]; c <= 0x20 || c >= 0x7f {
				t.Fatalf("Analyze(%q).Target = %q has byte %#x at %d; want printable ASCII, no spaces", raw, a.Target, c, i)
			}
		}
		if a.Shown != a.Target {
			t.Fatalf("Analyze(%q) shows %q but would open %q", raw, a.Shown, a.Target)
		}
		if a.Scheme != "http" && a.Scheme != "https" || !strings.HasPrefix(a.Target, a.Scheme+"://") {
			t.Fatalf("Analyze(%q).Target = %q, scheme %q; want http or https", raw, a.Target, a.Scheme)
		}
		u, err := url.Parse(a.Target)
		if err != nil {
			t.Fatalf("Analyze(%q).Target = %q, which net/url cannot read: %v", raw, a.Target, err)
		}
		if got := strings.ToLower(u.Hostname()); got != a.Host || u.Port() != a.Port {
			t.Fatalf("Analyze(%q).Target = %q: net/url reads host %q port %q; Analyze says host %q port %q", raw, a.Target, got, u.Port(), a.Host, a.Port)
		}
		b := Analyze(a.Target)
		if !b.Openable() || b.Target != a.Target || b.Host != a.Host || b.Domain != a.Domain || b.Loopback != a.Loopback {
			t.Fatalf("Analyze(%q) = %q (host %q, domain %q); analyzing that again gives %q (host %q, domain %q), refused: %q",
				raw, a.Target, a.Host, a.Domain, b.Target, b.Host, b.Domain, b.Refused)
		}
	})
}
