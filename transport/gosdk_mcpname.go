package transport

import (
	"net/http"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// Works around go-sdk v1.8.0: the Mcp-Name header it sets on a 2026-07-28
// request goes as it is, while streamable-http ("Value Encoding") wants a
// name that is not plain visible ASCII in =?base64?…?=; and it sets none
// for the tasks extension's tasks/get, tasks/update and tasks/cancel,
// which carry the task id there, for routing. gosdk_mcpname_test.go shows
// the go-sdk alone doing both: when it fails, the go-sdk encodes the name
// (or names the task), and withMcpName can go.

// withMcpName is req with its Mcp-Name as the spec writes it: the go-sdk's
// encoded when it must be, or the task id of a tasks request (sent, the
// body's message) on a modern session.
func withMcpName(req *http.Request, sent Envelope) *http.Request {
	name := req.Header.Get(nameHeader)
	if name == "" && modern(req.Header.Get(versionHeader)) {
		name = taskID(sent)
	}
	if name == "" {
		return req
	}
	if needsBase64(name) {
		name = encodeBase64(name)
	}
	if name == req.Header.Get(nameHeader) {
		return req
	}
	req = req.Clone(req.Context())
	req.Header.Set(nameHeader, name)
	return req
}

// taskID is params.taskId of a tasks/get, tasks/update or tasks/cancel
// request, or "".
func taskID(sent Envelope) string {
	switch sent.Method {
	case "tasks/get", "tasks/update", "tasks/cancel":
		id, _ := jsonpeek.String(jsonpeek.Get(sent.Params, "taskId"))
		return id
	}
	return ""
}
