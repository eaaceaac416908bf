package transport

// Works around go-sdk v1.8.0: over Streamable HTTP at 2026-07-28 it
// mirrors a tools/call's x-mcp-header arguments in Mcp-Param-* headers
// only for a tool it listed itself in this session; a definition mcpcli
// kept from an earlier run (the tool cache) was not, and its call would
// go without them. gosdk_paramheaders_test.go shows the go-sdk alone
// sending none for a tool it did not list: when it fails, the go-sdk
// mirrors them from the call itself, and this file can go.

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

type toolSchemaKey struct{}

// WithToolSchema returns ctx carrying the inputSchema of the tool a
// tools/call made with it calls. Over Streamable HTTP at 2026-07-28 the
// arguments it annotates with x-mcp-header are mirrored in Mcp-Param-*
// headers (streamable-http, "Custom Headers from Tool Parameters"): the
// go-sdk mirrors only tools it listed itself in this session, and a
// definition kept from an earlier run (the tool cache) was not.
func WithToolSchema(ctx context.Context, inputSchema json.RawMessage) context.Context {
	if len(inputSchema) == 0 {
		return ctx
	}
	return context.WithValue(ctx, toolSchemaKey{}, inputSchema)
}

const paramHeaderPrefix = "Mcp-Param-"

// paramHeaders sets on h the Mcp-Param-* headers of a tools/call (sent,
// the body's message) whose context carries the tool's inputSchema, each
// one the go-sdk has not set. It reports whether it set any.
func paramHeaders(ctx context.Context, h http.Header, sent Envelope) bool {
	schema, _ := ctx.Value(toolSchemaKey{}).(json.RawMessage)
	if schema == nil || sent.Kind != KindRequest || sent.Method != "tools/call" {
		return false
	}
	args := jsonpeek.Get(sent.Params, "arguments")
	set := false
	annotated(schema, nil, func(path []string, name string) {
		key := http.CanonicalHeaderKey(paramHeaderPrefix + name)
		if h.Get(key) != "" {
			return
		}
		v := args
		for _, p := range path {
			v = jsonpeek.Get(v, p)
		}
		if s, ok := headerValue(v); ok {
			h.Set(key, s)
			set = true
		}
	})
	return set
}

// annotated calls fn with the path and header name of each property of
// schema annotated x-mcp-header, reached through "properties" alone (the
// only places the annotation is valid; a tool with it anywhere else is
// left out of the list, so never called).
func annotated(schema []byte, path []string, fn func(path []string, name string)) {
	props := jsonpeek.Get(schema, "properties")
	if len(props) == 0 || props[0] != '{' {
		return
	}
	_ = jsonpeek.Object(props, func(k string, prop []byte) bool {
		p := append(path[:len(path):len(path)], k)
		if name, ok := jsonpeek.String(jsonpeek.Get(prop, "x-mcp-header")); ok && name != "" {
			fn(p, name)
		}
		annotated(prop, p, fn)
		return true
	})
}

// headerValue is an argument as a header value (streamable-http, "Value
// Encoding"): a string as it is, an integer in decimal, a boolean as true
// or false; Base64 in =?base64?…?= when the value is not plain visible
// ASCII. Absent, null and other values give no header.
func headerValue(v []byte) (string, bool) {
	if len(v) == 0 || jsonpeek.IsNull(v) {
		return "", false
	}
	var s string
	switch v[0] {
	case '"':
		var ok bool
		if s, ok = jsonpeek.String(v); !ok {
			return "", false
		}
	case 't', 'f':
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return "", false
		}
		s = strconv.FormatBool(b)
	default:
		var f float64
		if json.Unmarshal(v, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53-1 {
			return "", false
		}
		s = strconv.FormatInt(int64(f), 10)
	}
	if needsBase64(s) {
		s = encodeBase64(s)
	}
	return s, true
}
