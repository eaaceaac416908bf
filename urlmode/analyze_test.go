package urlmode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnalyze(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 4980)
	tests := []struct {
		raw         string
		refused     string // substring of Refused; "" means it may be opened
		target      string
		host        string
		unicodeHost string
		domain      string
		kinds       []Kind
	}{
		{raw: "javascript:alert(1)", refused: "run code"},
		{raw: "JavaScript:alert(document.cookie)", refused: "run code"},
		{raw: "data:text/html,<script>alert(1)</script>", refused: "data: links"},
		{raw: "data:text/html;base64,PGgxPkhpPC9oMT4=", refused: "data: links"},
		{raw: "file:///etc/passwd", refused: "files on this computer"},
		{raw: "vbscript:msgbox(1)", refused: "run code"},
		{raw: "tel:+15551234567", refused: "only http and https"},
		{raw: "ssh://example.com", refused: "only http and https"},
		{raw: "//evil.example/x", refused: "no scheme"},
		{raw: "", refused: "no URL"},
		{raw: "https:///only-a-path", refused: "no host"},
		{raw: "http:opaque", refused: "no host"},
		{raw: "https://example.com:99999/", refused: "port"},
		{raw: "https://example.com/%zz", refused: "not a valid URL"},
		{raw: "https://[fe80::1%25eth0]/", refused: "IPv6"},
		// Hosts no name can be: ".." is not "." (issue 10).
		{raw: "httPs://..", refused: "empty part between dots"},
		{raw: "https://a..b/", refused: "empty part between dots"},
		{raw: "https://.example.com/", refused: "empty part between dots"},
		{raw: "https://-x-.example/", refused: "begins or ends with a hyphen"},
		{raw: "HTTPS://Example.COM./", target: "https://example.com/", host: "example.com", domain: "example.com"},
		// Escape sequences: an OSC 8 hyperlink would make other text
		// clickable, CSI would recolour the screen.
		{raw: "https://example.com/\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", refused: "control characters"},
		{raw: "https://example.com/\x1b[2J\x1b[31mfake", refused: "control characters"},
		{raw: "https://example.com/\u009b31mred", refused: "control characters"},
		{raw: "https://exa\rmple.com/", refused: "control characters"},
		{raw: "https://evil\u202e.com/", refused: "plain ASCII name"},

		{raw: "https://example.com/path?q=1#top", target: "https://example.com/path?q=1#top", host: "example.com", domain: "example.com"},
		{raw: "HTTPS://Login.Example.COM/", target: "https://login.example.com/", host: "login.example.com", domain: "example.com"},
		{raw: "https://login.accounts.google.com.evil.co.uk/oauth", target: "https://login.accounts.google.com.evil.co.uk/oauth", host: "login.accounts.google.com.evil.co.uk", domain: "evil.co.uk"},
		{raw: "https://xn--pple-43d.com/", target: "https://xn--pple-43d.com/", host: "xn--pple-43d.com", unicodeHost: "аpple.com", domain: "xn--pple-43d.com",
			kinds: []Kind{MixedScript, Punycode}},
		{raw: "https://аpple.com", target: "https://xn--pple-43d.com", host: "xn--pple-43d.com", unicodeHost: "аpple.com", domain: "xn--pple-43d.com",
			kinds: []Kind{MixedScript, NonASCII}},
		{raw: "https://bücher.de/", target: "https://xn--bcher-kva.de/", host: "xn--bcher-kva.de", unicodeHost: "bücher.de", domain: "xn--bcher-kva.de",
			kinds: []Kind{NonASCII}},
		{raw: "https://例え.jp/パス?q=値", target: "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%E5%80%A4", host: "xn--r8jz45g.jp", unicodeHost: "例え.jp", domain: "xn--r8jz45g.jp",
			kinds: []Kind{NonASCII}},
		{raw: "https://ＥＸＡＭＰＬＥ.com/", target: "https://example.com/", host: "example.com", domain: "example.com", kinds: []Kind{NonASCII}},
		{raw: "https://user:pass@example.com", target: "https://user:pass@example.com", host: "example.com", domain: "example.com", kinds: []Kind{UserInfo}},
		{raw: "https://bank.example@evil.example/", target: "https://bank.example@evil.example/", host: "evil.example", domain: "evil.example", kinds: []Kind{UserInfo}},
		{raw: "http://192.168.0.1/", target: "http://192.168.0.1/", host: "192.168.0.1", kinds: []Kind{IPHost, PlainHTTP}},
		{raw: "http://3232235521/", target: "http://192.168.0.1/", host: "192.168.0.1", kinds: []Kind{IPHost, PlainHTTP}},
		{raw: "http://0x7f.1/", target: "http://127.0.0.1/", host: "127.0.0.1", kinds: []Kind{IPHost}},
		{raw: "https://8.8.8.8/", target: "https://8.8.8.8/", host: "8.8.8.8", kinds: []Kind{IPHost}},
		{raw: "http://[::1]:8080/", target: "http://[::1]:8080/", host: "::1", kinds: []Kind{IPHost}},
		{raw: "http://localhost:3000/cb", target: "http://localhost:3000/cb", host: "localhost"},
		{raw: "http://app.localhost/cb", target: "http://app.localhost/cb", host: "app.localhost"},
		{raw: "http://example.com/login", target: "http://example.com/login", host: "example.com", domain: "example.com", kinds: []Kind{PlainHTTP}},
		{raw: long, target: long, host: "example.com", domain: "example.com", kinds: []Kind{Long}},
		{raw: "https://example.com/\u202egnp.exe", target: "https://example.com/%E2%80%AEgnp.exe", host: "example.com", domain: "example.com", kinds: []Kind{Altered}},
		{raw: "https://example.com/a\u200bb", target: "https://example.com/a%E2%80%8Bb", host: "example.com", domain: "example.com", kinds: []Kind{Altered}},
		{raw: "https://example.com/a b", target: "https://example.com/a%20b", host: "example.com", domain: "example.com", kinds: []Kind{Altered}},
		// An invisible character in the host is dropped by IDNA mapping, not
		// percent-encoded: one warning, about the host.
		{raw: "https://exa\u200bmple.com/", target: "https://example.com/", host: "example.com", domain: "example.com", kinds: []Kind{NonASCII}},
		{raw: "https://example.com/?q=\"><b>", target: "https://example.com/?q=%22%3E%3Cb%3E", host: "example.com", domain: "example.com"},
	}
	for _, tt := range tests {
		a := Analyze(tt.raw)
		name := tt.raw
		if len(name) > 60 {
			name = name[:60] + "…"
		}
		if tt.refused != "" {
			if a.Openable() || !strings.Contains(a.Refused, tt.refused) {
				t.Errorf("Analyze(%q).Refused = %q, want it refused mentioning %q", name, a.Refused, tt.refused)
			}
			if a.Target != "" {
				t.Errorf("Analyze(%q).Target = %q, want empty for a refused URL", name, a.Target)
			}
			checkInert(t, name, a)
			continue
		}
		if !a.Openable() {
			t.Errorf("Analyze(%q) refused (%s), want it openable", name, a.Refused)
			continue
		}
		got := struct{ Target, Host, Unicode, Domain string }{a.Target, a.Host, a.UnicodeHost, a.Domain}
		want := struct{ Target, Host, Unicode, Domain string }{tt.target, tt.host, tt.unicodeHost, tt.domain}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("Analyze(%q) (-want +got):\n%s", name, d)
		}
		var kinds []Kind
		for _, w := range a.Warnings {
			kinds = append(kinds, w.Kind)
		}
		if d := cmp.Diff(tt.kinds, kinds); d != "" {
			t.Errorf("Analyze(%q) warnings (-want +got):\n%s\n%v", name, d, a.Warnings)
		}
		if a.Shown != a.Target {
			t.Errorf("Analyze(%q): Shown %q differs from Target %q; what is shown must be what opens", name, a.Shown, a.Target)
		}
		for i := 0; i < len(a.Target); i++ {
			if c := a.Target[i]; c <= 0x20 || c >= 0x7f {
				t.Errorf("Analyze(%q).Target has byte %#x at %d; want printable ASCII only", name, c, i)
				break
			}
		}
		checkInert(t, name, a)
	}
}

// checkInert: nothing Analyze says may carry terminal controls.
func checkInert(t *testing.T, name string, a Analysis) {
	t.Helper()
	texts := []string{a.Shown, a.Refused, a.Site(), a.UnicodeHost}
	for _, w := range a.Warnings {
		texts = append(texts, w.Text)
	}
	for _, s := range texts {
		if hasControl(s) || strings.ContainsAny(s, "\u202e\u202d\u2066\u2067\u2068\u200b") {
			t.Errorf("Analyze(%q): %q carries control or invisible characters", name, s)
		}
	}
}

func TestAnalyzeWarningsName(t *testing.T) {
	tests := []struct {
		raw  string
		kind Kind
		want []string // every one must appear in the warning
	}{
		{"https://xn--pple-43d.com/", Punycode, []string{"xn--pple-43d.com", "аpple.com"}},
		{"https://аpple.com", NonASCII, []string{"xn--pple-43d.com", "аpple.com"}},
		{"https://аpple.com", MixedScript, []string{"Cyrillic", "Latin"}},
		{"https://user:pass@example.com", UserInfo, []string{"password", "opens example.com"}},
		{"http://192.168.0.1/", IPHost, []string{"192.168.0.1", "local network"}},
		{"http://3232235521/", IPHost, []string{"3232235521", "192.168.0.1"}},
		{"http://[::1]:8080/", IPHost, []string{"::1", "this computer"}},
		{"http://example.com/", PlainHTTP, []string{"not encrypted"}},
		{"https://example.com/" + strings.Repeat("x", 4980), Long, []string{"5,000 characters"}},
		{"https://example.com/\u202egnp.exe", Altered, []string{"invisible", "percent-encoded"}},
		// The host as written must show what is unusual in it, not read
		// "example.com" once sanitized.
		{"https://exa\u200bmple.com/", NonASCII, []string{"exa<U+200B>mple.com", "opens as example.com"}},
		{"https://ex\u00adample.com/x\u200by", NonASCII, []string{"ex<U+00AD>ample.com"}},
		{"https://ex\u00adample.com/x\u200by", Altered, []string{"1 invisible character"}},
	}
	for _, tt := range tests {
		a := Analyze(tt.raw)
		var text string
		for _, w := range a.Warnings {
			if w.Kind == tt.kind {
				text = w.Text
			}
		}
		if text == "" {
			t.Errorf("Analyze(%.40q): no %s warning in %v", tt.raw, tt.kind, a.Warnings)
			continue
		}
		for _, s := range tt.want {
			if !strings.Contains(text, s) {
				t.Errorf("Analyze(%.40q) %s warning %q does not mention %q", tt.raw, tt.kind, text, s)
			}
		}
	}
}

func TestParts(t *testing.T) {
	tests := []struct {
		raw                              string
		before, sub, domain, after, site string
	}{
		{"https://login.example.co.uk:8443/x?y#z", "https://", "login.", "example.co.uk", ":8443/x?y#z", "login.example.co.uk · site example.co.uk"},
		{"https://u@example.com/", "https://u@", "", "example.com", "/", "example.com"},
		{"http://[::1]:8080/cb", "http://[", "", "::1", "]:8080/cb", "[::1] · this computer"},
		{"http://localhost:3000/cb", "http://", "", "localhost", ":3000/cb", "localhost · this computer"},
		{"https://xn--pple-43d.com/", "https://", "", "xn--pple-43d.com", "/", "xn--pple-43d.com (reads as аpple.com)"},
		{"javascript:alert(1)", "javascript:alert(1)", "", "", "", ""},
	}
	for _, tt := range tests {
		a := Analyze(tt.raw)
		b, s, d, af := a.Parts()
		got := []string{b, s, d, af, a.Site()}
		want := []string{tt.before, tt.sub, tt.domain, tt.after, tt.site}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Analyze(%q).Parts, Site (-want +got):\n%s", tt.raw, diff)
		}
	}
}

func TestRefusedShownIsShortAndInert(t *testing.T) {
	raw := "data:text/html," + strings.Repeat("<b>x</b>", 2000)
	a := Analyze(raw)
	if a.Openable() {
		t.Fatal("a data: URL is openable")
	}
	if n := len([]rune(a.Shown)); n > maxRefusedShown+40 {
		t.Errorf("Shown is %d characters, want it cut near %d", n, maxRefusedShown)
	}
	if !strings.Contains(a.Shown, "more characters") {
		t.Errorf("Shown %q does not say it was cut", a.Shown)
	}
}

func TestParseIPv4(t *testing.T) {
	tests := map[string]string{
		"192.168.0.1":   "192.168.0.1",
		"3232235521":    "192.168.0.1",
		"0xC0A80001":    "192.168.0.1",
		"0300.0250.0.1": "192.168.0.1",
		"127.1":         "127.0.0.1",
		"example.com":   "",
		"1.2.3.4.5":     "",
		"256.1.1.1":     "",
		"1.2.3.256":     "",
		"example.123":   "",
		"4294967296":    "",
	}
	for in, want := range tests {
		ip, ok := parseIPv4(in)
		got := ""
		if ok {
			got = ip.String()
		}
		if got != want {
			t.Errorf("parseIPv4(%q) = %q, want %q", in, got, want)
		}
	}
}
