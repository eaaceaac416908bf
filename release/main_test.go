package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestSixArchivesNamedAsGoReleaserNamesThem(t *testing.T) {
	var got []string
	for _, tg := range targets {
		got = append(got, archiveName("v1.2.3", tg))
	}
	want := []string{
		"mcpcli_1.2.3_linux_amd64.tar.gz", "mcpcli_1.2.3_linux_arm64.tar.gz",
		"mcpcli_1.2.3_darwin_amd64.tar.gz", "mcpcli_1.2.3_darwin_arm64.tar.gz",
		"mcpcli_1.2.3_windows_amd64.zip", "mcpcli_1.2.3_windows_arm64.zip",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("archive names (-want +got):\n%s", diff)
	}
}

func TestEachArchiveHoldsWhatItsPlatformRuns(t *testing.T) {
	for _, tc := range []struct {
		t    target
		want []string
	}{
		{target{"linux", "amd64"}, []string{"mcpcli", "mcpcli-supervise"}},
		{target{"darwin", "arm64"}, []string{"mcpcli", "mcpcli-supervise"}},
		{target{"windows", "amd64"}, []string{"mcpcli"}}, // a Job Object, no supervisor
	} {
		if diff := cmp.Diff(tc.want, tc.t.commands()); diff != "" {
			t.Errorf("%v.commands() (-want +got):\n%s", tc.t, diff)
		}
	}
	if got := (target{"windows", "arm64"}).exe("mcpcli"); got != "mcpcli.exe" {
		t.Errorf("exe(mcpcli) on Windows = %q, want mcpcli.exe", got)
	}
}

var files = []archiveFile{
	{name: "README.md", mode: 0o644, data: []byte("# mcpcli\n")},
	{name: "mcpcli", mode: 0o755, data: []byte("\x7fELF...")},
}

func TestArchivesAreTheSameBytesForTheSameFiles(t *testing.T) {
	at := time.Date(2026, 12, 1, 6, 4, 0, 0, time.UTC)
	for name, write := range map[string]func(io.Writer, []archiveFile, time.Time) error{"tar.gz": writeTarGz, "zip": writeZip} {
		var a, b bytes.Buffer
		if err := write(&a, files, at); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		if err := write(&b, files, at); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("two %s archives of the same files differ: a release would not be reproducible", name)
		}
	}
}

func TestTarGzKeepsModesAndContents(t *testing.T) {
	var buf bytes.Buffer
	if err := writeTarGz(&buf, files, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for _, f := range files {
		h, err := tr.Next()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		if h.Name != f.name || h.FileInfo().Mode().Perm() != f.mode || !bytes.Equal(data, f.data) || h.Uid != 0 {
			t.Errorf("tar entry %s, mode %v, uid %d, %q; want %s, %v, 0, %q", h.Name, h.FileInfo().Mode().Perm(), h.Uid, data, f.name, f.mode, f.data)
		}
	}
}

func TestZipKeepsModesAndContents(t *testing.T) {
	var buf bytes.Buffer
	if err := writeZip(&buf, files, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		rc, err := zr.File[i].Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		if zr.File[i].Name != f.name || zr.File[i].Mode().Perm() != f.mode || !bytes.Equal(data, f.data) {
			t.Errorf("zip entry %s, mode %v, %q; want %s, %v, %q", zr.File[i].Name, zr.File[i].Mode().Perm(), data, f.name, f.mode, f.data)
		}
	}
}

func TestChecksumsReadAsSha256sumWritesThem(t *testing.T) {
	got := string(checksums(map[string]string{"b.zip": "22", "a.tar.gz": "11"}))
	if want := "11  a.tar.gz\n22  b.zip\n"; got != want {
		t.Errorf("checksums = %q, want %q", got, want)
	}
}

func sums(version string) map[string]string {
	m := map[string]string{}
	for i, tg := range targets {
		m[archiveName(version, tg)] = strings.Repeat(string(rune('a'+i)), 64)
	}
	return m
}

func TestHomebrewFormula(t *testing.T) {
	got, err := renderFormula("v1.2.3", sums("v1.2.3"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "mcpcli.rb")
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("the formula for v1.2.3 (-want +got; go test ./release -update rewrites it):\n%s", diff)
	}
}

func TestHomebrewFormulaRefusesAMissingChecksum(t *testing.T) {
	s := sums("v1.2.3")
	delete(s, "mcpcli_1.2.3_darwin_arm64.tar.gz")
	if _, err := renderFormula("v1.2.3", s); err == nil || !strings.Contains(err.Error(), "no checksum for mcpcli_1.2.3_darwin_arm64.tar.gz") {
		t.Errorf("renderFormula without darwin/arm64's sum = %v; want an error naming it", err)
	}
}

func TestPseudoVersionIsGos(t *testing.T) {
	got := pseudoVersion("5b59196c5f443c886deac40693858e9002647eca", time.Date(2026, 12, 1, 23, 18, 28, 0, time.FixedZone("CET", 3600)))
	if want := "v0.0.0-20261201221828-5b59196c5f44"; got != want {
		t.Errorf("pseudoVersion = %q, want %q (UTC time, 12 hex digits)", got, want)
	}
}

func TestModuleZip(t *testing.T) {
	read := func(name string) ([]byte, error) { return []byte("content of " + name), nil }
	var buf bytes.Buffer
	if err := moduleZip(&buf, modulePath, "v1.0.0", []string{"go.mod", "cmd/mcpcli/main.go", "README.md"}, read); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{"github.com/mcpcli/mcpcli@v1.0.0/go.mod", "github.com/mcpcli/mcpcli@v1.0.0/cmd/mcpcli/main.go", "github.com/mcpcli/mcpcli@v1.0.0/README.md"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("module zip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"../x.go", "tools/go.mod", "internal/vendor/x.go"} {
		if err := moduleZip(io.Discard, modulePath, "v1.0.0", []string{bad}, read); err == nil {
			t.Errorf("moduleZip with %s = nil error; a module zip cannot hold it", bad)
		}
	}
}

// A release is built from a clean commit tagged vX.Y.Z; a snapshot from
// anything, said to be one.
func TestDescribeNeedsACleanTaggedCommit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_DATE", "2026-12-01T06:04:00Z")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	sh := func(args ...string) {
		t.Helper()
		if _, err := git(args...); err != nil {
			t.Fatal(err)
		}
	}
	sh("init", "-q")
	os.WriteFile("go.mod", []byte("module example.com/m\n"), 0o644)
	sh("add", "go.mod")
	sh("commit", "-q", "-m", "first")
	if _, err := describe(false); err == nil || !strings.Contains(err.Error(), "HEAD has no version tag") {
		t.Errorf("describe of an untagged commit = %v; want it refused, naming -snapshot", err)
	}
	sh("tag", "v1.2.3")
	b, err := describe(false)
	if err != nil || b.version != "v1.2.3" || len(b.commit) != 40 || !b.date.Equal(time.Date(2026, 12, 1, 6, 4, 0, 0, time.UTC)) {
		t.Errorf("describe of v1.2.3 = %+v, %v; want v1.2.3, its commit, 2026-12-01T06:04:00Z", b, err)
	}
	os.WriteFile("go.mod", []byte("module example.com/changed\n"), 0o644)
	if _, err := describe(false); err == nil || !strings.Contains(err.Error(), "the working tree has changes") {
		t.Errorf("describe with a change = %v; want it refused", err)
	}
	if b, err := describe(true); err != nil || b.version != "v1.2.3-snapshot-"+b.commit[:7]+"-dirty" || !strings.HasSuffix(b.commit, "-dirty") {
		t.Errorf("describe -snapshot with a change = %+v, %v; want v1.2.3-snapshot-<commit>-dirty", b, err)
	}
}
