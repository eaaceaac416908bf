package schema

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// keywords is written out; it must be what the validator's type says.
func TestKeywordsAreTheValidators(t *testing.T) {
	want := map[string]string{}
	ty := reflect.TypeFor[jsonschema.Schema]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			want[strings.ToLower(name)] = name
		}
	}
	for _, k := range []string{"type", "items", "dependencies", "enumNames", "definitions"} {
		want[strings.ToLower(k)] = k
	}
	if got := keywords.Get(); !reflect.DeepEqual(got, want) {
		t.Errorf("keywords.Get() = %v\nwant what jsonschema.Schema's fields say (and mcpcli's few more): %v", got, want)
	}
}
