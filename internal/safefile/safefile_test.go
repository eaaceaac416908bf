package safefile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func ours(head []byte) bool { return strings.HasPrefix(string(head), "#!/bin/sh\n# mine") }

// Write creates a new file, replaces one it wrote, and refuses a link, a
// file someone else wrote, or anything not a regular file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "script.sh")
	if err := Write(p, []byte("#!/bin/sh\n# mine 1\n"), 0o700, ours); err != nil {
		t.Fatalf("Write(new) = %v", err)
	}
	if err := Write(p, []byte("#!/bin/sh\n# mine 2\n"), 0o700, ours); err != nil {
		t.Fatalf("Write(over its own) = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "#!/bin/sh\n# mine 2\n" {
		t.Errorf("after writing twice the file holds %q", b)
	}
	if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o700 {
		t.Errorf("mode = %v, want 0700", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the directory holds %d entries; want the script and the victim only (no temporary file left)", len(entries))
	}

	refused := map[string]func(string){
		"a file it did not write": func(p string) { os.WriteFile(p, []byte("main.go\n"), 0o644) },
		"a symlink to a file":     func(p string) { os.Symlink(victim, p) },
		"a dangling symlink":      func(p string) { os.Symlink(filepath.Join(dir, "nowhere"), p) },
		"a directory":             func(p string) { os.Mkdir(p, 0o755) },
	}
	for name, make := range refused {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		make(p)
		err := Write(p, []byte("#!/bin/sh\n# mine\n"), 0o700, ours)
		if err == nil {
			t.Errorf("Write over %s = nil; want it refused", name)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep me" {
			t.Fatalf("Write over %s wrote through to %s: %q", name, victim, b)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); err == nil {
		t.Errorf("a dangling symlink's target was created")
	}
	// A symlink to a script of ours is still a symlink: refused.
	link := filepath.Join(dir, "link.sh")
	os.Symlink(p, link)
	if err := Write(link, []byte("#!/bin/sh\n# mine 3\n"), 0o700, ours); err == nil {
		t.Errorf("Write through a link to a script of its own = nil; want it refused")
	}
}
