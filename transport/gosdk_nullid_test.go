package transport

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The go-sdk alone cannot read an error response with id null (see
// gosdk_nullid.go).
func TestGoSDKCannotReadANullIDError(t *testing.T) {
	if m, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)); err == nil {
		t.Errorf("the go-sdk alone reads an error with id null as %#v; v1.8.0 refused it: nullID may go", m)
	}
}
