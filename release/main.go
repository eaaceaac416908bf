// Command release builds mcpcli's release archives: mcpcli (and, where it
// is used, mcpcli-supervise) for linux, darwin and windows on amd64 and
// arm64, one archive each (tar.gz, zip for Windows) with the README, a
// checksums.txt of their SHA-256 sums, and the Homebrew formula for them.
// The binaries carry the version, the commit and its date (mcpcli
// --version prints them). It publishes nothing.
//
//	go run ./release                 # HEAD must be a clean, tagged (vX.Y.Z) commit
//	go run ./release -snapshot       # any commit: version <last tag>-snapshot-<commit>
//	go run ./release -snapshot -check
//
// -check then checks what was built: six archives and their checksums;
// the host's own archive's mcpcli --version names the commit; and `go
// install github.com/mcpcli/mcpcli/cmd/mcpcli@latest` works, from a
// GOPROXY on disk that serves the module built from the working tree (the
// other modules come from the module cache): no network, nothing
// published. make release and make release-check run it.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/template"
	"time"
)

// modulePath is mcpcli's module.
const modulePath = "github.com/mcpcli/mcpcli"

// target is one platform a release is built for.
type target struct{ goos, goarch string }

// targets are the release's platforms: six archives.
var targets = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// commands are what each archive holds: mcpcli, and its supervisor where
// stdio servers run under one (not Windows, where a Job Object does).
func (t target) commands() []string {
	if t.goos == "windows" {
		return []string{"mcpcli"}
	}
	return []string{"mcpcli", "mcpcli-supervise"}
}

func (t target) exe(name string) string {
	if t.goos == "windows" {
		return name + ".exe"
	}
	return name
}

// archiveName is the archive of version (v1.2.3, named 1.2.3) for t.
func archiveName(version string, t target) string {
	ext := ".tar.gz"
	if t.goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("mcpcli_%s_%s_%s%s", strings.TrimPrefix(version, "v"), t.goos, t.goarch, ext)
}

// build is what is being released.
type build struct {
	version string    // v1.2.3, or v1.2.3-snapshot-abcdef1
	commit  string    // the full commit
	date    time.Time // the commit's time: builds of one commit are the same
	dirty   bool      // the working tree has changes
}

func main() {
	out := flag.String("o", "dist", "write the archives to `DIR` (emptied first)")
	snapshot := flag.Bool("snapshot", false, "build any commit, as <last tag>-snapshot-<commit>, instead of a clean tagged one")
	check := flag.Bool("check", false, "then check the archives, the host's mcpcli --version, and go install from a GOPROXY on disk")
	flag.Parse()
	if err := run(*out, *snapshot, *check); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(out string, snapshot, check bool) error {
	b, err := describe(snapshot)
	if err != nil {
		return err
	}
	fmt.Printf("release %s (commit %s, %s)\n", b.version, b.commit, b.date.Format(time.RFC3339))
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "mcpcli-release")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	sums := map[string]string{}
	for _, t := range targets {
		files := []archiveFile{{name: "README.md", mode: 0o644, data: readme}}
		for _, c := range t.commands() {
			bin := filepath.Join(work, t.goos+"_"+t.goarch, t.exe(c))
			if err := goBuild(b, t, "./cmd/"+c, bin); err != nil {
				return err
			}
			data, err := os.ReadFile(bin)
			if err != nil {
				return err
			}
			files = append(files, archiveFile{name: t.exe(c), mode: 0o755, data: data})
		}
		name := archiveName(b.version, t)
		var buf bytes.Buffer
		if t.goos == "windows" {
			err = writeZip(&buf, files, b.date)
		} else {
			err = writeTarGz(&buf, files, b.date)
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256(buf.Bytes())
		sums[name] = hex.EncodeToString(sum[:])
		fmt.Printf("  %s\n", name)
	}
	if err := os.WriteFile(filepath.Join(out, "checksums.txt"), checksums(sums), 0o644); err != nil {
		return err
	}
	formula, err := renderFormula(b.version, sums)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "mcpcli.rb"), formula, 0o644); err != nil {
		return err
	}
	fmt.Printf("  checksums.txt, mcpcli.rb\n")
	if check {
		return checkRelease(out, b, work)
	}
	return nil
}

// describe reads the version, commit and date from git.
func describe(snapshot bool) (build, error) {
	var b build
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return b, err
	}
	b.commit = commit
	at, err := git("log", "-1", "--format=%ct")
	if err != nil {
		return b, err
	}
	var secs int64
	fmt.Sscan(at, &secs)
	b.date = time.Unix(secs, 0).UTC()
	status, err := git("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return b, err
	}
	b.dirty = status != ""
	if snapshot {
		last, err := git("describe", "--tags", "--abbrev=0", "--match=v[0-9]*")
		if err != nil {
			last = "v0.0.0"
		}
		b.version = last + "-snapshot-" + commit[:7]
		if b.dirty {
			b.version += "-dirty"
			b.commit += "-dirty"
		}
		return b, nil
	}
	tag, err := git("describe", "--tags", "--exact-match", "--match=v[0-9]*", "HEAD")
	if err != nil {
		return b, errors.New("HEAD has no version tag (vX.Y.Z): tag it, or build a snapshot with -snapshot (make release-check)")
	}
	if b.dirty {
		return b, fmt.Errorf("the working tree has changes: a release of %s is built from the commit alone; commit or stash them", tag)
	}
	b.version = tag
	return b, nil
}

func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// ldflags stamp the version, commit and date into mcpcli (main.version,
// main.commit, main.date), and leave out the symbol tables.
func ldflags(b build) string {
	return fmt.Sprintf("-s -w -X main.version=%s -X main.commit=%s -X main.date=%s", b.version, b.commit, b.date.Format(time.RFC3339))
}

// goBuild builds pkg for t: static (no cgo), with no path of this machine
// in it.
func goBuild(b build, t target, pkg, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags(b), "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.goos, "GOARCH="+t.goarch, "GOFLAGS=")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s for %s/%s: %w", pkg, t.goos, t.goarch, err)
	}
	return nil
}

// archiveFile is one file of an archive.
type archiveFile struct {
	name string
	mode fs.FileMode
	data []byte
}

// writeTarGz writes files as a gzipped tar, the same bytes for the same
// files: every file dated mtime, owned by root, in the order given.
func writeTarGz(w io.Writer, files []archiveFile, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: int64(f.mode), Size: int64(len(f.data)), ModTime: mtime, Typeflag: tar.TypeReg, Uname: "root", Gname: "root", Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes files as a zip, the same bytes for the same files.
func writeZip(w io.Writer, files []archiveFile, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(f.mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// checksums is checksums.txt: "SHA256  NAME" a line, by name, as
// sha256sum -c reads it.
func checksums(sums map[string]string) []byte {
	var b bytes.Buffer
	for _, name := range sortedKeys(sums) {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	return b.Bytes()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

//go:embed homebrew/mcpcli.rb.tmpl
var homebrew embed.FS

// releaseURL is where a published release's archive is downloaded from.
func releaseURL(version, archive string) string {
	return "https://github.com/mcpcli/mcpcli/releases/download/" + version + "/" + archive
}

// renderFormula is the Homebrew formula for version's archives.
func renderFormula(version string, sums map[string]string) ([]byte, error) {
	funcs := template.FuncMap{
		"url": func(goos, goarch string) string {
			return releaseURL(version, archiveName(version, target{goos, goarch}))
		},
		"sum": func(goos, goarch string) (string, error) {
			name := archiveName(version, target{goos, goarch})
			if s, ok := sums[name]; ok {
				return s, nil
			}
			return "", fmt.Errorf("no checksum for %s", name)
		},
	}
	t, err := template.New("mcpcli.rb.tmpl").Funcs(funcs).ParseFS(homebrew, "homebrew/mcpcli.rb.tmpl")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = t.Execute(&b, struct{ Version, Number string }{version, strings.TrimPrefix(version, "v")})
	return b.Bytes(), err
}

// checkRelease checks what run built in out.
func checkRelease(out string, b build, work string) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	var archives []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tar.gz") || strings.HasSuffix(e.Name(), ".zip") {
			archives = append(archives, e.Name())
		}
	}
	if len(archives) != len(targets) {
		return fmt.Errorf("check: %d archives in %s, want %d", len(archives), out, len(targets))
	}
	sums, err := os.ReadFile(filepath.Join(out, "checksums.txt"))
	if err != nil {
		return err
	}
	for _, a := range archives {
		data, err := os.ReadFile(filepath.Join(out, a))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		if !bytes.Contains(sums, []byte(hex.EncodeToString(sum[:])+"  "+a+"\n")) {
			return fmt.Errorf("check: checksums.txt has no line for %s as it is", a)
		}
	}
	fmt.Printf("check: %d archives, each in checksums.txt\n", len(archives))

	host := target{runtime.GOOS, runtime.GOARCH}
	if !slices.Contains(targets, host) {
		fmt.Printf("check: no archive for %s/%s to run\n", host.goos, host.goarch)
	} else {
		bin, err := unpack(filepath.Join(out, archiveName(b.version, host)), host, filepath.Join(work, "unpacked"))
		if err != nil {
			return err
		}
		v, err := exec.Command(bin, "--version").Output()
		if err != nil {
			return fmt.Errorf("check: %s --version: %w", bin, err)
		}
		if !strings.Contains(string(v), "mcpcli version "+b.version+" (commit "+b.commit+",") {
			return fmt.Errorf("check: the %s archive's mcpcli --version says %q, want version %s and commit %s", archiveName(b.version, host), strings.TrimSpace(string(v)), b.version, b.commit)
		}
		fmt.Printf("check: %s", v)
	}
	return checkGoInstall(b, filepath.Join(work, "goinstall"))
}

// unpack takes the host's mcpcli out of its archive, and returns its path.
func unpack(archive string, t target, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := t.exe("mcpcli")
	var data []byte
	if t.goos == "windows" {
		zr, err := zip.OpenReader(archive)
		if err != nil {
			return "", err
		}
		defer zr.Close()
		f, err := zr.Open(name)
		if err != nil {
			return "", err
		}
		data, err = io.ReadAll(f)
		if err != nil {
			return "", err
		}
	} else {
		f, err := os.Open(archive)
		if err != nil {
			return "", err
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			return "", err
		}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if err != nil {
				return "", fmt.Errorf("%s: no %s in it (%v)", archive, name, err)
			}
			if h.Name == name {
				if data, err = io.ReadAll(tr); err != nil {
					return "", err
				}
				break
			}
		}
	}
	bin := filepath.Join(dir, name)
	return bin, os.WriteFile(bin, data, 0o755)
}

// pseudoVersion is the Go pseudo-version of a commit with no tag before it.
func pseudoVersion(commit string, at time.Time) string {
	return "v0.0.0-" + at.UTC().Format("20060102150405") + "-" + commit[:12]
}

// checkGoInstall serves the module, as it is in the working tree, from a
// GOPROXY on disk (the other modules from the module cache's own
// download directory), and runs `go install .../cmd/mcpcli@latest` and
// the mcpcli it installed.
func checkGoInstall(b build, dir string) error {
	commit := strings.TrimSuffix(b.commit, "-dirty")
	version := pseudoVersion(commit, b.date)
	proxy := filepath.Join(dir, "proxy")
	if err := writeProxy(proxy, version, b.date); err != nil {
		return err
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return err
	}
	gobin := filepath.Join(dir, "bin")
	// A module cache of its own, filled from the proxy on disk and, for
	// every other module, from this machine's module cache read as a
	// proxy (its download directory is one): no network, and nothing of
	// this check left in the real cache. No checksum database: the
	// other modules were checked when they came into this machine's
	// cache, and this build of mcpcli is in none.
	env := append(os.Environ(),
		"GOPROXY="+fileURL(proxy)+","+fileURL(filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download")),
		"GOMODCACHE="+filepath.Join(dir, "modcache"), "GOSUMDB=off",
		// As the release builds: their compiled packages are reused.
		"GOFLAGS=-trimpath", "CGO_ENABLED=0",
		"GOWORK=off", "GOTOOLCHAIN=local", "GOBIN="+gobin,
	)
	defer func() {
		// The module cache is read-only; go clean empties it.
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = env
		clean.Run()
	}()
	// The README's line, then the one that brings mcpcli-supervise too.
	for _, pkg := range []string{"/cmd/mcpcli@latest", "/cmd/...@latest"} {
		install := exec.Command("go", "install", modulePath+pkg)
		install.Env = env
		install.Dir = dir // outside the module: go install pkg@version ignores it anyway
		install.Stdout, install.Stderr = os.Stderr, os.Stderr
		if err := install.Run(); err != nil {
			return fmt.Errorf("check: go install %s%s from a GOPROXY on disk: %w", modulePath, pkg, err)
		}
	}
	if _, err := os.Stat(filepath.Join(gobin, "mcpcli-supervise")); err != nil {
		return fmt.Errorf("check: go install %s/cmd/...@latest did not install mcpcli-supervise: %w", modulePath, err)
	}
	v, err := exec.Command(filepath.Join(gobin, "mcpcli"), "--version").Output()
	if err != nil {
		return fmt.Errorf("check: the go-installed mcpcli --version: %w", err)
	}
	if !strings.Contains(string(v), "mcpcli version "+version+" (commit "+commit[:12]+",") {
		return fmt.Errorf("check: the go-installed mcpcli --version says %q, want %s and commit %s", strings.TrimSpace(string(v)), version, commit[:12])
	}
	fmt.Printf("check: go install %s/cmd/mcpcli@latest (and cmd/...@latest, with mcpcli-supervise): %s", modulePath, v)
	return nil
}

func fileURL(p string) string { return "file://" + filepath.ToSlash(p) }

// writeProxy writes a module proxy in dir (the GOPROXY protocol, on disk)
// that serves the module at version: its go.mod, its info and a zip of
// the files git tracks, as they are in the working tree.
func writeProxy(dir, version string, at time.Time) error {
	v := filepath.Join(dir, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, at.UTC()})
	if err != nil {
		return err
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		return err
	}
	tracked, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	var files []string
	for _, f := range strings.Split(string(tracked), "\x00") {
		if st, err := os.Lstat(f); f != "" && err == nil && st.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	var z bytes.Buffer
	if err := moduleZip(&z, modulePath, version, files, os.ReadFile); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		version + ".info": info,
		version + ".mod":  gomod,
		version + ".zip":  z.Bytes(),
		"list":            []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(v, name), data, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, filepath.FromSlash(modulePath), "@latest"), info, 0o644)
}

// moduleZip writes the module zip of mod at version: the files, under
// "mod@version/". What a module zip may not hold (another module's files,
// a vendor directory below the root) is not in mcpcli's tree; a file
// that is refuses the zip.
func moduleZip(w io.Writer, mod, version string, files []string, read func(string) ([]byte, error)) error {
	zw := zip.NewWriter(w)
	prefix := mod + "@" + version + "/"
	for _, f := range files {
		name := path.Clean(filepath.ToSlash(f))
		if strings.HasPrefix(name, "../") || path.IsAbs(name) || path.Base(name) == "go.mod" && name != "go.mod" || strings.Contains("/"+name, "/vendor/") && !strings.HasPrefix(name, "vendor/") {
			return fmt.Errorf("%s cannot be in the module zip", f)
		}
		data, err := read(f)
		if err != nil {
			return err
		}
		fw, err := zw.Create(prefix + name)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}
