package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestDescribeBuild(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		info                  *debug.BuildInfo
		want                  string
	}{
		{"a release's flags", "v1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-12-01T06:04:00Z",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"v1.2.3 (commit 0123456789abcdef0123456789abcdef01234567, built 2026-12-01T06:04:00Z, go1.26.8 " + platform + ")"},
		{"go install of a tag", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			"v1.2.3 (go1.26.8 " + platform + ")"},
		{"go install @latest of a commit", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201060400-abcdef123456"}},
			"v0.0.0-20261201060400-abcdef123456 (commit abcdef123456, built 2026-12-01T06:04:00Z, go1.26.8 " + platform + ")"},
		{"go build in a clone", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs("fedcba98", "2026-11-30T10:00:00Z", "true")},
			"dev (commit fedcba98-dirty, built 2026-11-30T10:00:00Z, go1.26.8 " + platform + ")"},
		{"nothing known", "dev", "", "", nil, "dev (" + runtime.Version() + " " + platform + ")"},
	} {
		if got := Describe(tc.version, tc.commit, tc.date, tc.info); got != tc.want {
			t.Errorf("%s: Describe = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPseudoVersion(t *testing.T) {
	for _, tc := range []struct {
		v, commit, date string
		ok              bool
	}{
		{"v0.0.0-20261201060400-abcdef123456", "abcdef123456", "2026-12-01T06:04:00Z", true},
		{"v1.2.4-0.20261201060400-abcdef123456", "abcdef123456", "2026-12-01T06:04:00Z", true},
		{"v1.2.3-pre.0.20261201060400-abcdef123456+incompatible", "abcdef123456", "2026-12-01T06:04:00Z", true},
		{"v1.2.3", "", "", false},
		{"v1.2.3-rc.1", "", "", false},
		{"v1.2.3-x20261201060400-abcdef123456", "", "", false},
		{"v0.0.0-20261201060400-ABCDEF123456", "", "", false},
	} {
		commit, date, ok := pseudoVersion(tc.v)
		if commit != tc.commit || date != tc.date || ok != tc.ok {
			t.Errorf("pseudoVersion(%q) = %q, %q, %v; want %q, %q, %v", tc.v, commit, date, ok, tc.commit, tc.date, tc.ok)
		}
	}
}
