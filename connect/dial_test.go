package connect

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/mcpcli/mcpcli/transport"
)

// A server's tools are kept under the cache directory, when there is one.
func TestToolCache(t *testing.T) {
	h := &transport.HTTP{URL: "https://x.example/mcp"}
	dir := t.TempDir()
	if tc := ToolCache(h, func() (string, error) { return dir, nil }); tc == nil || tc.Store == nil || tc.Store.Dir != filepath.Join(dir, "tools") {
		t.Errorf("ToolCache(%s) = %+v; want one kept in %s", dir, tc, filepath.Join(dir, "tools"))
	}
	for name, d := range map[string]func() (string, error){
		"no cache directory": nil,
		"failing":            func() (string, error) { return "", errors.New("no home") },
		"empty":              func() (string, error) { return "", nil },
	} {
		if tc := ToolCache(h, d); tc != nil {
			t.Errorf("ToolCache(%s) = %+v; want none", name, tc)
		}
	}
}
