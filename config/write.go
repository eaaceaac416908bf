package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/mcpcli/mcpcli/internal/safefile"
)

// Add writes a server into mcpcli's own file, creating the file and its
// directories (0700) when needed; the file is written 0600, even when it
// was readable by others before. Everything else in the file stays:
// other keys, other servers, their order, and fields mcpcli does not know.
// A name already in the file is an ExistsError unless replace is set; a
// replaced entry keeps the fields mcpcli does not know. The entry is
// written as given, before expansion, so ${VAR} stays ${VAR}. The file is
// read afresh, not taken from the Config, and written atomically.
func (c *Config) Add(name string, e Entry, replace bool) error {
	if err := CheckName(name); err != nil {
		return err
	}
	v := entryValue(e, nil)
	if _, ferr := decodeEntry(v); ferr != nil {
		return fmt.Errorf("server %s: %s", quote(name), ferr.msg)
	}
	return c.editUserFile(true, func(path string, servers *value) error {
		for i, m := range servers.members {
			if m.key == name {
				if !replace {
					return &ExistsError{Name: name, File: path}
				}
				servers.members[i].val = entryValue(e, m.val)
				return nil
			}
		}
		servers.members = append(servers.members, member{key: name, keyOff: -1, val: v})
		return nil
	})
}

var errNotInFile = errors.New("not in mcpcli's file")

// Remove deletes a server from mcpcli's own file, keeping everything else.
// A name that only other tools' files define is a ReadOnlyError naming the
// file; a name nobody defines is a NotFoundError.
func (c *Config) Remove(name string) error {
	err := c.editUserFile(false, func(_ string, servers *value) error {
		i := slices.IndexFunc(servers.members, func(m member) bool { return m.key == name })
		if i < 0 {
			return errNotInFile
		}
		servers.members = slices.Delete(servers.members, i, i+1)
		return nil
	})
	if !errors.Is(err, errNotInFile) {
		return err
	}
	for _, s := range c.sources {
		if s.Kind == KindMcpcli {
			continue
		}
		c.load(s)
		if _, ok := s.entries[name]; ok {
			return &ReadOnlyError{Name: name, Source: s.Source, UserFile: c.userFile}
		}
	}
	return c.notFound(name)
}

// editUserFile reads mcpcli's file, lets edit change its "mcpServers", and
// writes it back atomically. Without create, a missing file is errNotInFile.
func (c *Config) editUserFile(create bool, edit func(path string, servers *value) error) error {
	path := c.userFile
	// A dotfiles manager may have made it a symlink: write where it points.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	root := &value{kind: kObject, members: []member{}, off: -1}
	data, err := readFileBounded(path, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !create {
			return errNotInFile
		}
	case err != nil:
		return &Error{File: path, Msg: "cannot be read: " + oneLine(err), Err: err}
	default:
		d, serr := parseJSON(data, false)
		if serr != nil {
			line, col := d.pos(serr.off)
			return &Error{File: path, Line: line, Col: col, Msg: serr.msg + "; mcpcli rewrites only a file it can read: fix it first"}
		}
		if d.root != nil {
			root = d.root
		}
		if root.kind != kObject {
			line, col := d.pos(root.off)
			return &Error{File: path, Line: line, Col: col, Msg: fmt.Sprintf("must hold a JSON object, like {\"mcpServers\": {...}}, not %s; fix it first", root.kind)}
		}
		if m, ok := firstDuplicate(root); ok {
			line, col := d.pos(m.keyOff)
			return &Error{File: path, Line: line, Col: col, Msg: fmt.Sprintf("the key %s appears twice in one object; mcpcli will not rewrite a file that means two things: keep one", quote(m.key))}
		}
	}
	i := slices.IndexFunc(root.members, func(m member) bool { return m.key == "mcpServers" })
	var servers *value
	switch {
	case i < 0:
		servers = &value{kind: kObject, members: []member{}, off: -1}
		root.members = append(root.members, member{key: "mcpServers", keyOff: -1, val: servers})
	case root.members[i].val.kind == kNull:
		servers = &value{kind: kObject, members: []member{}, off: -1}
		root.members[i].val = servers
	case root.members[i].val.kind != kObject:
		return &Error{File: path, Msg: fmt.Sprintf("\"mcpServers\" must be an object, not %s; fix it first", root.members[i].val.kind)}
	default:
		servers = root.members[i].val
	}
	if err := edit(path, servers); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create the directory for %s: %s", showPath(path), oneLine(err))
	}
	// Always private: what it writes may be a secret (a header, an
	// environment variable), whatever mode the file had before.
	if err := safefile.Replace(path, encode(root), 0o600); err != nil {
		return fmt.Errorf("cannot write %s: %s", showPath(path), oneLine(err))
	}
	return nil
}

// firstDuplicate finds a key that appears twice in one object, anywhere.
func firstDuplicate(v *value) (member, bool) {
	switch v.kind {
	case kObject:
		seen := make(map[string]bool, len(v.members))
		for _, m := range v.members {
			if seen[m.key] {
				return m, true
			}
			seen[m.key] = true
		}
		for _, m := range v.members {
			if d, ok := firstDuplicate(m.val); ok {
				return d, true
			}
		}
	case kArray:
		for _, e := range v.elems {
			if d, ok := firstDuplicate(e); ok {
				return d, true
			}
		}
	}
	return member{}, false
}

// entryValue is e as JSON, in a fixed order of fields, followed by the
// fields of old (a replaced entry) that mcpcli does not read.
func entryValue(e Entry, old *value) *value {
	obj := &value{kind: kObject, members: []member{}, off: -1}
	add := func(k string, v *value) { obj.members = append(obj.members, member{key: k, keyOff: -1, val: v}) }
	str := func(s string) *value { return &value{kind: kString, str: s, off: -1} }
	strs := func(ss []string) *value {
		a := &value{kind: kArray, elems: []*value{}, off: -1}
		for _, s := range ss {
			a.elems = append(a.elems, str(s))
		}
		return a
	}
	strMap := func(m map[string]string, null []string) *value {
		o := &value{kind: kObject, members: []member{}, off: -1}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			o.members = append(o.members, member{key: k, keyOff: -1, val: str(m[k])})
		}
		for _, k := range null {
			o.members = append(o.members, member{key: k, keyOff: -1, val: &value{kind: kNull, off: -1}})
		}
		return o
	}
	typ := e.Type
	if typ == "" {
		typ = HTTP
		if e.Command != "" {
			typ = Stdio
		}
	}
	add("type", str(string(typ)))
	if e.Command != "" {
		add("command", str(e.Command))
	}
	if len(e.Args) > 0 {
		add("args", strs(e.Args))
	}
	if len(e.Env) > 0 || len(e.UnsetEnv) > 0 {
		add("env", strMap(e.Env, e.UnsetEnv))
	}
	if e.EnvFile != "" {
		add("envFile", str(e.EnvFile))
	}
	if e.Cwd != "" {
		add("cwd", str(e.Cwd))
	}
	if e.URL != "" {
		add("url", str(e.URL))
	}
	if len(e.Headers) > 0 {
		add("headers", strMap(e.Headers, nil))
	}
	if o := e.OAuth; o != nil {
		ov := &value{kind: kObject, members: []member{}, off: -1}
		set := func(k, s string) {
			if s != "" {
				ov.members = append(ov.members, member{key: k, keyOff: -1, val: str(s)})
			}
		}
		set("clientId", o.ClientID)
		set("clientSecretEnv", o.ClientSecretEnv)
		set("clientMetadataUrl", o.ClientMetadataURL)
		if len(o.Scopes) > 0 {
			ov.members = append(ov.members, member{key: "scopes", keyOff: -1, val: strs(o.Scopes)})
		}
		if o.CallbackPort != 0 {
			ov.members = append(ov.members, member{key: "callbackPort", keyOff: -1, val: &value{kind: kNumber, str: strconv.Itoa(o.CallbackPort), off: -1}})
		}
		set("authServerMetadataUrl", o.AuthServerMetadataURL)
		add("oauth", ov)
	}
	if old != nil && old.kind == kObject {
		for _, m := range old.members {
			if !slices.Contains(entryFields, m.key) {
				obj.members = append(obj.members, m)
			}
		}
	}
	return obj
}
