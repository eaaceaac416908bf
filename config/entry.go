package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Transport is how mcpcli talks to a server.
type Transport string

const (
	Stdio Transport = "stdio" // a command, over its stdin and stdout
	HTTP  Transport = "http"  // Streamable HTTP
	SSE   Transport = "sse"   // the older HTTP+SSE transport
)

// parseTransport reads a "type": stdio, http, sse, and the spellings other
// tools use for Streamable HTTP (streamableHttp, streamable-http).
func parseTransport(s string) (Transport, bool) {
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s)) {
	case "stdio":
		return Stdio, true
	case "http", "streamablehttp":
		return HTTP, true
	case "sse":
		return SSE, true
	}
	return "", false
}

// Entry is one server as a file defines it, before expansion: strings may
// still hold ${...}.
type Entry struct {
	Type     Transport         // inferred when the file has no "type": command means stdio, url means http
	Command  string            // stdio
	Args     []string          // stdio
	Env      map[string]string // stdio; numbers are kept as written
	UnsetEnv []string          // stdio: VS Code's "env": {"NAME": null}, which removes NAME
	EnvFile  string            // stdio: a dotenv file read for more variables; env wins over it
	Cwd      string            // stdio: the working directory
	URL      string            // http, sse ("url", or "serverUrl")
	Headers  map[string]string // http, sse
	OAuth    *OAuth            // http, sse
}

// OAuth is how to sign in to a remote server, for the OAuth code.
type OAuth struct {
	ClientID string // a client registered in advance, instead of dynamic registration
	// ClientSecretEnv names the environment variable holding the client's
	// secret; the secret itself is never written in a config file.
	ClientSecretEnv string
	// ClientSecret is the value of ClientSecretEnv, filled in by
	// Config.Server; it is never read from nor written to a file.
	ClientSecret string
	// ClientMetadataURL is the client ID metadata document to use as the
	// client ID (the URL-as-client-ID scheme).
	ClientMetadataURL string
	Scopes            []string // the scopes to ask for; empty means the server's
	// CallbackPort fixes the loopback port of the redirect URI (Claude
	// Code's "callbackPort"); 0 means any free port.
	CallbackPort int
	// AuthServerMetadataURL skips discovery of the authorization server
	// (Claude Code's "authServerMetadataUrl").
	AuthServerMetadataURL string
}

// Target is the command line (each word quoted when it needs it) or the
// URL, as written: for a listing, and for the person to read before they
// trust a file. It comes from a file: sanitize it before printing it.
func (e Entry) Target() string {
	if e.Type != Stdio {
		return e.URL
	}
	words := make([]string, 0, 1+len(e.Args))
	for _, w := range append([]string{e.Command}, e.Args...) {
		if w == "" || strings.ContainsAny(w, " \t\n\"'\\") {
			w = strconv.Quote(w)
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// strings are every value of e that is expanded.
func (e Entry) strings() []string {
	out := append([]string{e.Command, e.EnvFile, e.Cwd, e.URL}, e.Args...)
	for _, k := range slices.Sorted(maps.Keys(e.Env)) {
		out = append(out, e.Env[k])
	}
	for _, k := range slices.Sorted(maps.Keys(e.Headers)) {
		out = append(out, e.Headers[k])
	}
	return out
}

// entryFields are the fields mcpcli reads in an entry; any other field is
// another tool's business (disabled, autoApprove...) and is ignored, and
// kept when mcpcli rewrites its own file.
var entryFields = []string{"type", "command", "args", "env", "envFile", "cwd", "url", "serverUrl", "headers", "oauth"}

// fieldError is a problem at a byte offset; off < 0 means no place.
type fieldError struct {
	off int
	msg string
}

func fieldErrorf(v *value, format string, args ...any) *fieldError {
	off := -1
	if v != nil {
		off = v.off
	}
	return &fieldError{off, fmt.Sprintf(format, args...)}
}

// decodeEntry reads one server's definition.
func decodeEntry(v *value) (Entry, *fieldError) {
	var e Entry
	if v.kind != kObject {
		return e, fieldErrorf(v, "must be an object like {\"command\": ...} or {\"url\": ...}, not %s", v.kind)
	}
	if err := noDuplicates(v, ""); err != nil {
		return e, err
	}
	str := func(key string, dst *string) *fieldError {
		f, _ := v.get(key)
		if f == nil || f.kind == kNull {
			return nil
		}
		if f.kind != kString {
			return fieldErrorf(f, "%q must be a string, not %s", key, f.kind)
		}
		*dst = f.str
		return nil
	}
	var typ, serverURL string
	for _, s := range []struct {
		key string
		dst *string
	}{{"type", &typ}, {"command", &e.Command}, {"envFile", &e.EnvFile}, {"cwd", &e.Cwd}, {"url", &e.URL}, {"serverUrl", &serverURL}} {
		if err := str(s.key, s.dst); err != nil {
			return e, err
		}
	}
	if f, _ := v.get("args"); f != nil && f.kind != kNull {
		if f.kind != kArray {
			return e, fieldErrorf(f, "\"args\" must be an array of strings, not %s", f.kind)
		}
		e.Args = make([]string, len(f.elems))
		for i, a := range f.elems {
			if a.kind != kString {
				return e, fieldErrorf(a, "\"args\" must be an array of strings; \"args\"[%d] is %s", i, a.kind)
			}
			e.Args[i] = a.str
		}
	}
	var err *fieldError
	if e.Env, e.UnsetEnv, err = stringMap(v, "env", true); err != nil {
		return e, err
	}
	if e.Headers, _, err = stringMap(v, "headers", false); err != nil {
		return e, err
	}
	if f, _ := v.get("oauth"); f != nil && f.kind != kNull {
		if e.OAuth, err = decodeOAuth(f); err != nil {
			return e, err
		}
	}

	urlKey := "url"
	if serverURL != "" {
		if e.URL != "" {
			f, _ := v.get("serverUrl")
			return e, fieldErrorf(f, "has both \"url\" and \"serverUrl\"; keep one")
		}
		e.URL, urlKey = serverURL, "serverUrl"
	}
	at := func(key string) *value { f, _ := v.get(key); return f }
	switch {
	case e.Command != "" && e.URL != "":
		return e, fieldErrorf(at(urlKey), "has both \"command\" and %q; a server is either a command to start (stdio) or a URL (http, sse): remove one", urlKey)
	case e.Command == "" && e.URL == "":
		if f := at("command"); f != nil && f.kind == kString {
			return e, fieldErrorf(f, "\"command\" is empty; give the program to start")
		}
		if f := at(urlKey); f != nil && f.kind == kString {
			return e, fieldErrorf(f, "%q is empty; give the server's URL", urlKey)
		}
		return e, fieldErrorf(v, "has neither \"command\" nor \"url\"; give a command to start (stdio) or the URL of a remote server (http, sse)")
	}
	if typ == "" {
		e.Type = HTTP
		if e.Command != "" {
			e.Type = Stdio
		}
	} else {
		t, ok := parseTransport(typ)
		if !ok {
			return e, fieldErrorf(at("type"), "\"type\" %s is not one mcpcli speaks: use \"stdio\", \"http\" (Streamable HTTP) or \"sse\"", quote(typ))
		}
		e.Type = t
	}
	if e.Type == Stdio && e.Command == "" {
		return e, fieldErrorf(at("type"), "\"type\" is %q but the entry has %q, not \"command\"; make it \"http\" or \"sse\", or give a command", typ, urlKey)
	}
	if e.Type != Stdio && e.URL == "" {
		return e, fieldErrorf(at("type"), "\"type\" is %q but the entry has \"command\", not \"url\"; make it \"stdio\", or give a URL", typ)
	}
	if e.Type == Stdio {
		if len(e.Headers) > 0 {
			return e, fieldErrorf(at("headers"), "\"headers\" apply to http and sse servers; this one is a command (stdio): use \"env\"")
		}
		if e.OAuth != nil {
			return e, fieldErrorf(at("oauth"), "\"oauth\" applies to http and sse servers; this one is a command (stdio)")
		}
	} else {
		for _, k := range []string{"args", "env", "envFile", "cwd"} {
			f := at(k)
			empty := f == nil || f.kind == kNull || (f.kind == kString && f.str == "") || (f.kind == kArray && len(f.elems) == 0) || (f.kind == kObject && len(f.members) == 0)
			if !empty {
				return e, fieldErrorf(f, "%q applies to servers started from a command (stdio); this one is a URL (%s)", k, e.Type)
			}
		}
	}
	return e, nil
}

// noDuplicates reports a key that appears twice in obj.
func noDuplicates(obj *value, within string) *fieldError {
	seen := make(map[string]bool, len(obj.members))
	for _, m := range obj.members {
		if seen[m.key] {
			where := ""
			if within != "" {
				where = " in " + strconv.Quote(within)
			}
			return &fieldError{m.keyOff, fmt.Sprintf("the key %s appears twice%s; keep one, so the file means one thing", quote(m.key), where)}
		}
		seen[m.key] = true
	}
	return nil
}

// stringMap reads "env" or "headers": an object of strings. For env, a
// number is taken as written and null (VS Code's way to remove a variable)
// goes to unset.
func stringMap(v *value, key string, isEnv bool) (map[string]string, []string, *fieldError) {
	f, _ := v.get(key)
	if f == nil || f.kind == kNull {
		return nil, nil, nil
	}
	if f.kind != kObject {
		return nil, nil, fieldErrorf(f, "%q must be an object of strings, like {\"NAME\": \"value\"}, not %s", key, f.kind)
	}
	if err := noDuplicates(f, key); err != nil {
		return nil, nil, err
	}
	m := make(map[string]string, len(f.members))
	var unset []string
	for _, mem := range f.members {
		if isEnv {
			if mem.key == "" || strings.ContainsAny(mem.key, "=\x00") {
				return nil, nil, &fieldError{mem.keyOff, fmt.Sprintf("\"env\" has the variable name %s; a name cannot be empty or hold = or NUL", quote(mem.key))}
			}
		} else if !validHeaderName(mem.key) {
			return nil, nil, &fieldError{mem.keyOff, fmt.Sprintf("\"headers\" has %s, which is not a valid header name", quote(mem.key))}
		}
		switch {
		case mem.val.kind == kString:
			m[mem.key] = mem.val.str
		case isEnv && mem.val.kind == kNumber:
			m[mem.key] = mem.val.str
		case isEnv && mem.val.kind == kNull:
			unset = append(unset, mem.key)
		default:
			return nil, nil, fieldErrorf(mem.val, "%q value for %s must be a string, not %s", key, quote(mem.key), mem.val.kind)
		}
	}
	slices.Sort(unset)
	return m, unset, nil
}

// validHeaderName reports an HTTP header field name (an RFC 9110 token).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range []byte(name) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return true
}

// oauthFields are the keys of "oauth" mcpcli knows.
var oauthFields = []string{"clientId", "clientSecretEnv", "clientMetadataUrl", "scopes", "callbackPort", "authServerMetadataUrl"}

func decodeOAuth(f *value) (*OAuth, *fieldError) {
	if f.kind != kObject {
		return nil, fieldErrorf(f, "\"oauth\" must be an object, not %s", f.kind)
	}
	if err := noDuplicates(f, "oauth"); err != nil {
		return nil, err
	}
	o := &OAuth{}
	for _, m := range f.members {
		v := m.val
		if v.kind == kNull {
			continue
		}
		var dst *string
		switch m.key {
		case "clientId":
			dst = &o.ClientID
		case "clientSecretEnv":
			dst = &o.ClientSecretEnv
		case "clientMetadataUrl":
			dst = &o.ClientMetadataURL
		case "authServerMetadataUrl":
			dst = &o.AuthServerMetadataURL
		case "scopes":
			switch v.kind {
			case kString: // Claude Code writes one space-separated string
				o.Scopes = strings.Fields(v.str)
			case kArray:
				for i, s := range v.elems {
					if s.kind != kString {
						return nil, fieldErrorf(s, "\"oauth\".\"scopes\"[%d] must be a string, not %s", i, s.kind)
					}
					o.Scopes = append(o.Scopes, s.str)
				}
			default:
				return nil, fieldErrorf(v, "\"oauth\".\"scopes\" must be an array of strings, not %s", v.kind)
			}
			continue
		case "callbackPort":
			port, err := strconv.Atoi(v.str)
			if v.kind != kNumber || err != nil || port < 1 || port > 65535 {
				return nil, fieldErrorf(v, "\"oauth\".\"callbackPort\" must be a port number from 1 to 65535")
			}
			o.CallbackPort = port
			continue
		case "clientSecret":
			return nil, &fieldError{m.keyOff, "\"oauth\".\"clientSecret\" is not read from a file: put the secret in an environment variable and name it with \"clientSecretEnv\""}
		default:
			return nil, &fieldError{m.keyOff, fmt.Sprintf("\"oauth\" has the unknown key %s; mcpcli knows %s", quote(m.key), strings.Join(oauthFields, ", "))}
		}
		if v.kind != kString {
			return nil, fieldErrorf(v, "\"oauth\".%q must be a string, not %s", m.key, v.kind)
		}
		*dst = v.str
	}
	if o.ClientSecretEnv != "" && o.ClientID == "" {
		return nil, fieldErrorf(f, "\"oauth\" has \"clientSecretEnv\" but no \"clientId\"; a secret belongs to a client ID")
	}
	return o, nil
}

// Server is one named server ready to start or connect to: every value
// expanded, its envFile read, relative paths made absolute.
type Server struct {
	Name      string
	Source    Source
	Transport Transport
	Command   string            // stdio
	Args      []string          // stdio
	Env       map[string]string // stdio: envFile's variables, then env's over them
	UnsetEnv  []string          // stdio: variables to remove from mcpcli's own environment
	Cwd       string            // stdio: "" for mcpcli's working directory
	URL       string            // http, sse
	Headers   map[string]string // http, sse
	OAuth     *OAuth            // http, sse; nil when the file says nothing of OAuth
	// Trust is where its file stands: TrustOwn for the person's own files
	// and --config, else Trusted or TrustedForRun.
	Trust TrustState
	// Others are the other definitions of the name, which do not run,
	// in order of precedence: the person is to be told which one runs.
	Others []Other
}

// Argv is the command and its arguments.
func (s *Server) Argv() []string { return append([]string{s.Command}, s.Args...) }

// Environ is Env as NAME=value pairs, sorted by name.
func (s *Server) Environ() []string {
	out := make([]string, 0, len(s.Env))
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		out = append(out, k+"="+s.Env[k])
	}
	return out
}
