package client_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk's CallToolParams has no "task" member (see gosdk_tasks.go).
func TestGoSDKCallToolParamsHaveNoTask(t *testing.T) {
	typ := reflect.TypeFor[mcp.CallToolParams]()
	for i := range typ.NumField() {
		if name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); name == "task" {
			t.Errorf("the go-sdk's CallToolParams has a task member (%s); v1.8.0 had none: augmentCall may go", typ.Field(i).Name)
		}
	}
}
