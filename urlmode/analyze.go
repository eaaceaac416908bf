// Package urlmode handles URL-mode elicitations: a safe look at the URL, the
// person's explicit consent, opening the browser, and the way back.
//
// Nothing here fetches a URL or anything about it: the spec forbids
// prefetching, and the analysis is pure string work.
package urlmode

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/mcpcli/mcpcli/render"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// LongURL is the length from which a URL gets a warning of its own.
const LongURL = 1000

// Kind names a warning, for tests and for styling.
type Kind string

// Warning kinds.
const (
	Punycode    Kind = "punycode"     // the host has xn-- labels
	NonASCII    Kind = "non-ascii"    // the host has non-ASCII letters
	MixedScript Kind = "mixed-script" // the host mixes alphabets (Latin and Cyrillic...)
	UserInfo    Kind = "userinfo"     // user:pass@ before the host
	IPHost      Kind = "ip-host"      // the host is an IP address
	PlainHTTP   Kind = "plain-http"   // http to a host that is not loopback
	Long        Kind = "long"         // very long URL
	Altered     Kind = "altered"      // what the server sent is not what is shown
)

// Warning is one thing a person should know before opening the URL.
type Warning struct {
	Kind Kind
	Text string // plain words, already sanitized
}

// Analysis is what mcpcli knows about a URL without fetching it.
type Analysis struct {
	// Target is exactly what is shown and what would be opened: printable
	// ASCII only, the host in its ASCII (xn--) form, everything else that
	// is not plain ASCII percent-encoded. Empty when Refused.
	Target string
	// Shown is the URL for display: Target, or for a refused URL the
	// sanitized text the server sent (cut short if very long).
	Shown string
	// Scheme is the lowercased scheme ("" when there is none).
	Scheme string
	// Host is the host in ASCII form, lowercased, IPv6 without brackets.
	Host string
	// UnicodeHost is the host in Unicode form, when that differs from Host.
	UnicodeHost string
	// Domain is the registrable domain (public suffix plus one label) in
	// ASCII form; empty for IP addresses, localhost and bare suffixes.
	Domain string
	// Port is the explicit port, if any.
	Port string
	// IP is the host's address when the host is an IP address (in any of
	// the forms a browser accepts).
	IP netip.Addr
	// Loopback is true for localhost and loopback addresses.
	Loopback bool
	// Refused says why the URL will not be opened; empty when it may be.
	Refused string
	// Warnings, most important first.
	Warnings []Warning

	hostStart, hostEnd int // the host's place in Shown
}

// Openable reports whether the URL may be opened (with consent).
func (a Analysis) Openable() bool { return a.Refused == "" && a.Target != "" }

// Has reports whether a warning of kind k was given.
func (a Analysis) Has(k Kind) bool {
	for _, w := range a.Warnings {
		if w.Kind == k {
			return true
		}
	}
	return false
}

// Parts splits Shown around the host for highlighting: before the host,
// the host's subdomain part (with its trailing dot), the registrable
// domain (or the whole host when there is none), and after the host.
func (a Analysis) Parts() (before, sub, domain, after string) {
	if a.hostEnd <= a.hostStart {
		return a.Shown, "", "", ""
	}
	host := a.Shown[a.hostStart:a.hostEnd]
	sub, domain = "", host
	if a.Domain != "" && strings.HasSuffix(host, a.Domain) {
		sub, domain = host[:len(host)-len(a.Domain)], a.Domain
	}
	return a.Shown[:a.hostStart], sub, domain, a.Shown[a.hostEnd:]
}

// Site names the host for a person: "login.example.com (site example.com)",
// with the Unicode form beside an xn-- host.
func (a Analysis) Site() string {
	if a.Host == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(hostForm(a.Host))
	if a.UnicodeHost != "" {
		fmt.Fprintf(&b, " (reads as %s)", a.UnicodeHost)
	}
	switch {
	case a.Loopback:
		b.WriteString(" · this computer")
	case a.IP.IsValid() && (a.IP.Unmap().IsPrivate() || a.IP.Unmap().IsLinkLocalUnicast()):
		b.WriteString(" · your local network")
	case a.Domain != "" && a.Domain != a.Host:
		fmt.Fprintf(&b, " · site %s", a.Domain)
	}
	return b.String()
}

func hostForm(h string) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// maxRefusedShown bounds how much of a refused URL is shown: it will not
// be opened, so there is nothing to examine past that.
const maxRefusedShown = 300

// Analyze looks at a URL a server asks the person to open. It never
// touches the network.
func Analyze(raw string) Analysis {
	a := Analysis{}
	refuse := func(format string, args ...any) Analysis {
		a.Refused = fmt.Sprintf(format, args...)
		a.Target = ""
		a.Shown = shortened(render.Line(raw), maxRefusedShown)
		a.hostStart, a.hostEnd = 0, 0
		if utf8.RuneCountInString(raw) > LongURL {
			a.Warnings = append(a.Warnings, longWarning(raw))
		}
		return a
	}
	if strings.TrimSpace(raw) == "" {
		return refuse("the server sent no URL")
	}
	if hasControl(raw) {
		return refuse("the URL contains control characters (such as terminal escape sequences); a valid URL has none")
	}
	if i := strings.IndexByte(raw, ':'); i > 0 && validScheme(raw[:i]) {
		a.Scheme = strings.ToLower(raw[:i])
	}
	switch a.Scheme {
	case "http", "https":
	case "":
		return refuse("it has no scheme; only http and https links are opened")
	case "javascript", "vbscript":
		return refuse("%s: links run code instead of opening a page; only http and https links are opened", a.Scheme)
	case "data":
		return refuse("data: links carry a whole page inside the link, a common way to fake a sign-in page; only http and https links are opened")
	case "file":
		return refuse("file: links open files on this computer; only http and https links are opened")
	case "blob", "about", "chrome", "view-source", "filesystem":
		return refuse("%s: links point inside the browser itself; only http and https links are opened", a.Scheme)
	default:
		return refuse("%s: links may start another program; only http and https links are opened", a.Scheme)
	}
	u, err := url.Parse(raw)
	if err != nil {
		msg := err.Error()
		var ue *url.Error
		if errors.As(err, &ue) {
			msg = ue.Err.Error()
		}
		return refuse("it is not a valid URL (%s)", render.Line(msg))
	}
	if u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return refuse("it has no host (a web address looks like %s://example.com/...)", a.Scheme)
	}
	a.Port = u.Port()
	if a.Port != "" {
		if n, err := strconv.Atoi(a.Port); err != nil || n < 1 || n > 65535 {
			return refuse("its port %q is not a port number (1-65535)", render.Line(a.Port))
		}
	}
	rawHost := u.Hostname()
	if err := a.host(rawHost); err != nil {
		return refuse("%s", err)
	}

	// Target: every part rebuilt from the parse, in printable ASCII.
	var b strings.Builder
	b.WriteString(a.Scheme)
	b.WriteString("://")
	if u.User != nil {
		b.WriteString(escapeOdd(u.User.String()))
		b.WriteByte('@')
	}
	a.hostStart = b.Len()
	b.WriteString(hostForm(a.Host))
	a.hostEnd = b.Len()
	if strings.Contains(a.Host, ":") { // brackets are not the host
		a.hostStart++
		a.hostEnd--
	}
	if a.Port != "" {
		b.WriteByte(':')
		b.WriteString(a.Port)
	}
	b.WriteString(escapeOdd(u.EscapedPath()))
	if u.ForceQuery || u.RawQuery != "" {
		b.WriteByte('?')
		b.WriteString(escapeOdd(u.RawQuery))
	}
	if u.Fragment != "" || u.RawFragment != "" {
		b.WriteByte('#')
		b.WriteString(escapeOdd(u.EscapedFragment()))
	}
	a.Target = b.String()
	a.Shown = a.Target

	a.warn(raw, rawHost, u)
	return a
}

// host fills in Host, UnicodeHost, IP, Loopback and Domain.
func (a *Analysis) host(raw string) error {
	if strings.Contains(raw, ":") { // IPv6 literal
		ip, err := netip.ParseAddr(raw)
		if err != nil || ip.Zone() != "" {
			return fmt.Errorf("its host [%s] is not a valid IPv6 address for a web link", render.Line(raw))
		}
		a.IP, a.Host = ip, ip.String()
		a.Loopback = ip.Unmap().IsLoopback()
		return nil
	}
	ascii, err := idna.Lookup.ToASCII(raw)
	if err != nil {
		if !isASCII(raw) || !plainHostname(raw) {
			return fmt.Errorf("its host %q cannot be written as a plain ASCII name (%s)", render.Line(raw), render.Line(err.Error()))
		}
		ascii = strings.ToLower(raw) // e.g. an underscore: not strict DNS, but unambiguous
	}
	ascii = strings.TrimSuffix(ascii, ".")
	if ascii == "" {
		return fmt.Errorf("its host is empty")
	}
	for _, label := range strings.Split(ascii, ".") {
		switch {
		case label == "":
			return fmt.Errorf("its host %q has an empty part between dots; a host name has none", render.Line(raw))
		case strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-"):
			return fmt.Errorf("its host %q has a part that begins or ends with a hyphen (%q); a host name has none", render.Line(raw), label)
		}
	}
	a.Host = ascii
	if uni, err := idna.Display.ToUnicode(ascii); err == nil && uni != ascii {
		a.UnicodeHost = render.Line(uni)
	}
	if ip, ok := parseIPv4(ascii); ok {
		// Open the address in its usual form: what is shown is where the
		// browser goes, whatever form the server wrote it in.
		a.IP, a.Host, a.UnicodeHost = ip, ip.String(), ""
		a.Loopback = ip.IsLoopback()
		return nil
	}
	a.Loopback = ascii == "localhost" || strings.HasSuffix(ascii, ".localhost")
	if d, err := publicsuffix.EffectiveTLDPlusOne(ascii); err == nil && !a.Loopback {
		a.Domain = d
	}
	return nil
}

// warn collects the warnings about a URL that may be opened.
func (a *Analysis) warn(raw, rawHost string, u *url.URL) {
	add := func(k Kind, format string, args ...any) {
		a.Warnings = append(a.Warnings, Warning{Kind: k, Text: fmt.Sprintf(format, args...)})
	}
	if a.UnicodeHost != "" {
		if scripts := mixedScripts(a.UnicodeHost); scripts != "" {
			add(MixedScript, "The host mixes %s letters (%s): a common trick to imitate a well-known name.", scripts, a.UnicodeHost)
		}
		if isASCII(rawHost) {
			add(Punycode, "The host is written in punycode: %s reads as %s. Letters that look alike can imitate another site.", a.Host, a.UnicodeHost)
		} else {
			add(NonASCII, "The host has non-ASCII letters: %s, which the browser opens as %s. Letters that look alike can imitate another site.", a.UnicodeHost, a.Host)
		}
	} else if !isASCII(rawHost) {
		// Mapped to plain ASCII (fullwidth letters, ...): what is shown is
		// what opens, but the server wrote it otherwise.
		add(NonASCII, "The host was written with unusual characters (%s); it opens as %s.", render.Line(showInvisible(rawHost)), a.Host)
	}
	if u.User != nil {
		name := render.Line(u.User.Username())
		if _, has := u.User.Password(); has {
			add(UserInfo, "The URL carries a user name (%q) and a password before the @. Text before the @ is not the site: this opens %s.", name, hostForm(a.Host))
		} else {
			add(UserInfo, "The URL carries a user name (%q) before the @. Text before the @ is not the site: this opens %s.", name, hostForm(a.Host))
		}
	}
	if a.IP.IsValid() {
		where := "on the internet"
		switch ip := a.IP.Unmap(); {
		case a.Loopback:
			where = "this computer"
		case ip.IsPrivate() || ip.IsLinkLocalUnicast():
			where = "your local network"
		case ip.IsUnspecified():
			where = "an unspecified address"
		}
		if a.IP.Is4() && rawHost != a.IP.String() {
			add(IPHost, "The server wrote the host as %s, an IP address in an unusual form: it is %s (%s), shown and opened as such.", render.Line(rawHost), a.IP, where)
		} else {
			add(IPHost, "The host is an IP address (%s, %s), not a name: there is no domain to check.", a.IP, where)
		}
	}
	if a.Scheme == "http" && !a.Loopback {
		add(PlainHTTP, "Plain http to %s: the connection is not encrypted, so what you type on that page can be read or changed on the way.", hostForm(a.Host))
	}
	if utf8.RuneCountInString(raw) > LongURL {
		a.Warnings = append(a.Warnings, longWarning(raw))
	}
	// Invisible characters in the host are dropped by IDNA mapping, and
	// the host's own warning names them: count only the rest of the URL.
	rest := raw
	if i := strings.Index(raw, rawHost); rawHost != "" && i >= 0 {
		rest = raw[:i] + raw[i+len(rawHost):]
	}
	if why := alteredBecause(rest); why != "" {
		add(Altered, "What the server sent differs from what is shown: %s. The browser gets exactly the URL shown here.", why)
	}
}

func longWarning(raw string) Warning {
	return Warning{Kind: Long, Text: fmt.Sprintf("The URL is very long (%s characters): read all of it; a long URL can push what matters out of sight.", thousands(utf8.RuneCountInString(raw)))}
}

// alteredBecause says how the URL as sent differs from the one shown, in a
// way a person should know about; "" when it does not. Non-ASCII letters
// in the path or query are not suspicious by themselves; invisible
// characters and spaces are.
func alteredBecause(raw string) string {
	var invisible, spaces int
	for _, r := range raw {
		switch {
		case isInvisible(r):
			invisible++
		case unicode.IsSpace(r):
			spaces++
		}
	}
	var why []string
	if invisible > 0 {
		why = append(why, fmt.Sprintf("%d invisible character%s (such as bidi controls or zero-width spaces), now shown percent-encoded", invisible, plural.S(invisible)))
	}
	if spaces > 0 {
		why = append(why, fmt.Sprintf("%d space%s, now shown as %%20", spaces, plural.S(spaces)))
	}
	return strings.Join(why, "; ")
}

// isInvisible reports characters that show as nothing, or as a blank.
func isInvisible(r rune) bool {
	return textsafe.Invisible(r) || r == '\u2028' || r == '\u2029'
}

// showInvisible writes each invisible character as <U+XXXX>, so that a
// host written with one does not read, once sanitized, like the plain name.
func showInvisible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isInvisible(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hasControl reports C0 and C1 controls and DEL.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return true
		}
	}
	return false
}

func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// escapeOdd percent-encodes every byte that is not printable ASCII, and
// the few printable ones a terminal or a person could misread.
func escapeOdd(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '`' || c == '\\' {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// plainHostname allows what hosts in the wild use beyond strict DNS rules:
// letters, digits, hyphens, dots and underscores.
func plainHostname(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return s != ""
}

// parseIPv4 reads a host the way browsers do (WHATWG URL "IPv4 parser"):
// when its last label is a number, the host is an IPv4 address, and each
// part may be decimal, octal (leading 0) or hex (0x); fewer than four
// parts fill the last one's remaining bytes. So 3232235521, 0xC0A80001 and
// 0300.0250.0.1 all mean 192.168.0.1.
func parseIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	if _, ok := ipNumber(parts[len(parts)-1]); !ok {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		n, ok := ipNumber(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func ipNumber(s string) (uint64, bool) {
	base := 10
	switch {
	case s == "":
		return 0, false
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
		if s == "" {
			return 0, true
		}
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil || n > 1<<32 {
		return 0, false
	}
	return n, true
}

// mixedScripts names the scripts a host mixes, "Cyrillic and Latin", or ""
// when it keeps to one script or to a usual combination (Han with kana,
// Hangul or Bopomofo; any of those with Latin).
func mixedScripts(host string) string {
	seen := map[string]bool{}
	for _, r := range host {
		if !unicode.IsLetter(r) {
			continue
		}
		seen[scriptOf(r)] = true
	}
	delete(seen, "")
	if len(seen) <= 1 {
		return ""
	}
	for _, ok := range [][]string{
		{"Latin", "Han", "Hiragana", "Katakana"},
		{"Latin", "Han", "Bopomofo"},
		{"Latin", "Han", "Hangul"},
	} {
		if subset(seen, ok) {
			return ""
		}
	}
	names := make([]string, 0, len(seen))
	for s := range seen {
		names = append(names, s)
	}
	sort.Strings(names)
	if len(names) == 2 {
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func subset(set map[string]bool, allowed []string) bool {
	for s := range set {
		found := false
		for _, a := range allowed {
			if s == a {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// commonScripts are tried first: nearly every host letter is in one.
var commonScripts = []string{"Latin", "Cyrillic", "Greek", "Han", "Hiragana", "Katakana", "Hangul", "Arabic", "Hebrew", "Armenian", "Georgian", "Cherokee"}

func scriptOf(r rune) string {
	for _, name := range commonScripts {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	for name, table := range unicode.Scripts {
		if name == "Common" || name == "Inherited" {
			continue
		}
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

func shortened(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf("… (%s more characters)", thousands(len(r)-n))
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
