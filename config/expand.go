package config

import (
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Input is a VS Code input variable that a value needs, ${input:ID}, as the
// file's "inputs" defines it.
type Input struct {
	ID          string
	Description string // what to ask, from the file: sanitize it before showing it
	Password    bool   // the answer is secret: do not echo it
	Default     string // the answer when the user gives none
	Server      string // the server being resolved, for context
	File        string // the file that defines the input
}

// expander expands the values of one server of one source.
type expander struct {
	c      *Config
	s      *source
	server string
	depth  int // of defaults being expanded
}

// maxNesting bounds ${A:-${B:-...}}, so a hostile value cannot recurse
// without end.
const maxNesting = 16

func (x *expander) fail(format string, args ...any) *Error {
	return &Error{File: x.s.Path, Server: x.server, Msg: fmt.Sprintf(format, args...)}
}

// expand replaces every ${...} in the value of field.
func (x *expander) expand(field, in string) (string, error) {
	if !strings.Contains(in, "$") {
		return in, nil
	}
	var b strings.Builder
	for i := 0; i < len(in); {
		switch {
		case strings.HasPrefix(in[i:], "$${"):
			b.WriteString("${")
			i += 3
		case strings.HasPrefix(in[i:], "${"):
			end := closingBrace(in, i+2)
			if end < 0 {
				return "", x.fail("%s: %s opens ${ and never closes it with }; write $${ for a literal ${", field, quote(in))
			}
			v, err := x.variable(field, in[i+2:end])
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = end + 1
		default:
			b.WriteByte(in[i])
			i++
		}
	}
	return b.String(), nil
}

// closingBrace is the index of the } that closes a ${ whose body starts at
// from, counting nested ${ ... }, or -1.
func closingBrace(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			i += 2
		case strings.HasPrefix(s[i:], "${"):
			depth++
			i++
		case s[i] == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// variable is the value of one ${body}.
func (x *expander) variable(field, body string) (string, error) {
	o := x.c.opts
	switch body {
	case "workspaceFolder":
		return x.s.workspace, nil
	case "workspaceFolderBasename":
		return filepath.Base(x.s.workspace), nil
	case "userHome":
		return o.Home, nil
	case "pathSeparator", "/":
		if o.OS == "windows" {
			return `\`, nil
		}
		return "/", nil
	}
	prefix := ""
	rest := body
	if p, r, ok := strings.Cut(body, ":"); ok && (p == "env" || p == "input") {
		prefix, rest = p+":", r
	}
	if prefix == "input:" {
		return x.input(rest)
	}
	name, def, hasDef := strings.Cut(rest, ":-")
	if !goodVarName(name) {
		if p, _, ok := strings.Cut(name, ":"); ok && goodVarName(p) {
			return "", x.fail("%s: ${%s:...} is not something mcpcli expands; it knows ${VAR}, ${VAR:-default}, ${env:VAR}, ${input:ID}, ${workspaceFolder} and ${userHome}", field, p)
		}
		return "", x.fail("%s: %s is not a variable name; write ${NAME} or ${NAME:-default}, and $${ for a literal ${", field, quote("${"+body+"}"))
	}
	if v, ok := o.LookupEnv(name); ok && (v != "" || !hasDef) {
		return v, nil
	}
	if hasDef {
		if x.depth >= maxNesting {
			return "", x.fail("%s: defaults are nested more than %d deep", field, maxNesting)
		}
		x.depth++
		defer func() { x.depth-- }()
		return x.expand(field, def)
	}
	if prefix == "env:" {
		return "", x.fail("${env:%s} is not set; export it or give a default with ${env:%s:-value}", name, name)
	}
	return "", x.fail("${%s} is not set; export it or give a default with ${%s:-value}", name, name)
}

// goodVarName accepts what an environment variable can be called here:
// anything but whitespace, controls, invisible characters, braces, $ and :.
func goodVarName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if unicode.IsSpace(r) || unsafeRune(r) || r == utf8.RuneError || strings.ContainsRune("{}$:", r) {
			return false
		}
	}
	return true
}

// input answers ${input:ID}: once per file and ID for the Config's life.
func (x *expander) input(id string) (string, error) {
	key := answerKey{x.s.Path, id}
	if v, ok := x.c.answers[key]; ok {
		return v, nil
	}
	in, err := x.findInput(id)
	if err != nil {
		return "", err
	}
	if x.c.opts.Ask == nil {
		return "", x.fail("${input:%s} must be asked for, and mcpcli cannot ask here; set the value in the file, or use ${env:NAME} instead", id)
	}
	v, aerr := x.c.opts.Ask(in)
	if aerr != nil {
		e := x.fail("asking for ${input:%s}: %s", id, oneLine(aerr))
		e.Err = aerr
		return "", e
	}
	x.c.answers[key] = v
	return v, nil
}

// findInput finds id in the file's "inputs".
func (x *expander) findInput(id string) (Input, error) {
	s := x.s
	if !goodVarName(id) {
		return Input{}, x.fail("%s is not an input ID", quote("${input:"+id+"}"))
	}
	if s.Kind != KindVSCode && s.Kind != KindExplicit {
		return Input{}, x.fail("${input:%s} is a VS Code input, and only .vscode/mcp.json or a --config file can define inputs; use ${NAME} with an environment variable instead", id)
	}
	if s.inputs == nil || s.inputs.kind == kNull {
		return Input{}, x.fail("${input:%s} is used, but the file has no \"inputs\" to define it; add {\"id\": %q, \"type\": \"promptString\", \"description\": ...} to \"inputs\"", id, id)
	}
	if s.inputs.kind != kArray {
		return Input{}, s.errAt(x.server, s.inputs.off, "\"inputs\" must be an array, not %s", s.inputs.kind)
	}
	var found *value
	for _, v := range s.inputs.elems {
		if v.kind != kObject {
			continue
		}
		if f, _ := v.get("id"); f != nil && f.kind == kString && f.str == id {
			if found != nil {
				return Input{}, s.errAt(x.server, v.off, "\"inputs\" defines %s twice; keep one", quote(id))
			}
			found = v
		}
	}
	if found == nil {
		return Input{}, x.fail("${input:%s} is not defined in the file's \"inputs\"; add {\"id\": %q, \"type\": \"promptString\", \"description\": ...}", id, id)
	}
	if err := noDuplicates(found, "inputs"); err != nil {
		return Input{}, s.errAt(x.server, err.off, "%s", err.msg)
	}
	in := Input{ID: id, Server: x.server, File: s.Path}
	for _, m := range found.members {
		v := m.val
		var dst *string
		switch m.key {
		case "type":
			if v.kind != kString || (v.str != "promptString" && v.str != "") {
				what := v.kind.String()
				if v.kind == kString {
					what = quote(v.str)
				}
				return Input{}, s.errAt(x.server, v.off, "input %s has \"type\" %s; mcpcli only asks \"promptString\" inputs", quote(id), what)
			}
			continue
		case "description":
			dst = &in.Description
		case "default":
			dst = &in.Default
		case "password":
			if v.kind != kBool {
				return Input{}, s.errAt(x.server, v.off, "input %s: \"password\" must be true or false, not %s", quote(id), v.kind)
			}
			in.Password = v.boolean
			continue
		default:
			continue
		}
		if v.kind != kString {
			return Input{}, s.errAt(x.server, v.off, "input %s: %q must be a string, not %s", quote(id), m.key, v.kind)
		}
		*dst = v.str
	}
	return in, nil
}

// abs makes a path from a file relative to its workspace folder.
func (x *expander) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(x.s.workspace, p)
}

// resolve expands a decoded entry into a Server.
func (c *Config) resolve(s *source, name string, e Entry) (*Server, error) {
	x := &expander{c: c, s: s, server: name}
	srv := &Server{Name: name, Source: s.Source, Transport: e.Type}
	var err error
	ex := func(field, in string) string {
		if err != nil {
			return ""
		}
		out, xerr := x.expand(field, in)
		if xerr != nil {
			err = xerr
		}
		return out
	}
	if e.Type == Stdio {
		srv.Command = ex(`"command"`, e.Command)
		for i, a := range e.Args {
			srv.Args = append(srv.Args, ex(fmt.Sprintf(`"args"[%d]`, i), a))
		}
		srv.Env = map[string]string{}
		if e.EnvFile != "" {
			path := x.abs(ex(`"envFile"`, e.EnvFile))
			if err != nil {
				return nil, err
			}
			vars, ferr := readEnvFile(path)
			if ferr != nil {
				e := x.fail("\"envFile\": %s", ferr.Error())
				e.Err = ferr
				return nil, e
			}
			maps.Copy(srv.Env, vars)
		}
		for _, k := range slices.Sorted(maps.Keys(e.Env)) {
			srv.Env[k] = ex(fmt.Sprintf(`"env" value for %s`, quote(k)), e.Env[k])
		}
		for _, k := range e.UnsetEnv {
			delete(srv.Env, k)
		}
		srv.UnsetEnv = slices.Clone(e.UnsetEnv)
		srv.Cwd = x.abs(ex(`"cwd"`, e.Cwd))
		if err != nil {
			return nil, err
		}
		if srv.Command == "" {
			return nil, x.fail("\"command\" %s is empty once expanded; give the program to start", quote(e.Command))
		}
		return srv, nil
	}
	srv.URL = ex(`"url"`, e.URL)
	if e.Headers != nil {
		srv.Headers = map[string]string{}
		for _, k := range slices.Sorted(maps.Keys(e.Headers)) {
			v := ex(fmt.Sprintf(`"headers" value for %s`, quote(k)), e.Headers[k])
			if err == nil && strings.ContainsAny(v, "\r\n\x00") {
				return nil, x.fail("\"headers\" value for %s holds a line break or NUL once expanded; a header value must be one line", quote(k))
			}
			srv.Headers[k] = v
		}
	}
	if err != nil {
		return nil, err
	}
	if u, perr := url.Parse(srv.URL); perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, x.fail("\"url\" %s must be a URL that starts with http:// or https:// and names a host", quote(srv.URL))
	}
	if e.OAuth != nil {
		o := *e.OAuth
		o.Scopes = slices.Clone(o.Scopes)
		if o.ClientSecretEnv != "" {
			v, ok := c.opts.LookupEnv(o.ClientSecretEnv)
			if !ok || v == "" {
				return nil, x.fail("\"oauth\".\"clientSecretEnv\" names %s, which is not set; export it with the client secret", quote(o.ClientSecretEnv))
			}
			o.ClientSecret = v
		}
		srv.OAuth = &o
	}
	return srv, nil
}
