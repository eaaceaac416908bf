package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk alone refuses SEP-1330's titled multi-select written as the
// spec's example writes it (see gosdk_sep1330.go).
func TestGoSDKRefusesATitledMultiSelectWithItemsType(t *testing.T) {
	called := false
	got := bareAsk(t, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		called = true
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}, "elicitation/create", `{"message":"Pick some","requestedSchema":{"type":"object","properties":{"titledMulti":{"type":"array","items":{"type":"string","anyOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"}]}}}}}`)
	if called || !strings.Contains(got, `"code":-32602`) {
		t.Errorf("the go-sdk alone answered the titled multi-select with %s (handler called: %v); v1.8.0 refused it with -32602: titledMultiForSDK may go", got, called)
	}
}
