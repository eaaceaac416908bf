package client_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk alone adds a default outside its own enum to an accepted
// 2025-11-25 answer that leaves the field out (see
// gosdk_elicit_defaults.go).
func TestGoSDKAddsEveryDefaultToAnAcceptedAnswer(t *testing.T) {
	got := bareAsk(t, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
	}}, "elicitation/create", `{"message":"Pick","requestedSchema":{"type":"object","properties":{"c":{"type":"string","enum":["a","b"],"default":"zzz"}}}}`)
	if want := `{"action":"accept","content":{"c":"zzz"}}`; got != want {
		t.Errorf("the go-sdk alone sent %s; v1.8.0 sent %s, a default outside its enum added: keepLeftOut may go", got, want)
	}
}
