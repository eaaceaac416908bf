//go:build unix

package config

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Config files are read bounded, only when regular, and a FIFO or a device
// is refused at once, wherever it is.
func TestHostileFilesAreRefusedAtOnce(t *testing.T) {
	tests := []struct {
		name  string
		make  func(m *machine, path string)
		owner bool   // check owners, as SystemOptions does
		want  string // in the problem List reports for the file
	}{
		{"a symlink to /dev/zero", func(m *machine, p string) { symlink(t, "/dev/zero", p) }, false, "cannot be read: is a character device, not a regular file"},
		{"a FIFO", func(m *machine, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}, false, "cannot be read: is a FIFO (named pipe), not a regular file"},
		{"a symlink to a FIFO", func(m *machine, p string) {
			fifo := m.path("fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			symlink(t, fifo, p)
		}, false, "cannot be read: is a FIFO (named pipe), not a regular file"},
		{"a directory", func(m *machine, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, false, "cannot be read: is a directory, not a regular file"},
		{"a file past the bound", func(m *machine, p string) {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			f.Truncate(MaxFileSize + 1) // sparse: costs no disk
			f.Close()
		}, false, "cannot be read: is larger than 16 MiB, the most mcpcli reads of a config file"},
		{"a symlink another user owns, to a file of yours", func(m *machine, p string) {
			if os.Getuid() != 0 {
				t.Skip("making a file of another user needs root")
			}
			symlink(t, m.write("mine.json", `{"mcpServers": {"x": {"command": "planted"}}}`), p)
			if err := os.Lchown(p, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, true, "skipped: it is a symbolic link, and it belongs to another user (uid 4242), not to you (uid 0)"},
		{"a symlink another user owns, to /dev/zero", func(m *machine, p string) {
			if os.Getuid() != 0 {
				t.Skip("making a file of another user needs root")
			}
			symlink(t, "/dev/zero", p)
			if err := os.Lchown(p, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, true, "skipped: it is a symbolic link, and it belongs to another user (uid 4242)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			p := m.path("work/.mcp.json") // above the working directory
			tt.make(m, p)
			m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"x": {"command": "mine"}}}`)
			o := m.options()
			if tt.owner {
				o.Owner = ownedBy(os.Getuid())
			}
			done := make(chan struct{})
			var srv *Server
			var err error
			var problems []error
			go func() {
				defer close(done)
				c, lerr := Load(o)
				if lerr != nil {
					err = lerr
					return
				}
				srv, err = c.Server("x")
				_, problems = c.List()
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("reading the config files still runs after 30s: %s hangs them", tt.name)
			}
			if err != nil || srv.Command != "mine" {
				t.Errorf("Server(x) = %+v, %v; want the person's own, whatever is above", srv, err)
			}
			var got []string
			for _, pr := range problems {
				got = append(got, pr.Error())
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], p+": "+tt.want) {
				t.Errorf("List() problems = %q; want one: %s: %s", got, p, tt.want)
			}
		})
	}
}

// /dev/zero as a config file costs nothing: it is refused before a byte is
// read.
func TestDevZeroCostsNothing(t *testing.T) {
	m := newMachine(t)
	symlink(t, "/dev/zero", m.path("work/proj/.mcp.json"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := m.load()
	c.List()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("listing servers with /dev/zero as .mcp.json allocated %d bytes; want under 1 MiB", got)
	}
}
