package safefile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// magic is the first line of a script mcpcli saves: anyone can write it.
const magic = "#!/bin/sh\n# An mcpcli session with x\n"

func ledgerIn(t *testing.T) *Ledger {
	t.Helper()
	return &Ledger{Path: filepath.Join(t.TempDir(), "state", "mcpcli", "written")}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
	return string(b)
}

// Write creates a new file and replaces one the ledger says it wrote, and
// nothing else: not a file that only looks like its own, not one changed
// since, not through a link, not anything but a regular file.
func TestWrite(t *testing.T) {
	cases := []struct {
		name string
		// before puts what is at p before Write (nothing when nil), with
		// the ledger l.
		before    func(t *testing.T, p string, l *Ledger)
		nilLedger bool
		wantErr   string // "" means written
	}{
		{name: "a new file"},
		{name: "a file it wrote, unchanged", before: func(t *testing.T, p string, l *Ledger) {
			if err := Write(p, []byte(magic+"call a\n"), 0o700, l); err != nil {
				t.Fatalf("Write(new) = %v", err)
			}
		}},
		{name: "a file with its first line it did not write", wantErr: "already exists, and mcpcli did not write it", before: func(t *testing.T, p string, l *Ledger) {
			os.WriteFile(p, []byte(magic+"keep me\n"), 0o644)
		}},
		{name: "a file it wrote, edited since", wantErr: "has changed since mcpcli wrote it", before: func(t *testing.T, p string, l *Ledger) {
			if err := Write(p, []byte(magic+"call a\n"), 0o700, l); err != nil {
				t.Fatalf("Write(new) = %v", err)
			}
			os.WriteFile(p, []byte(magic+"keep me\n"), 0o700)
		}},
		{name: "a file it wrote, replaced since by another's", wantErr: "has changed since mcpcli wrote it", before: func(t *testing.T, p string, l *Ledger) {
			if err := Write(p, []byte(magic+"call a\n"), 0o700, l); err != nil {
				t.Fatalf("Write(new) = %v", err)
			}
			os.Remove(p)
			os.WriteFile(p, []byte(magic+"keep me\n"), 0o644)
		}},
		{name: "a symlink to a file it wrote", wantErr: "symbolic link", before: func(t *testing.T, p string, l *Ledger) {
			mine := p + ".mine"
			if err := Write(mine, []byte(magic+"call a\n"), 0o700, l); err != nil {
				t.Fatalf("Write(new) = %v", err)
			}
			os.Symlink(mine, p)
		}},
		{name: "a symlink to another's file", wantErr: "symbolic link", before: func(t *testing.T, p string, l *Ledger) {
			os.WriteFile(p+".victim", []byte("keep me\n"), 0o644)
			os.Symlink(p+".victim", p)
		}},
		{name: "a dangling symlink", wantErr: "symbolic link", before: func(t *testing.T, p string, l *Ledger) {
			os.Symlink(p+".nowhere", p)
		}},
		{name: "a directory", wantErr: "not a regular file", before: func(t *testing.T, p string, l *Ledger) {
			os.Mkdir(p, 0o755)
		}},
		{name: "a file it wrote, with no ledger now", nilLedger: true, wantErr: "already exists", before: func(t *testing.T, p string, l *Ledger) {
			if err := Write(p, []byte(magic+"call a\n"), 0o700, l); err != nil {
				t.Fatalf("Write(new) = %v", err)
			}
		}},
		{name: "a new file, with no ledger", nilLedger: true},
		{name: "a file too large to be its own", wantErr: "larger", before: func(t *testing.T, p string, l *Ledger) {
			os.WriteFile(p, make([]byte, MaxSize+1), 0o644)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "run.sh")
			l := ledgerIn(t)
			if c.before != nil {
				c.before(t, p, l)
			}
			if c.nilLedger {
				l = nil
			}
			var was []byte
			if c.wantErr != "" {
				was, _ = os.ReadFile(p) // through a link: the target
			}
			entries, _ := os.ReadDir(dir)
			want := magic + "call b\n"
			err := Write(p, []byte(want), 0o700, l)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), p) {
					t.Fatalf("Write over %s = %v; want it refused, naming %s and saying %q", c.name, err, p, c.wantErr)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("Write over %s: the error is not one line: %q", c.name, err)
				}
				if now, _ := os.ReadFile(p); string(now) != string(was) {
					t.Errorf("Write over %s changed what is there: %q, was %q", c.name, now, was)
				}
				if _, err := os.Lstat(p + ".nowhere"); err == nil {
					t.Errorf("Write over %s created a dangling link's target", c.name)
				}
				return
			}
			if err != nil {
				t.Fatalf("Write over %s = %v; want it written", c.name, err)
			}
			if got := read(t, p); got != want {
				t.Errorf("after Write over %s the file holds %q; want %q", c.name, got, want)
			}
			if st, _ := os.Stat(p); runtime.GOOS != "windows" && c.before == nil && st.Mode().Perm() != 0o700 {
				t.Errorf("Write over %s: mode = %v, want 0700", c.name, st.Mode().Perm())
			}
			if after, _ := os.ReadDir(dir); len(after) != max(len(entries), 1) {
				t.Errorf("Write over %s left %d entries in the directory, had %d: a temporary file left?", c.name, len(after), len(entries))
			}
			if l == nil {
				return
			}
			if b := read(t, l.Path); !strings.HasSuffix(b, sum([]byte(want))+" "+strconv.Quote(ledgerKey(p))+"\n") {
				t.Errorf("Write over %s: the ledger's last note is not the file's hash and path: %q", c.name, b)
			}
			if st, _ := os.Stat(l.Path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
				t.Errorf("the ledger's mode = %v, want 0600", st.Mode().Perm())
			}
			if st, _ := os.Stat(filepath.Dir(l.Path)); runtime.GOOS != "windows" && st.Mode().Perm() != 0o700 {
				t.Errorf("the ledger's directory's mode = %v, want 0700", st.Mode().Perm())
			}
			// And it may write it again: the note proves it.
			if err := Write(p, []byte(magic+"call c\n"), 0o700, l); err != nil {
				t.Errorf("Write over %s, then over what it wrote = %v", c.name, err)
			}
		})
	}
}

// A file is known by where it is, however it was named: a relative name
// and an absolute one are the same file.
func TestWriteKnowsAFileByItsPlace(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	l := ledgerIn(t)
	if err := Write("run.sh", []byte("a"), 0o600, l); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "run.sh"), []byte("b"), 0o600, l); err != nil {
		t.Errorf("Write by its absolute name over a file written by its relative name = %v", err)
	}
	if err := Write("./run.sh", []byte("c"), 0o600, l); err != nil {
		t.Errorf("Write by ./run.sh over it = %v", err)
	}
}

// The ledger stays within Max however many files are written, and still
// proves the newest.
func TestLedgerStaysBounded(t *testing.T) {
	dir := t.TempDir()
	l := ledgerIn(t)
	l.Max = 4 << 10
	var paths []string
	for i := range 200 {
		p := filepath.Join(dir, fmt.Sprintf("flow-%03d.flow", i))
		paths = append(paths, p)
		for j := range 3 { // the same file written again adds notes, not files
			if err := Write(p, fmt.Appendf(nil, "# flow %d, take %d\n", i, j), 0o644, l); err != nil {
				t.Fatalf("Write(%s) take %d = %v", p, j, err)
			}
		}
		if st, err := os.Stat(l.Path); err != nil || st.Size() > l.Max {
			t.Fatalf("after %d files the ledger is %d bytes (%v); want at most Max = %d", i+1, st.Size(), err, l.Max)
		}
	}
	for _, p := range paths[len(paths)-10:] {
		if err := Write(p, []byte("# again\n"), 0o644, l); err != nil {
			t.Errorf("Write over %s, one of the newest written = %v; the ledger lost its note", p, err)
		}
	}
	if err := Write(paths[0], []byte("# again\n"), 0o644, l); err == nil || !strings.Contains(err.Error(), "did not write it") {
		t.Errorf("Write over the oldest file, whose note was dropped = %v; want it refused", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(l.Path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a rewrite left %s beside the ledger", e.Name())
		}
	}
}

// Two mcpcli at once (two Ledgers on one file, here goroutines) each add
// whole notes, and no note is lost, while the ledger is rewritten to stay
// bounded too: each writer writes its own files again and again, and each
// time the ledger must prove the last take its own.
func TestLedgerConcurrentWrites(t *testing.T) {
	for _, max := range []int64{0, 2 << 10} {
		t.Run(fmt.Sprintf("Max=%d", max), func(t *testing.T) {
			dir := t.TempDir()
			path := ledgerIn(t).Path
			const writers, files, takes = 2, 3, 30
			var wg sync.WaitGroup
			errs := make(chan error, writers)
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					l := &Ledger{Path: path, Max: max}
					for take := range takes {
						for i := range files {
							p := filepath.Join(dir, fmt.Sprintf("w%d-%d.flow", w, i))
							if err := Write(p, fmt.Appendf(nil, "# %d %d take %d\n", w, i, take), 0o644, l); err != nil {
								errs <- fmt.Errorf("take %d: %v", take, err)
								return
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("a concurrent Write = %v", err)
			}
			b := read(t, path)
			if notes := parseNotes([]byte(b)); len(notes) == 0 || strings.Count(b, "\n") != len(notes) {
				t.Fatalf("the ledger holds a line that is not a whole note:\n%s", b)
			}
			if max > 0 && int64(len(b)) > max {
				t.Errorf("the ledger is %d bytes; want at most Max = %d", len(b), max)
			}
			l := &Ledger{Path: path, Max: max}
			for w := range writers {
				for i := range files {
					p := filepath.Join(dir, fmt.Sprintf("w%d-%d.flow", w, i))
					if err := Write(p, []byte("# again\n"), 0o644, l); err != nil {
						t.Errorf("Write over %s, written concurrently = %v; the ledger lost its note", p, err)
					}
				}
			}
		})
	}
}

// Check gives the refusal Write would give, and writes and notes nothing:
// a run checks the file it is to write before it sends anything.
func TestCheckIsWritesVerdict(t *testing.T) {
	dir := t.TempDir()
	l := ledgerIn(t)
	mine, planted, fresh := filepath.Join(dir, "mine"), filepath.Join(dir, "planted"), filepath.Join(dir, "fresh")
	if err := Write(mine, []byte("mine\n"), 0o644, l); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte(magic), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(l.Path)
	for _, tc := range []struct {
		path string
		want string // "" when it may be written
	}{
		{mine, ""},
		{fresh, ""},
		{planted, "already exists, and mcpcli did not write it"},
	} {
		err := Check(tc.path, l)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%s) = %v, want %q", filepath.Base(tc.path), err, tc.want)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("Check wrote %s", fresh)
	}
	if after, _ := os.ReadFile(l.Path); string(after) != string(before) {
		t.Errorf("Check noted something in the ledger:\n%s", after)
	}
	if err := Write(planted, []byte("x"), 0o644, l); err == nil || err.Error() != Check(planted, l).Error() {
		t.Errorf("Write(planted) = %v; want Check's words", err)
	}
}
