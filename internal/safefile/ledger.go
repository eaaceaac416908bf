package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Ledger is mcpcli's record of the files Write wrote: a line for each
// write, the SHA-256 of what it wrote and the file's absolute path,
// appended to the file Path. It lives in mcpcli's state directory, where
// a cloned repository cannot write, so that it proves what a file's own
// first line cannot: that mcpcli wrote it, and that nobody has changed it
// since. A nil *Ledger notes nothing and proves nothing.
//
// Each note is one write to a file opened O_APPEND, so that two mcpcli
// at once add whole lines; adding a note and rewriting the ledger to keep
// it bounded (past Max, only the newest notes are kept) take a lock beside
// it, so that no note is lost to a rewrite.
type Ledger struct {
	// Path is the ledger file. It is made 0600, in a directory made
	// 0700, when first needed.
	Path string
	// Max bounds its size: a note that takes it past Max has it rewritten
	// with the newest notes, half of Max at most. 0 means DefaultLedgerMax.
	Max int64
}

// DefaultLedgerMax bounds a ledger when Ledger.Max is 0.
const DefaultLedgerMax = 1 << 20

func (l *Ledger) max() int64 {
	if l.Max > 0 {
		return l.Max
	}
	return DefaultLedgerMax
}

// ledgerKey is how the ledger names path: absolute, with the links of its
// directory resolved, so that the note names the file written whichever
// way it was reached.
func ledgerKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// note adds that what is being written as the file key (path, as the
// person named it) has the SHA-256 hash.
func (l *Ledger) note(path, key, hash string) error {
	if l == nil {
		return nil
	}
	failed := func(err error) error {
		return fmt.Errorf("%s not written: mcpcli could not note it in %s, its ledger of the files it writes (%v), and writes no file it could not later tell it wrote", path, l.Path, err)
	}
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o700); err != nil {
		return failed(err)
	}
	unlock, err := lock(l.Path + ".lock")
	if err != nil {
		return failed(err)
	}
	defer unlock()
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow|nonBlock, 0o600)
	if err != nil {
		return failed(err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err == nil {
		_, err = f.Write([]byte(hash + " " + strconv.Quote(key) + "\n")) // one write: one whole line
	}
	if err == nil {
		st, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return failed(err)
	}
	if st.Size() > l.max() {
		// Still over Max, should this fail: the next note tries again.
		_ = l.compact()
	}
	return nil
}

// last is the SHA-256 the ledger's last note of key says was written
// there, and whether there is one.
func (l *Ledger) last(key string) (string, bool, error) {
	if l == nil {
		return "", false, nil
	}
	b, err := l.read()
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("could not read %s, mcpcli's ledger of the files it writes: %v", l.Path, err)
	}
	var hash string
	found := false
	for _, n := range parseNotes(b) {
		if n.key == key {
			hash, found = n.hash, true
		}
	}
	return hash, found, nil
}

// read reads the ledger, or its newest notes should it have grown past
// twice Max meanwhile (by hand, or with no lock to be had).
func (l *Ledger) read() ([]byte, error) {
	f, err := os.OpenFile(l.Path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	limit := 2 * l.max()
	if st.Size() > limit {
		if _, err := f.Seek(st.Size()-limit, io.SeekStart); err != nil {
			return nil, err
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		// The first line is cut: start at the next.
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return b, nil
}

// compact rewrites the ledger with its newest notes, one for each file,
// within half of Max. The caller holds the lock.
func (l *Ledger) compact() error {
	b, err := l.read()
	if err != nil {
		return err
	}
	notes := parseNotes(b)
	seen := map[string]bool{}
	var keep []note
	size, budget := int64(0), l.max()/2
	for i := len(notes) - 1; i >= 0; i-- {
		n := notes[i]
		if seen[n.key] {
			continue
		}
		seen[n.key] = true
		if size += int64(len(n.line)); size > budget {
			break
		}
		keep = append(keep, n)
	}
	var out bytes.Buffer
	for i := len(keep) - 1; i >= 0; i-- {
		out.WriteString(keep[i].line)
	}
	return Replace(l.Path, out.Bytes(), 0o600)
}

// note is one line of a ledger.
type note struct {
	hash, key, line string
}

// parseNotes reads a ledger's lines, oldest first; a line that is not a
// whole note (cut by hand, or by a crash) is skipped.
func parseNotes(b []byte) []note {
	var out []note
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break // no newline: not a whole line
		}
		line := string(b[:i+1])
		b = b[i+1:]
		hash, quoted, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok || len(hash) != 64 {
			continue
		}
		key, err := strconv.Unquote(quoted)
		if err != nil {
			continue
		}
		out = append(out, note{hash: hash, key: key, line: line})
	}
	return out
}
