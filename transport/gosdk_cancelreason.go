package transport

// Works around go-sdk v1.8.0: the notifications/cancelled it sends for an
// abandoned request gives as its reason the context's error ("context
// canceled", "context deadline exceeded"), which says nothing to the
// server's author; mcpcli puts its own words there (the timeout that ran
// out, Ctrl+C). gosdk_cancelreason_test.go shows the go-sdk alone saying
// "context canceled": when it fails, the go-sdk takes a reason (or says
// more), and withReason must follow.

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

type cancelReasonKey struct{}

// WithCancelReason returns ctx carrying why a request made with it would
// be cancelled: when the go-sdk sends notifications/cancelled for it, the
// transport puts reason() (if not empty) in the notification instead of
// the go-sdk's own "context canceled".
func WithCancelReason(ctx context.Context, reason func() string) context.Context {
	return context.WithValue(ctx, cancelReasonKey{}, reason)
}

// cancelReason is the reason ctx carries, or "".
func cancelReason(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	if f, ok := ctx.Value(cancelReasonKey{}).(func() string); ok {
		return f()
	}
	return ""
}

// withReason rewrites a notifications/cancelled message's reason from ctx.
func withReason(ctx context.Context, msg jsonrpc.Message) jsonrpc.Message {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "notifications/cancelled" {
		return msg
	}
	reason := cancelReason(ctx)
	if reason == "" {
		return msg
	}
	var p map[string]any
	if json.Unmarshal(req.Params, &p) != nil || p == nil {
		return msg
	}
	p["reason"] = reason
	b, err := json.Marshal(p)
	if err != nil {
		return msg
	}
	c := *req
	c.Params = b
	return &c
}

// bodyWithReason is the body of sent (an HTTP request's one message) with
// the reason ctx carries, when it is a notifications/cancelled to rewrite
// (ok set).
func bodyWithReason(ctx context.Context, sent Envelope) (body []byte, ok bool) {
	if sent.Method != "notifications/cancelled" || cancelReason(ctx) == "" {
		return nil, false
	}
	msg, err := sent.Message()
	if err != nil {
		return nil, false
	}
	m2 := withReason(ctx, msg)
	if m2 == msg {
		return nil, false
	}
	b, err := jsonrpc.EncodeMessage(m2)
	if err != nil {
		return nil, false
	}
	return b, true
}
