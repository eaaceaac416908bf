package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk alone refuses a 2025-11-25 form with a nested object with
// -32602, and never calls its ElicitationHandler (see
// gosdk_elicit_refusal.go).
func TestGoSDKRefusesSomeFormsBeforeTheHandler(t *testing.T) {
	called := false
	got := bareAsk(t, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		called = true
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}, "elicitation/create", `{"message":"Where?","requestedSchema":{"type":"object","properties":{"addr":{"type":"object","properties":{"city":{"type":"string"}}}}}}`)
	if called || !strings.Contains(got, `"code":-32602`) {
		t.Errorf("the go-sdk alone answered a nested-object form with %s (handler called: %v); v1.8.0 refused it with -32602 before the handler: elicitOrExplain may go", got, called)
	}
}
