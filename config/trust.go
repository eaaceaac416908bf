package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/internal/safefile"
)

// A project file (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, found by
// the upward search) comes with the code it sits in: a cloned repository,
// an unpacked archive, a directory above the working one. Its servers run
// as the person, with their files and environment, so none of them is
// started, asked for inputs, or expanded (${HOME} into a URL, ${env:X}
// into a header) until the person trusts the file. Trust is given to a
// file as it is: its path and the SHA-256 of its content. A changed file
// is not trusted until the person trusts it again.
//
// Trust also decides which definition of a name runs. A file the person
// named (--config) comes first; then a trusted project file; then the
// person's own files (mcpcli's, and Claude Desktop's, Claude Code's and
// Cursor's user files); last, a project file not trusted yet, which runs
// only once trusted. So an untrusted project file never takes a name from
// the person's own files: the person gets what they set up, and is told
// that the project defines it too. Trusting the file, after reading it,
// is how they choose the project's.

// Project reports whether a kind of file is a project file, found by the
// upward search: one that needs trust before its servers are used.
func (k Kind) Project() bool {
	return k == KindClaudeProject || k == KindVSCode || k == KindCursorProject
}

// TrustState is where a file stands.
type TrustState string

const (
	// TrustOwn is a file that needs no trust: the person's own files, and
	// the file given with --config.
	TrustOwn TrustState = ""
	// Trusted is a project file the person trusted, as it is now.
	Trusted TrustState = "trusted"
	// TrustedForRun is a project file trusted for this run only
	// (Options.TrustProject).
	TrustedForRun TrustState = "trusted-for-run"
	// Untrusted is a project file the person has not trusted.
	Untrusted TrustState = "untrusted"
	// Changed is a project file the person trusted, which has changed
	// since.
	Changed TrustState = "changed"
)

// Runs reports whether servers of a file in this state may run.
func (t TrustState) Runs() bool { return t == TrustOwn || t == Trusted || t == TrustedForRun }

// TrustStore keeps the project files the person trusted, in a JSON file in
// mcpcli's state directory: each file's absolute path with the SHA-256 of
// its content when trusted, and when that was. The file is private (0600,
// in a 0700 directory) and replaced atomically.
type TrustStore struct {
	Path string
}

// TrustRecord is one trusted file.
type TrustRecord struct {
	SHA256    string    `json:"sha256"`
	TrustedAt time.Time `json:"trustedAt"`
}

// trustFile is the store's content.
type trustFile struct {
	Version int                    `json:"version"`
	Files   map[string]TrustRecord `json:"files"`
}

// Records reads the store: each trusted path with its record. A store
// that does not exist yet holds nothing.
func (s *TrustStore) Records() (map[string]TrustRecord, error) {
	data, err := readFileBounded(s.Path, nil)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]TrustRecord{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the record of trusted project files, %s, %s", showPath(s.Path), oneLine(err))
	}
	var tf trustFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return nil, fmt.Errorf("the record of trusted project files, %s, cannot be read (%s); remove it, and trust the files again", showPath(s.Path), oneLine(err))
	}
	if tf.Files == nil {
		tf.Files = map[string]TrustRecord{}
	}
	return tf.Files, nil
}

// Trust records path as trusted with the content whose SHA-256 is sum.
func (s *TrustStore) Trust(path, sum string, at time.Time) error {
	return s.edit(func(files map[string]TrustRecord) bool {
		files[path] = TrustRecord{SHA256: sum, TrustedAt: at.UTC().Truncate(time.Second)}
		return true
	})
}

// Untrust forgets path; it reports whether path was trusted.
func (s *TrustStore) Untrust(path string) (bool, error) {
	var had bool
	err := s.edit(func(files map[string]TrustRecord) bool {
		_, had = files[path]
		delete(files, path)
		return had
	})
	return had, err
}

// edit reads the store afresh, lets change edit it, and writes it back
// when change says so.
func (s *TrustStore) edit(change func(map[string]TrustRecord) bool) error {
	files, err := s.Records()
	if err != nil {
		return err
	}
	if !change(files) {
		return nil
	}
	data, err := json.MarshalIndent(trustFile{Version: 1, Files: files}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("cannot create the directory for %s: %s", showPath(s.Path), oneLine(err))
	}
	if err := safefile.Replace(s.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("cannot write %s: %s", showPath(s.Path), oneLine(err))
	}
	return nil
}

// ErrUntrusted is matched by an UntrustedError.
var ErrUntrusted = errors.New("project file not trusted")

// UntrustedError is a server that only a project file the person has not
// trusted defines, when nobody could be asked, or the person said no.
type UntrustedError struct {
	Server   string
	Source   Source
	State    TrustState // Untrusted or Changed
	Declined bool       // the person was asked, and did not trust it
	// Err is why the person could not be asked, when that failed.
	Err error
}

func (e *UntrustedError) Error() string {
	switch {
	case e.Declined:
		return fmt.Sprintf("server %s was not started: you did not trust %s", quote(e.Server), showPath(e.Source.Path))
	case e.State == Changed:
		return fmt.Sprintf("server %s is defined in %s, a project file that changed since you trusted it", quote(e.Server), showPath(e.Source.Path))
	}
	return fmt.Sprintf("server %s is defined in %s, a project file you have not trusted", quote(e.Server), showPath(e.Source.Path))
}

func (e *UntrustedError) Is(target error) bool { return target == ErrUntrusted }
func (e *UntrustedError) Unwrap() error        { return e.Err }

// TrustAsk is what the person is shown before they trust a project file:
// everything in it that would run, as written.
type TrustAsk struct {
	Server    string     // the name asked for
	Source    Source     // the project file
	State     TrustState // Untrusted, or Changed
	TrustedAt time.Time  // when it was trusted, if Changed
	SHA256    string     // of the content shown, the one trusted
	// Servers are every server the file defines, in its order.
	Servers []Reviewed
	// Variables are the environment variables the file's values read
	// (${VAR}, ${env:VAR}), sorted; Inputs are what it asks the person
	// for (${input:ID}).
	Variables []string
	Inputs    []Input
}

// Reviewed is one server of a file being reviewed.
type Reviewed struct {
	Name  string
	Entry Entry // as written, before expansion; empty when Err is set
	Err   error // why it cannot be used
	// Yours is the person's own definition of the same name, which this
	// one would replace once the file is trusted; nil when there is none.
	Yours *Source
}

// ProjectFile is a project file found by the upward search, and where it
// stands.
type ProjectFile struct {
	Source    Source
	State     TrustState // Untrusted, Changed, Trusted or TrustedForRun
	SHA256    string     // "" when the file could not be read
	TrustedAt time.Time  // when it was trusted (Trusted, Changed)
	Err       error      // it cannot be read, or was skipped (another user's)
}

// ProjectFiles are the project files that exist above the working
// directory, nearest first, each with its trust.
func (c *Config) ProjectFiles() []ProjectFile {
	var out []ProjectFile
	for _, s := range c.sources {
		if !s.Kind.Project() {
			continue
		}
		c.load(s)
		f := c.files[s.Path]
		if f.missing {
			continue
		}
		p := ProjectFile{Source: s.Source, SHA256: f.sum}
		p.State, p.TrustedAt = c.trust(s)
		switch {
		case s.skipped != nil:
			p.Err = s.skipped
		case s.err != nil:
			p.Err = s.err
		}
		out = append(out, p)
	}
	return out
}

// trust says where a source stands, and when it was trusted.
func (c *Config) trust(s *source) (TrustState, time.Time) {
	if !s.Kind.Project() {
		return TrustOwn, time.Time{}
	}
	f := c.files[s.Path]
	if f == nil || f.sum == "" || f.skipped != nil {
		return Untrusted, time.Time{}
	}
	if c.opts.TrustProject {
		return TrustedForRun, time.Time{}
	}
	if at, ok := c.approved[s.Path+"\x00"+f.sum]; ok {
		return Trusted, at
	}
	rec, ok := c.records()[s.Path]
	switch {
	case !ok:
		return Untrusted, time.Time{}
	case rec.SHA256 != f.sum:
		return Changed, rec.TrustedAt
	}
	return Trusted, rec.TrustedAt
}

// records are the trusted files, read once; a store that cannot be read
// trusts nothing (TrustStoreErr says why).
func (c *Config) records() map[string]TrustRecord {
	if c.trusted == nil {
		c.trusted = map[string]TrustRecord{}
		if c.opts.Trusted != nil {
			r, err := c.opts.Trusted.Records()
			if err != nil {
				c.trustedErr = err
			} else {
				c.trusted = r
			}
		}
	}
	return c.trusted
}

// TrustStoreErr is why the record of trusted files could not be read, if
// it could not: then no project file is trusted.
func (c *Config) TrustStoreErr() error {
	c.records()
	return c.trustedErr
}

// approve asks the person about s, whose server name is wanted, and
// remembers a yes.
func (c *Config) approve(s *source, name string) error {
	state, at := c.trust(s)
	if c.opts.Approve == nil {
		return &UntrustedError{Server: name, Source: s.Source, State: state}
	}
	ask := c.review(s)
	ask.Server, ask.State, ask.TrustedAt = name, state, at
	ok, err := c.opts.Approve(ask)
	if err != nil {
		return &UntrustedError{Server: name, Source: s.Source, State: state, Err: err}
	}
	if !ok {
		return &UntrustedError{Server: name, Source: s.Source, State: state, Declined: true}
	}
	now := time.Now()
	if c.opts.Now != nil {
		now = c.opts.Now()
	}
	c.approved[s.Path+"\x00"+ask.SHA256] = now
	if c.opts.Trusted != nil {
		if err := c.opts.Trusted.Trust(s.Path, ask.SHA256, now); err != nil {
			c.rememberErr = err
		}
	}
	return nil
}

// RememberErr is why a trust given at the prompt could not be remembered,
// if it could not: it holds for this run only.
func (c *Config) RememberErr() error { return c.rememberErr }

// review is what s defines, for the person to read before trusting it.
func (c *Config) review(s *source) TrustAsk {
	ask := TrustAsk{Source: s.Source, SHA256: c.files[s.Path].sum}
	vars := map[string]bool{}
	inputs := map[string]bool{}
	for _, name := range s.names {
		r := Reviewed{Name: name}
		e, err := c.entry(s, name)
		if err != nil {
			r.Err = err
		} else {
			r.Entry = e
			for _, v := range e.strings() {
				references(v, vars, inputs)
			}
		}
		if yours := c.own(name); yours != nil {
			src := yours.Source
			r.Yours = &src
		}
		ask.Servers = append(ask.Servers, r)
	}
	ask.Variables = slices.Sorted(maps.Keys(vars))
	x := &expander{c: c, s: s}
	for _, id := range slices.Sorted(maps.Keys(inputs)) {
		in, err := x.findInput(id)
		if err != nil {
			in = Input{ID: id, File: s.Path}
		}
		ask.Inputs = append(ask.Inputs, in)
	}
	return ask
}

// own is the first of the person's own files that defines name, or nil.
func (c *Config) own(name string) *source {
	for _, s := range c.sources {
		if s.Kind.Project() || s.Kind == KindExplicit {
			continue
		}
		c.load(s)
		if _, ok := s.entries[name]; ok && s.err == nil {
			return s
		}
	}
	return nil
}

// references adds the variables and inputs v reads: ${VAR}, ${env:VAR},
// ${VAR:-default} (and those in the default), ${input:ID}.
func references(v string, vars, inputs map[string]bool) {
	for i := 0; i < len(v); i++ {
		switch {
		case strings.HasPrefix(v[i:], "$${"):
			i += 2
		case strings.HasPrefix(v[i:], "${"):
			end := closingBrace(v, i+2)
			if end < 0 {
				return
			}
			body := v[i+2 : end]
			if id, ok := strings.CutPrefix(body, "input:"); ok {
				inputs[id] = true
			} else {
				body = strings.TrimPrefix(body, "env:")
				name, def, _ := strings.Cut(body, ":-")
				switch name {
				case "workspaceFolder", "workspaceFolderBasename", "userHome", "pathSeparator", "/":
				default:
					if goodVarName(name) {
						vars[name] = true
					}
				}
				references(def, vars, inputs)
			}
			i = end
		}
	}
}

// ProjectKind is the kind of project file path names: .mcp.json, or
// mcp.json in .vscode or .cursor. ok is false for any other path.
func ProjectKind(path string) (kind Kind, ok bool) {
	base, dir := filepath.Base(path), filepath.Base(filepath.Dir(path))
	switch {
	case base == ".mcp.json":
		return KindClaudeProject, true
	case base == "mcp.json" && dir == ".vscode":
		return KindVSCode, true
	case base == "mcp.json" && dir == ".cursor":
		return KindCursorProject, true
	}
	return "", false
}

// TrustFile trusts the project file at path (absolute), as it is now: it
// reads the file as the upward search would (Options.Owner included),
// records its SHA-256 in Options.Trusted, and returns what it defines,
// the record of what was trusted.
func (c *Config) TrustFile(path string) (TrustAsk, error) {
	s, err := c.projectSource(path)
	if err != nil {
		return TrustAsk{}, err
	}
	if c.opts.Trusted == nil {
		return TrustAsk{}, errors.New("mcpcli has no place to remember trust in (no state directory); pass --trust-project with each run instead")
	}
	ask := c.review(s)
	ask.State, ask.TrustedAt = c.trust(s)
	now := time.Now()
	if c.opts.Now != nil {
		now = c.opts.Now()
	}
	if err := c.opts.Trusted.Trust(s.Path, ask.SHA256, now); err != nil {
		return TrustAsk{}, err
	}
	c.approved[s.Path+"\x00"+ask.SHA256] = now
	return ask, nil
}

// UntrustFile forgets that the person trusted the project file at path
// (absolute); it reports whether they had.
func (c *Config) UntrustFile(path string) (bool, error) {
	if _, ok := ProjectKind(path); !ok {
		return false, notProjectFile(path)
	}
	if c.opts.Trusted == nil {
		return false, nil
	}
	for k := range c.approved {
		if strings.HasPrefix(k, path+"\x00") {
			delete(c.approved, k)
		}
	}
	delete(c.records(), path)
	return c.opts.Trusted.Untrust(path)
}

// projectSource is the project file at path, read and parsed.
func (c *Config) projectSource(path string) (*source, error) {
	kind, ok := ProjectKind(path)
	if !ok {
		return nil, notProjectFile(path)
	}
	path = filepath.Clean(path)
	s := &source{Source: Source{Kind: kind, Path: path}, workspace: projectRoot(path), jsonc: kind == KindVSCode}
	for _, o := range c.sources {
		if o.Path == path && o.Kind == kind {
			s = o
		}
	}
	c.load(s)
	switch {
	case c.files[path].missing:
		return nil, &Error{File: path, Msg: "does not exist", Err: fs.ErrNotExist}
	case s.skipped != nil:
		return nil, s.skipped
	case s.err != nil:
		return nil, s.err
	}
	return s, nil
}

func notProjectFile(path string) error {
	return &Error{File: path, Msg: "is not a project file (.mcp.json, .vscode/mcp.json or .cursor/mcp.json); another file is read only when you name it with --config, which trusts it for that run"}
}
