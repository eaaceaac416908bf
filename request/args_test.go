package request

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// --args is a JSON object, or @FILE holding one; a file that cannot be
// read and what is not an object are errors of their own kinds.
func TestReadArgs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "args.json")
	if err := os.WriteFile(file, []byte(`{"city": "Lisbon", "nights": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		raw  string
		want map[string]any
	}{
		{"", map[string]any{}},
		{`{"city": "Porto"}`, map[string]any{"city": "Porto"}},
		{"@" + file, map[string]any{"city": "Lisbon", "nights": json.Number("2")}},
	} {
		got, err := ReadArgs(ctx, tc.raw)
		if err != nil {
			t.Errorf("ReadArgs(%q) = %v", tc.raw, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ReadArgs(%q) (-want +got):\n%s", tc.raw, diff)
		}
	}
	var fe *ArgsFileError
	if _, err := ReadArgs(ctx, "@"+filepath.Join(dir, "nope.json")); !errors.As(err, &fe) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadArgs(@missing) = %v; want an *ArgsFileError wrapping the missing file", err)
	}
	var oe *ObjectError
	if _, err := ReadArgs(ctx, `["a"]`); !errors.As(err, &oe) {
		t.Errorf("ReadArgs(an array) = %v; want an *ObjectError", err)
	}
}
