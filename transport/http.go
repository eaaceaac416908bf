package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP describes a Streamable HTTP server.
type HTTP struct {
	URL      string
	Header   http.Header // extra headers sent on every request (--header)
	Observer Observer
	// Base is the RoundTripper underneath; nil means http.DefaultTransport.
	Base http.RoundTripper
}

// ParseURL checks a --url value and says what to fix when it is wrong.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("--url %q is not a URL: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("--url %q must start with http:// or https://", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("--url %q has no host; write it like http://127.0.0.1:8080/mcp", raw)
	}
	return u, nil
}

// ParseHeader parses one --header "Name: value" flag.
func ParseHeader(h http.Header, flag string) error {
	name, value, ok := strings.Cut(flag, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("--header %q must look like \"Name: value\"", flag)
	}
	for _, c := range name {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", c) {
			return fmt.Errorf("--header %q: %q is not a valid header name", flag, name)
		}
	}
	h.Add(name, strings.TrimSpace(value))
	return nil
}

// Transport returns the go-sdk transport for h.
func (h *HTTP) Transport() mcp.Transport {
	base := h.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return &mcp.StreamableClientTransport{
		Endpoint:   h.URL,
		HTTPClient: &http.Client{Transport: &roundTripper{base: base, header: h.Header, obs: h.Observer}},
	}
}

// roundTripper adds the user's headers and shows observers both the headers
// and the JSON-RPC messages in request and response bodies.
type roundTripper struct {
	base   http.RoundTripper
	header http.Header
	obs    Observer
}

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(rt.header) > 0 {
		req = req.Clone(req.Context())
		for k, vs := range rt.header {
			req.Header.Del(k)
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	if rt.obs == nil {
		return rt.base.RoundTrip(req)
	}
	rt.obs(Event{Time: time.Now(), Dir: Send, HTTP: &HTTPHeaders{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone()}})
	if req.Body != nil && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(body)
			body.Close()
			rt.emitBody(Send, b)
		}
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	rt.obs(Event{Time: time.Now(), Dir: Recv, HTTP: &HTTPHeaders{Status: resp.StatusCode, Header: resp.Header.Clone()}})
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "text/event-stream":
		resp.Body = &sseTee{rc: resp.Body, obs: rt.obs}
	case "application/json":
		resp.Body = &jsonTee{rc: resp.Body, obs: rt.obs}
	}
	return resp, nil
}

// emitBody reports a JSON body: one message, or each message of a batch.
func (rt *roundTripper) emitBody(dir Direction, b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if b[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(b, &batch); err == nil {
			for _, m := range batch {
				rt.obs(Event{Time: time.Now(), Dir: dir, Msg: []byte(m)})
			}
			return
		}
	}
	rt.obs(Event{Time: time.Now(), Dir: dir, Msg: b})
}

// jsonTee reports a JSON response body once it has been read to the end.
type jsonTee struct {
	rc   io.ReadCloser
	obs  Observer
	buf  bytes.Buffer
	done bool
}

func (t *jsonTee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.buf.Write(p[:n])
	if errors.Is(err, io.EOF) && !t.done {
		t.done = true
		(&roundTripper{obs: t.obs}).emitBody(Recv, t.buf.Bytes())
	}
	return n, err
}

func (t *jsonTee) Close() error { return t.rc.Close() }

// sseTee reports the data of each server-sent event as it is read. The SDK
// does the real parsing; this only watches the same bytes for the trace.
type sseTee struct {
	rc   io.ReadCloser
	obs  Observer
	line []byte
	data []byte
}

func (t *sseTee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	rest := p[:n]
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.line = append(t.line, rest...)
			break
		}
		t.line = append(t.line, rest[:i]...)
		t.endLine(bytes.TrimRight(t.line, "\r"))
		t.line = t.line[:0]
		rest = rest[i+1:]
	}
	return n, err
}

func (t *sseTee) endLine(line []byte) {
	if len(line) == 0 {
		if len(bytes.TrimSpace(t.data)) > 0 {
			t.obs(Event{Time: time.Now(), Dir: Recv, Msg: append([]byte(nil), bytes.TrimSpace(t.data)...)})
		}
		t.data = t.data[:0]
		return
	}
	if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		v = bytes.TrimPrefix(v, []byte(" "))
		if len(t.data) > 0 {
			t.data = append(t.data, '\n')
		}
		t.data = append(t.data, v...)
	}
}

func (t *sseTee) Close() error { return t.rc.Close() }
