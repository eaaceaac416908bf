package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Kind says which tool a file belongs to, and so its shape.
type Kind string

const (
	KindExplicit      Kind = "config"              // the file given with --config
	KindClaudeProject Kind = "claude-code-project" // .mcp.json
	KindVSCode        Kind = "vscode"              // .vscode/mcp.json
	KindCursorProject Kind = "cursor-project"      // .cursor/mcp.json
	KindMcpcli        Kind = "mcpcli"              // mcpcli's own servers.json
	KindClaudeDesktop Kind = "claude-desktop"      // claude_desktop_config.json
	KindClaudeLocal   Kind = "claude-code-local"   // ~/.claude.json, projects[<dir>].mcpServers
	KindClaudeUser    Kind = "claude-code-user"    // ~/.claude.json, mcpServers
	KindCursorUser    Kind = "cursor-user"         // ~/.cursor/mcp.json
)

// Title describes the kind of file in a few words.
func (k Kind) Title() string {
	switch k {
	case KindExplicit:
		return "the file given with --config"
	case KindClaudeProject:
		return "Claude Code's project file"
	case KindVSCode:
		return "VS Code's workspace file"
	case KindCursorProject:
		return "Cursor's project file"
	case KindMcpcli:
		return "mcpcli's own file"
	case KindClaudeDesktop:
		return "Claude Desktop's config"
	case KindClaudeLocal:
		return "Claude Code's servers for this directory"
	case KindClaudeUser:
		return "Claude Code's user servers"
	case KindCursorUser:
		return "Cursor's user file"
	}
	return string(k)
}

// Tool names the program that edits a kind of file.
func (k Kind) Tool() string {
	switch k {
	case KindClaudeProject, KindClaudeLocal, KindClaudeUser:
		return "Claude Code (claude mcp remove)"
	case KindVSCode:
		return "VS Code"
	case KindCursorProject, KindCursorUser:
		return "Cursor"
	case KindClaudeDesktop:
		return "Claude Desktop"
	case KindMcpcli:
		return "mcpcli"
	}
	return "your editor"
}

// Source is one place servers are defined: a file and, for Claude Code's
// local scope, the project key inside it.
type Source struct {
	Kind    Kind
	Path    string
	Project string // KindClaudeLocal only: the key under "projects"
}

func (s Source) String() string {
	if s.Kind == KindClaudeLocal {
		return fmt.Sprintf("%s (projects[%s])", showPath(s.Path), quote(s.Project))
	}
	return showPath(s.Path)
}

// Writable reports whether mcpcli edits this source: only its own file.
func (s Source) Writable() bool { return s.Kind == KindMcpcli }

// Options is what the package needs from the machine. Nothing is read from
// the process itself, so tests can build a fake home.
type Options struct {
	OS        string                          // runtime.GOOS: "linux", "darwin", "windows"...
	Home      string                          // the user's home directory
	Dir       string                          // the working directory, where the upward search starts
	LookupEnv func(key string) (string, bool) // the environment, for ${VAR} and for XDG_CONFIG_HOME, APPDATA, CLAUDE_CONFIG_DIR
	File      string                          // --config FILE: read before every other source; "" for none
	Ask       func(in Input) (string, error)  // answers ${input:ID}; nil when nobody can be asked
	// Owner, when set, is asked about each project file found by the
	// upward search before it is read: those files can come from anywhere
	// above the working directory, and a /tmp/.mcp.json another user left
	// there must not even be read. An error skips the file; List reports
	// it. It is asked about the file opened, and about a symbolic link
	// too. SystemOptions sets it to accept only files owned by the user
	// running mcpcli, or by root (on Unix).
	Owner func(path string, info fs.FileInfo) error

	// Trusted remembers the project files the person trusted, each with
	// the SHA-256 of its content then (see TrustStore). nil remembers
	// nothing.
	Trusted *TrustStore
	// TrustProject trusts every project file for this Config's life, as
	// it is, without asking and without remembering (--trust-project).
	TrustProject bool
	// Approve asks the person whether to trust a project file, before
	// any server it defines is started, asked for inputs or expanded. It
	// says yes or no; yes is remembered in Trusted. nil means nobody can
	// be asked: a server only an untrusted project file defines is then
	// an *UntrustedError.
	Approve func(ask TrustAsk) (bool, error)
	// Now is the clock for when trust was given; nil means time.Now.
	Now func() time.Time
}

// SystemOptions fills Options from this process: runtime.GOOS, the home
// and working directories, and os.LookupEnv. It is for main; tests build
// Options themselves.
func SystemOptions() (Options, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Options{}, fmt.Errorf("cannot find your home directory to read config files: %w", err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return Options{}, fmt.Errorf("cannot find the working directory to search for config files: %w", err)
	}
	return Options{OS: runtime.GOOS, Home: home, Dir: dir, LookupEnv: os.LookupEnv, Owner: ownedBy(os.Getuid())}, nil
}

// Config is every source of named servers for one run of mcpcli. Files are
// read when first needed, and each server's values are expanded only when
// that server is asked for. A Config is not safe for concurrent use.
type Config struct {
	opts     Options
	userFile string
	sources  []*source
	files    map[string]*file
	answers  map[answerKey]string

	approved    map[string]time.Time   // path NUL sha256: trusted at the prompt in this run
	trusted     map[string]TrustRecord // Options.Trusted's records, read once
	trustedErr  error                  // why they could not be read
	rememberErr error                  // why a trust given could not be recorded
}

type answerKey struct{ file, id string }

// source is a Source with what was read from it.
type source struct {
	Source
	workspace string // ${workspaceFolder}, and what relative paths are relative to
	jsonc     bool   // comments and trailing commas allowed

	loaded  bool
	doc     *doc
	skipped error               // Options.Owner refused the file
	err     error               // the source as a whole cannot be used
	names   []string            // server names in file order, each once
	entries map[string][]member // every definition of each name
	inputs  *value              // VS Code's "inputs"
}

// file is one file read from disk, shared by the sources it holds.
type file struct {
	doc     *doc
	err     error
	skipped error
	missing bool
	sum     string // the SHA-256 of what was read, in hex
}

// Load finds the files that may define servers, in order of precedence.
// It reads only the --config file (which must exist); the others are read
// when a server is looked up or listed.
func Load(o Options) (*Config, error) {
	if o.OS == "" || o.Home == "" || !filepath.IsAbs(o.Dir) {
		return nil, fmt.Errorf("config.Load needs the OS, the home directory and an absolute working directory (have %q, %q, %q)", o.OS, o.Home, o.Dir)
	}
	if o.LookupEnv == nil {
		o.LookupEnv = func(string) (string, bool) { return "", false }
	}
	c := &Config{opts: o, userFile: userFile(o), files: map[string]*file{}, answers: map[answerKey]string{}, approved: map[string]time.Time{}}
	// A place is read once, at its first (highest) rank: a file given
	// with --config is not read again as a project or user file.
	seen := map[Source]bool{}
	add := func(s *source) {
		s.Path = filepath.Clean(s.Path)
		key := Source{Path: s.Path, Project: s.Project}
		if seen[key] {
			return
		}
		seen[key] = true
		c.sources = append(c.sources, s)
	}
	if o.File != "" {
		p := o.File
		if !filepath.IsAbs(p) {
			p = filepath.Join(o.Dir, p)
		}
		add(&source{Source: Source{Kind: KindExplicit, Path: p}, workspace: projectRoot(p), jsonc: true})
	}
	// The user files keep their place even when the upward search passes
	// them (~/.cursor/mcp.json is also "the project file" of ~).
	users := []*source{
		{Source: Source{Kind: KindMcpcli, Path: c.userFile}},
		{Source: Source{Kind: KindClaudeDesktop, Path: claudeDesktopFile(o)}},
		{Source: Source{Kind: KindClaudeLocal, Path: claudeCodeFile(o), Project: o.Dir}},
		{Source: Source{Kind: KindClaudeUser, Path: claudeCodeFile(o)}},
		{Source: Source{Kind: KindCursorUser, Path: filepath.Join(o.Home, ".cursor", "mcp.json")}},
	}
	userPaths := map[string]bool{}
	for _, u := range users {
		userPaths[filepath.Clean(u.Path)] = true
		u.workspace = o.Dir
	}
	for dir := filepath.Clean(o.Dir); ; {
		for _, p := range []struct {
			kind  Kind
			rel   string
			jsonc bool
		}{
			{KindClaudeProject, ".mcp.json", false},
			{KindVSCode, filepath.Join(".vscode", "mcp.json"), true},
			{KindCursorProject, filepath.Join(".cursor", "mcp.json"), false},
		} {
			path := filepath.Join(dir, p.rel)
			if !userPaths[path] {
				add(&source{Source: Source{Kind: p.kind, Path: path}, workspace: dir, jsonc: p.jsonc})
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, u := range users {
		add(u)
	}
	if o.File != "" {
		s := c.sources[0]
		c.load(s)
		if s.err != nil {
			return nil, s.err
		}
		if c.files[s.Path].missing {
			return nil, &Error{File: s.Path, Msg: "does not exist; it was given with --config", Err: fs.ErrNotExist}
		}
	}
	return c, nil
}

// projectRoot is ${workspaceFolder} for a file given with --config: the
// directory holding it, or that directory's parent when it is .vscode or
// .cursor.
func projectRoot(path string) string {
	dir := filepath.Dir(path)
	if b := filepath.Base(dir); b == ".vscode" || b == ".cursor" {
		return filepath.Dir(dir)
	}
	return dir
}

// xdgConfigHome is $XDG_CONFIG_HOME when it is set to an absolute path, as
// the XDG spec asks, and ~/.config otherwise.
func xdgConfigHome(o Options) string {
	if v, ok := o.LookupEnv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(o.Home, ".config")
}

// appData is %APPDATA% on Windows, or its usual place.
func appData(o Options) string {
	if v, ok := o.LookupEnv("APPDATA"); ok && v != "" {
		return v
	}
	return filepath.Join(o.Home, "AppData", "Roaming")
}

// userFile is mcpcli's own file: $XDG_CONFIG_HOME/mcpcli/servers.json, by
// default ~/.config/mcpcli/servers.json, and %APPDATA%\mcpcli\servers.json
// on Windows unless XDG_CONFIG_HOME is set.
func userFile(o Options) string {
	if v, ok := o.LookupEnv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(v) {
		return filepath.Join(v, "mcpcli", "servers.json")
	}
	if o.OS == "windows" {
		return filepath.Join(appData(o), "mcpcli", "servers.json")
	}
	return filepath.Join(o.Home, ".config", "mcpcli", "servers.json")
}

func claudeDesktopFile(o Options) string {
	switch o.OS {
	case "darwin":
		return filepath.Join(o.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	case "windows":
		return filepath.Join(appData(o), "Claude", "claude_desktop_config.json")
	}
	return filepath.Join(xdgConfigHome(o), "Claude", "claude_desktop_config.json")
}

// claudeCodeFile is ~/.claude.json, or .claude.json in $CLAUDE_CONFIG_DIR.
func claudeCodeFile(o Options) string {
	if v, ok := o.LookupEnv("CLAUDE_CONFIG_DIR"); ok && filepath.IsAbs(v) {
		return filepath.Join(v, ".claude.json")
	}
	return filepath.Join(o.Home, ".claude.json")
}

// UserFile is mcpcli's own file, the one Add and Remove edit.
func (c *Config) UserFile() string { return c.userFile }

// Sources lists every place searched, in order of precedence, whether or
// not the file exists.
func (c *Config) Sources() []Source {
	out := make([]Source, len(c.sources))
	for i, s := range c.sources {
		out[i] = s.Source
	}
	return out
}

// readFile reads a file once per Config, bounded (readFileBounded), with
// owner asked about the file opened. It keeps the SHA-256 of what it read:
// trust is given to a project file as it is, and a changed file is asked
// about again.
func (c *Config) readFile(path string, jsonc bool, owner func(string, fs.FileInfo) error) *file {
	if f, ok := c.files[path]; ok {
		return f
	}
	f := &file{}
	c.files[path] = f
	data, err := readFileBounded(path, owner)
	var distrust *distrustError
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		f.missing = true
	case errors.As(err, &distrust):
		f.skipped = &Error{File: path, Msg: "skipped: " + oneLine(distrust.err) + "; a project file can start commands, so if you trust it, pass it with --config", Err: distrust.err}
	case err != nil:
		f.err = &Error{File: path, Msg: "cannot be read: " + oneLine(err), Err: err}
	default:
		sum := sha256.Sum256(data)
		f.sum = hex.EncodeToString(sum[:])
		d, serr := parseJSON(data, jsonc)
		f.doc = d
		if serr != nil {
			line, col := d.pos(serr.off)
			f.err = &Error{File: path, Line: line, Col: col, Msg: serr.msg}
		}
	}
	return f
}

// load reads a source's file and finds its servers, once.
func (c *Config) load(s *source) {
	if s.loaded {
		return
	}
	s.loaded = true
	var owner func(string, fs.FileInfo) error
	if s.Kind.Project() {
		owner = c.opts.Owner
	}
	f := c.readFile(s.Path, s.jsonc, owner)
	if f.missing {
		return
	}
	if f.skipped != nil {
		s.skipped = f.skipped
		return
	}
	if f.err != nil {
		s.err = f.err
		return
	}
	s.doc = f.doc
	root := f.doc.root
	if root == nil { // an empty file defines nothing
		return
	}
	if root.kind != kObject {
		s.err = s.errAt("", root.off, "must hold a JSON object, like {\"mcpServers\": {...}}, not %s", root.kind)
		return
	}
	container := root
	if s.Kind == KindClaudeLocal {
		projects, err := s.field(root, "projects", kObject)
		if err != nil || projects == nil {
			s.err = err
			return
		}
		container = nil
		for _, key := range projectKeys(c.opts, s.Project) {
			if p, err := s.field(projects, key, kObject); err != nil {
				s.err = err
				return
			} else if p != nil {
				container, s.Project = p, key
				break
			}
		}
		if container == nil {
			return
		}
	}
	key := "mcpServers"
	switch s.Kind {
	case KindVSCode:
		key = "servers"
	case KindExplicit:
		if m, _ := root.get("mcpServers"); m == nil {
			if v, _ := root.get("servers"); v != nil {
				key = "servers"
			}
		} else if v, _ := root.get("servers"); v != nil {
			s.err = s.errAt("", v.off, "has both \"mcpServers\" and \"servers\"; keep one of them")
			return
		}
	}
	servers, err := s.field(container, key, kObject)
	if err != nil {
		s.err = err
		return
	}
	if s.Kind == KindVSCode || s.Kind == KindExplicit {
		var n int
		if s.inputs, n = container.get("inputs"); n > 1 {
			s.err = s.dupError("", container, "inputs")
			return
		}
	}
	if servers == nil {
		return
	}
	s.entries = map[string][]member{}
	for _, m := range servers.members {
		if _, ok := s.entries[m.key]; !ok {
			s.names = append(s.names, m.key)
		}
		s.entries[m.key] = append(s.entries[m.key], m)
	}
}

// projectKeys are the keys Claude Code may file the working directory
// under in "projects": the path itself, and on Windows also with forward
// slashes.
func projectKeys(o Options, dir string) []string {
	keys := []string{dir}
	if o.OS == "windows" {
		if s := strings.ReplaceAll(dir, `\`, "/"); s != dir {
			keys = append(keys, s)
		}
	}
	return keys
}

// field returns the member key of obj, which must be of kind want (null
// counts as absent), or nil when there is none.
func (s *source) field(obj *value, key string, want kind) (*value, error) {
	v, n := obj.get(key)
	if n > 1 {
		return nil, s.dupError("", obj, key)
	}
	if v == nil || v.kind == kNull {
		return nil, nil
	}
	if v.kind != want {
		return nil, s.errAt("", v.off, "%s must be %s, not %s", quote(key), want, v.kind)
	}
	return v, nil
}

// errAt is an Error at a byte offset of the source's file; off < 0 means
// no place.
func (s *source) errAt(server string, off int, format string, args ...any) *Error {
	e := &Error{File: s.Path, Server: server, Msg: fmt.Sprintf(format, args...)}
	if off >= 0 && s.doc != nil {
		e.Line, e.Col = s.doc.pos(off)
	}
	return e
}

// dupError names a key that appears twice in obj, at its second place.
func (s *source) dupError(server string, obj *value, key string) *Error {
	var lines []string
	off := -1
	for _, m := range obj.members {
		if m.key == key {
			line, _ := s.doc.pos(m.keyOff)
			lines = append(lines, fmt.Sprint(line))
			if len(lines) == 2 {
				off = m.keyOff
			}
		}
	}
	return s.errAt(server, off, "the key %s appears %d times (lines %s); keep one, so the file means one thing", quote(key), len(lines), strings.Join(lines, ", "))
}

// oneLine flattens an error from the system into one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// entry returns the one definition of name in s, decoded but not expanded.
func (c *Config) entry(s *source, name string) (Entry, error) {
	defs := s.entries[name]
	if len(defs) > 1 {
		lines := make([]string, len(defs))
		for i, d := range defs {
			l, _ := s.doc.pos(d.keyOff)
			lines[i] = fmt.Sprint(l)
		}
		return Entry{}, s.errAt(name, defs[1].keyOff, "is defined %d times (lines %s); keep one, so the file means one thing", len(defs), strings.Join(lines, ", "))
	}
	if err := checkServerName(name); err != nil {
		return Entry{}, s.errAt(name, defs[0].keyOff, "%s", err.Error())
	}
	e, ferr := decodeEntry(defs[0].val)
	if ferr != nil {
		return Entry{}, s.errAt(name, ferr.off, "%s", ferr.msg)
	}
	return e, nil
}

// checkServerName refuses names a terminal could be tricked by; names from
// other tools may hold spaces.
func checkServerName(name string) error {
	if name == "" {
		return errors.New("a server name cannot be empty")
	}
	for _, r := range name {
		if unsafeRune(r) {
			return fmt.Errorf("the name has a control or invisible character in it (%U); rename it", r)
		}
	}
	return nil
}

// Lookup finds the entry that runs for name, without expanding it, and
// without asking for trust: the entry of an untrusted project file is
// returned as it is written (see Server).
func (c *Config) Lookup(name string) (Entry, Source, error) {
	s, _, err := c.find(name, false)
	if err != nil {
		return Entry{}, Source{}, err
	}
	e, err := c.entry(s, name)
	return e, s.Source, err
}

// Server finds the server named name and expands its values: what the
// source that runs it says (see find), with ${...} replaced, its envFile
// read, and relative paths made absolute. ${input:ID} asks Options.Ask
// once per file and ID for the life of the Config.
//
// A server that only a project file not trusted yet defines is neither
// expanded nor asked for: Options.Approve is asked first, and without a
// yes (or without Approve) the answer is an *UntrustedError.
func (c *Config) Server(name string) (*Server, error) {
	s, others, err := c.find(name, true)
	if err != nil {
		return nil, err
	}
	e, err := c.entry(s, name)
	if err != nil {
		return nil, err
	}
	srv, err := c.resolve(s, name, e)
	if err != nil {
		return nil, err
	}
	srv.Trust, _ = c.trust(s)
	for _, o := range others {
		t, _ := c.trust(o)
		srv.Others = append(srv.Others, Other{Source: o.Source, Trust: t})
	}
	return srv, nil
}

// Other is another definition of a server's name, which does not run.
type Other struct {
	Source Source
	Trust  TrustState
}

// find returns the source that runs name, and the other sources that
// define it (in order of precedence). In order, what runs is:
//
//  1. the file given with --config;
//  2. the nearest project file that defines name, if it is trusted;
//  3. the first of the person's own files that defines it;
//  4. the nearest project file that defines name, once trusted: with ask,
//     Options.Approve is asked; without, it is returned as it is.
//
// The files before the one that runs, in its group, must be readable: a
// broken one might have defined name. A project file that cannot be read
// cannot be trusted either, so it matters only when no file of the
// person's defines name.
func (c *Config) find(name string, ask bool) (*source, []*source, error) {
	var defs []*source
	var projErr, ownErr error // the first broken file before a definition, in each group
	var proj, own *source
	for _, s := range c.sources {
		c.load(s)
		if s.err != nil {
			switch {
			case s.Kind == KindExplicit:
				return nil, nil, s.err
			case s.Kind.Project():
				if proj == nil && projErr == nil {
					projErr = s.err
				}
			default:
				if own == nil && ownErr == nil {
					ownErr = s.err
				}
			}
			continue
		}
		if _, ok := s.entries[name]; !ok {
			continue
		}
		defs = append(defs, s)
		switch {
		case s.Kind == KindExplicit:
			return s, c.defining(name, s), nil
		case s.Kind.Project():
			if proj == nil {
				proj = s
			}
		default:
			if own == nil {
				own = s
			}
		}
	}
	if proj != nil {
		if t, _ := c.trust(proj); t.Runs() {
			if projErr != nil {
				return nil, nil, projErr
			}
			return proj, others(defs, proj), nil
		}
	}
	if own != nil {
		if ownErr != nil {
			return nil, nil, ownErr
		}
		return own, others(defs, own), nil
	}
	if ownErr != nil {
		return nil, nil, ownErr
	}
	if proj != nil {
		if projErr != nil {
			return nil, nil, projErr
		}
		if ask {
			if err := c.approve(proj, name); err != nil {
				return nil, nil, err
			}
		}
		return proj, others(defs, proj), nil
	}
	if projErr != nil {
		return nil, nil, projErr
	}
	return nil, nil, c.notFound(name)
}

// defining are the readable sources other than s that define name.
func (c *Config) defining(name string, s *source) []*source {
	var out []*source
	for _, o := range c.sources {
		c.load(o)
		if _, ok := o.entries[name]; ok && o != s && o.err == nil {
			out = append(out, o)
		}
	}
	return out
}

// others is defs without s.
func others(defs []*source, s *source) []*source {
	return slices.DeleteFunc(slices.Clone(defs), func(o *source) bool { return o == s })
}

// Listed is one definition of a server, as List reports it.
type Listed struct {
	Name      string
	Source    Source
	Transport Transport // "" when Err is set
	// Target is the command line or the URL as the file writes it, before
	// expansion. Like Name, it comes from a file: sanitize it before
	// printing it on a terminal.
	Target   string
	Shadowed bool       // another definition of Name runs instead
	Trust    TrustState // the file's: TrustOwn for the person's own files
	Err      error      // why this definition cannot be used; nil when it can
}

// List reads every source and returns every definition of every server,
// sorted by name, the one that runs first (as Server picks it, without
// asking for trust: an untrusted project file's server is listed first
// when no file of the person's defines its name), then the others in
// order of precedence, with Shadowed set. Nothing is expanded. problems
// are the files that could not be read, in order of precedence; they do
// not stop the others from being listed.
func (c *Config) List() (servers []Listed, problems []error) {
	byName := map[string][]Listed{}
	var names []string
	for _, s := range c.sources {
		c.load(s)
		if s.skipped != nil {
			problems = append(problems, s.skipped)
			continue
		}
		if s.err != nil {
			problems = append(problems, s.err)
			continue
		}
		trust, _ := c.trust(s)
		for _, name := range s.names {
			l := Listed{Name: name, Source: s.Source, Trust: trust}
			e, err := c.entry(s, name)
			if err != nil {
				l.Err = err
			} else {
				l.Transport, l.Target = e.Type, e.Target()
			}
			if _, ok := byName[name]; !ok {
				names = append(names, name)
			}
			byName[name] = append(byName[name], l)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		defs := byName[name]
		win := 0
		if s, _, err := c.find(name, false); err == nil {
			win = max(slices.IndexFunc(defs, func(l Listed) bool { return l.Source == s.Source }), 0)
		}
		servers = append(servers, defs[win])
		for i, l := range defs {
			if i != win {
				l.Shadowed = true
				servers = append(servers, l)
			}
		}
	}
	return servers, problems
}

func (c *Config) notFound(name string) *NotFoundError {
	searched := make([]string, len(c.sources))
	for i, s := range c.sources {
		searched[i] = s.Path
	}
	return &NotFoundError{Name: name, Searched: searched}
}
