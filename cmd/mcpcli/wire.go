package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// wireWatch follows the traffic for what the CLI must know beyond what the
// SDK reports: which requests are still unanswered, whether a
// notifications/cancelled has gone out, the versions a -32022 offered, and
// the last HTTP status.
type wireWatch struct {
	mu         sync.Mutex
	pending    map[string]bool // ids of requests sent and not yet answered
	cancelSent chan struct{}   // closed at the first notifications/cancelled sent
	cancelOnce sync.Once
	offered    []string // data.supported of the last -32022
	status     int      // the last HTTP response status
	authHeader string   // the last WWW-Authenticate
	sentCall   bool     // the last message POSTed was a request, not a notification
	callStatus int      // the HTTP status of the last response to a request
	callType   string   // and its Content-Type

	schemas map[string]json.RawMessage // raw inputSchema by tool name

	// Log and progress notifications received, and handled (shown).
	notesSeen, notesShown atomic.Int64
}

func newWireWatch() *wireWatch {
	return &wireWatch{pending: map[string]bool{}, cancelSent: make(chan struct{})}
}

func (w *wireWatch) observe(ev transport.Event) {
	if ev.HTTP != nil && ev.Dir == transport.Recv {
		w.mu.Lock()
		w.status = ev.HTTP.Status
		if a := ev.HTTP.Header.Get("WWW-Authenticate"); a != "" {
			w.authHeader = a
		}
		if w.sentCall {
			w.callStatus, w.callType = ev.HTTP.Status, ev.HTTP.Header.Get("Content-Type")
		}
		w.mu.Unlock()
		return
	}
	if len(ev.Msg) == 0 {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  *struct {
			Code int64 `json:"code"`
			Data *struct {
				Supported []string `json:"supported"`
			} `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(ev.Msg, &m) != nil {
		return
	}
	if ev.Dir == transport.Recv {
		w.observeTools(ev.Msg)
	}
	id := string(bytes.TrimSpace(m.ID))
	w.mu.Lock()
	defer w.mu.Unlock()
	if ev.Dir == transport.Send {
		// A request, not a notification nor a response to the server's
		// own request (which a legacy server answers with 202).
		w.sentCall = m.Method != "" && id != ""
	}
	switch {
	case ev.Dir == transport.Send && m.Method == "notifications/cancelled":
		w.cancelOnce.Do(func() { close(w.cancelSent) })
	case ev.Dir == transport.Send && m.Method != "" && id != "":
		w.pending[id] = true
	case ev.Dir == transport.Recv && (m.Method == "notifications/message" || m.Method == "notifications/progress"):
		w.notesSeen.Add(1)
	case ev.Dir == transport.Recv && m.Method == "" && id != "":
		delete(w.pending, id)
		if m.Error != nil && m.Error.Code == mcp.CodeUnsupportedProtocolVersion && m.Error.Data != nil {
			w.offered = m.Error.Data.Supported
		}
	}
}

// shown counts a log or progress notification handled.
func (w *wireWatch) shown() { w.notesShown.Add(1) }

// notesWait bounds how long drain waits.
const notesWait = time.Second

// drain waits until every log and progress notification received so far
// has been shown. The SDK hands notifications to their handlers apart from
// responses, so the last log lines of a request can otherwise be handled
// after its result, or lost when mcpcli exits.
func (w *wireWatch) drain() {
	deadline := time.Now().Add(notesWait)
	for w.notesShown.Load() < w.notesSeen.Load() && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
}

// unanswered reports whether a request is still waiting for its response.
func (w *wireWatch) unanswered() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending) > 0
}

// cancelNoticeWait bounds how long an interrupted run waits for the SDK to
// send notifications/cancelled before it closes the connection.
const cancelNoticeWait = time.Second

// awaitCancelNotice gives the SDK, which sends notifications/cancelled off
// the caller's return path, the moment it needs to write it before the
// connection closes: without it the server might never learn that the
// request it is working on was abandoned. Only when the run was interrupted
// with a request unanswered, and only where the notification is the signal
// (stdio, and older HTTP servers; for a modern HTTP server the closed
// response stream already is).
func (s *session) awaitCancelNotice() {
	if s.ctx == nil || s.ctx.Err() == nil || s.wire == nil || !s.wire.unanswered() {
		return
	}
	if s.target.http != nil && s.Session != nil && s.Server().Modern() {
		return
	}
	select {
	case <-s.wire.cancelSent:
	case <-time.After(cancelNoticeWait):
	}
}

// explainHTTP turns what the SDK says about an HTTP failure into what to do
// next, from what the wire showed.
func (w *wireWatch) explainHTTP(err error, via string) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	w.mu.Lock()
	status, auth, offered := w.status, w.authHeader, w.offered
	w.mu.Unlock()
	switch status {
	case http.StatusUnauthorized:
		return &httpRefusal{via: via, status: status, auth: auth, cause: err}
	case http.StatusForbidden:
		return &httpRefusal{via: via, status: status, cause: err}
	}
	if offered != nil && !mutual(offered) {
		return &versionError{via: via, offered: offered, cause: err}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code != codeRejectedByTransport {
		return err // the server answered in JSON-RPC: explain words it
	}
	w.mu.Lock()
	status, ctype := w.callStatus, w.callType
	w.mu.Unlock()
	mt, _, _ := mime.ParseMediaType(ctype)
	var why string
	switch {
	case status == http.StatusNotFound:
		why = ": nothing there answers the request; check the URL's path (servers often serve MCP at /mcp)"
	case status >= 500:
		why = " with no JSON-RPC error saying why; the server's own logs may tell"
	case status >= 400:
		why = " with no JSON-RPC error saying why; check the URL and any --header"
	case status == http.StatusAccepted:
		why = " to a request, with no body: a request needs a JSON or event-stream answer, so this is a bug in the server"
	case status >= 200 && status < 300 && mt != "" && mt != "application/json" && mt != "text/event-stream":
		return &httpStatusError{via: via, status: status, why: fmt.Sprintf(
			" with Content-Type %s, not application/json or text/event-stream: that URL is not an MCP endpoint; check it", mt), cause: err}
	default:
		return err
	}
	return &httpStatusError{via: via, status: status, why: why, cause: err}
}

// httpStatusError is an HTTP answer that carries no JSON-RPC message.
type httpStatusError struct {
	via    string
	status int
	why    string
	cause  error
}

func (e *httpStatusError) Error() string {
	return fmt.Sprintf("server %s answered HTTP %d %s%s", e.via, e.status, http.StatusText(e.status), e.why)
}

func (e *httpStatusError) Unwrap() error { return e.cause }

// mutual reports whether mcpcli speaks any of the offered versions.
func mutual(offered []string) bool {
	for _, v := range offered {
		if slices.Contains(mcp.SupportedProtocolVersions(), v) {
			return true
		}
	}
	return false
}

// httpRefusal is a server that wants credentials mcpcli did not send.
type httpRefusal struct {
	via    string
	status int
	auth   string
	cause  error
}

func (e *httpRefusal) Error() string {
	if e.status == http.StatusForbidden {
		return fmt.Sprintf("server %s refused the request (HTTP 403 Forbidden); the credentials sent with --header, if any, do not allow it", e.via)
	}
	msg := fmt.Sprintf("server %s requires authorization (HTTP 401 Unauthorized)", e.via)
	if e.auth != "" {
		msg += fmt.Sprintf("; it asks for: %s", e.auth)
	}
	return msg + `; mcpcli cannot sign in with OAuth yet: pass a token with --header "Authorization: Bearer TOKEN"`
}

func (e *httpRefusal) Unwrap() error { return e.cause }

// versionError is a server that speaks none of mcpcli's protocol versions.
type versionError struct {
	via     string
	offered []string
	cause   error
}

func (e *versionError) Error() string {
	return fmt.Sprintf("server %s supports only protocol version%s %s, and mcpcli speaks %s (-32022 unsupported protocol version); use a client or server release with a version in common",
		e.via, plural(len(e.offered)), strings.Join(e.offered, ", "), strings.Join(mcp.SupportedProtocolVersions(), ", "))
}

func (e *versionError) Unwrap() error { return e.cause }

// offeredVersions is what the last -32022 said the server supports.
func (w *wireWatch) offeredVersions() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.offered...)
}
