package client

// Works around go-sdk v1.8.0: its Client refuses some 2025-11-25
// elicitation/create forms with -32602 before the ElicitationHandler is
// called (validateElicitSchema: a nested object, enumNames that do not
// match enum...), so the person would never see what the server asked.
// The receiving middleware notices the refusal (the handler was not
// reached) and shows the ask anyway, as one mcpcli cannot show, for the
// person to decline or cancel. gosdk_elicit_refusal_test.go shows the
// go-sdk alone refusing such a form: when it fails, the go-sdk takes it,
// and elicitOrExplain can go.

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyReached marks, in a legacy elicitation/create's context, that the
// go-sdk handed the request to answerLegacy, and keeps what it answered.
type legacyReached struct{}

// legacyAnswer is what answerLegacy gave the go-sdk for one request.
type legacyAnswer struct {
	reached bool
	ask     Ask
	sent    *mcp.ElicitResult
}

// elicitOrExplain lets the go-sdk answer a 2025-11-25 elicitation/create
// as usual; when the go-sdk refuses the ask before mcpcli sees it (a form
// schema it will not take: a nested object, enumNames that do not match),
// the person is shown the ask anyway, as mcpcli cannot show it, and picks
// decline or cancel, as on the 2026-07-28 path: never a silent refusal.
func (s *Session) elicitOrExplain(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler) (mcp.Result, error) {
	la := &legacyAnswer{}
	if er, ok := req.(*mcp.ElicitRequest); ok && er.Params != nil {
		er.Params.RequestedSchema = titledMultiForSDK(er.Params.RequestedSchema)
	}
	res, err := next(context.WithValue(ctx, legacyReached{}, la), method, req)
	if err == nil {
		la.keepLeftOut(res)
	}
	var jerr *jsonrpc.Error
	er, ok := req.(*mcp.ElicitRequest)
	if err == nil || la.reached || !ok || er.Params == nil || !errors.As(err, &jerr) || jerr.Code != jsonrpc.CodeInvalidParams {
		return res, err
	}
	if m := er.Params.Mode; m != "" && m != "form" {
		return res, err // a URL ask the go-sdk refused: its error says why
	}
	return s.answerLegacyWith(ctx, er, jerr.Message)
}
