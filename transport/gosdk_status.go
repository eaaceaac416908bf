package transport

// Works around go-sdk v1.8.0: over Streamable HTTP it reads no body of a
// 500, 502, 503, 504 or 429 answer, and says only the status text
// ("Internal Server Error"), while many servers put the JSON-RPC error
// that says why there. gosdk_status_test.go shows the go-sdk alone
// losing that error: when it fails, the go-sdk reads the body, and
// deliverRPCError can go.

import (
	"bytes"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// bodyIgnored reports the statuses whose bodies the go-sdk does not read
// (it treats them as transient and reports only the status text).
func bodyIgnored(status int) bool {
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout, http.StatusTooManyRequests:
		return true
	}
	return false
}

// deliverRPCError lets the JSON-RPC error in an error response reach the
// caller whatever the HTTP status: servers disagree on the status, and the
// go-sdk would otherwise drop a 5xx or 429 body and say only "Internal
// Server Error". When the body is a JSON-RPC error response to this very
// request (same id), the response is handed on as 200 so that the error is
// delivered as the request's answer. Anything else is left as it was.
func deliverRPCError(resp *http.Response, id jsonrpc.ID) {
	if !id.IsValid() {
		return
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	rest := resp.Body
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(b), rest), rest}
	if err != nil {
		return
	}
	// Read as the go-sdk will read it.
	if got := Decode(bytes.TrimSpace(b)); got.Kind != KindError || got.ID != id {
		return
	}
	resp.StatusCode = http.StatusOK
	resp.Status = "200 OK"
}
