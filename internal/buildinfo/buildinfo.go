// Package buildinfo says which mcpcli a binary is, for --version.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Describe says which mcpcli this is, from the linker's values and the
// build info: a release's flags first; then what `go install
// github.com/mcpcli/mcpcli/cmd/mcpcli@v1.2.3` records (the module's
// version, and for a pseudo-version its commit and time); then a build in
// a clone's vcs.revision, vcs.time and vcs.modified.
func Describe(version, commit, date string, info *debug.BuildInfo) string {
	goVersion := runtime.Version()
	if info != nil {
		goVersion = info.GoVersion
		if v := info.Main.Version; (version == "" || version == "dev") && v != "" && v != "(devel)" {
			version = v
			if c, d, ok := pseudoVersion(v); ok {
				commit, date = or(commit, c), or(date, d)
			}
		}
		var rev, at string
		var modified bool
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" && modified {
			rev += "-dirty"
		}
		commit, date = or(commit, rev), or(date, at)
	}
	var about []string
	if commit != "" {
		about = append(about, "commit "+commit)
	}
	if date != "" {
		about = append(about, "built "+date)
	}
	about = append(about, fmt.Sprintf("%s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH))
	return fmt.Sprintf("%s (%s)", version, strings.Join(about, ", "))
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// pseudoVersion reads a Go pseudo-version (v0.0.0-20261201060400-abcdef123456,
// v1.2.4-0.20261201060400-abcdef123456, v1.2.3-pre.0.2026…): the commit's
// first 12 hex digits and its time, in UTC.
func pseudoVersion(v string) (commit, date string, ok bool) {
	v = strings.TrimSuffix(v, "+incompatible")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 || strings.Trim(v[i+1:], "0123456789abcdef") != "" {
		return "", "", false
	}
	commit, rest := v[i+1:], v[:i]
	if len(rest) < 14 {
		return "", "", false
	}
	ts := rest[len(rest)-14:]
	if strings.Trim(ts, "0123456789") != "" || len(rest) > 14 && rest[len(rest)-15] != '-' && rest[len(rest)-15] != '.' {
		return "", "", false
	}
	date = fmt.Sprintf("%s-%s-%sT%s:%s:%sZ", ts[0:4], ts[4:6], ts[6:8], ts[8:10], ts[10:12], ts[12:14])
	return commit, date, true
}
