package client_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk alone answers a 2025-11-25 server's roots/list with an empty
// list when the client never declared roots (see gosdk_undeclared.go).
func TestGoSDKAnswersAnUndeclaredRootsList(t *testing.T) {
	got := bareAsk(t, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}, "roots/list", `{}`)
	if want := `{"roots":[]}`; got != want {
		t.Errorf("the go-sdk alone answered an undeclared roots/list with %s; v1.8.0 answered %s: refuseUndeclared's roots case may go", got, want)
	}
}
