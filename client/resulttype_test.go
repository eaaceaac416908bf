package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// rawServer answers server/discover, then every other request with the
// result JSON that result returns for its method, byte for byte: the go-sdk
// server cannot send a resultType it does not know.
func rawServer(t *testing.T, result func(method string) string) mcp.Transport {
	t.Helper()
	return pipeServer(t, func(sc *bufio.Scanner, sw io.Writer) {
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
				continue
			}
			res := result(m.Method)
			if m.Method == "server/discover" {
				res = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"prompts":{},"resources":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"raw","version":"1"}}}`
			}
			fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, res)
		}
	})
}

// pipeServer is a server written by hand: serve reads the client's lines
// from sc and writes its own to w, until the test ends.
func pipeServer(t *testing.T, serve func(sc *bufio.Scanner, w io.Writer)) mcp.Transport {
	t.Helper()
	cr, sw := io.Pipe() // server writes, client reads
	sr, cw := io.Pipe() // client writes, server reads
	go func() {
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		sc.Buffer(nil, 1<<20)
		serve(sc, sw)
	}()
	t.Cleanup(func() { sr.Close(); cw.Close() })
	return &mcp.IOTransport{Reader: cr, Writer: cw}
}

func TestUnknownResultTypeIsInvalid(t *testing.T) {
	results := map[string]string{
		"tools/call":     `{"resultType":"deferred","content":[{"type":"text","text":"?"}]}`,
		"prompts/get":    `{"resultType":"deferred","messages":[]}`,
		"resources/read": `{"resultType":"deferred","contents":[]}`,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, transport.Wrap(rawServer(t, func(m string) string { return results[m] }), "raw"), client.Options{Modes: client.Modes{Form: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for method, call := range map[string]func() error{
		"tools/call":     func() error { _, err := s.CallTool(ctx, "t", nil); return err },
		"prompts/get":    func() error { _, err := s.GetPrompt(ctx, "p", nil); return err },
		"resources/read": func() error { _, err := s.ReadResource(ctx, "x://r"); return err },
	} {
		err := call()
		var pe *client.ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), `resultType "deferred"`) {
			t.Errorf("%s with resultType deferred: error = %v, want a ProtocolError naming the resultType", method, err)
		}
	}
}

// The tasks extension allows a task only for tools/call, and a task has an
// id.
func TestMisplacedTaskIsInvalid(t *testing.T) {
	results := map[string]string{
		"tools/call":     `{"resultType":"task","status":"working"}`,
		"prompts/get":    `{"resultType":"task","taskId":"t1","status":"working"}`,
		"resources/read": `{"resultType":"task","taskId":"t1","status":"working"}`,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, transport.Wrap(rawServer(t, func(m string) string { return results[m] }), "raw"), client.Options{Modes: client.Modes{Form: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for method, tc := range map[string]struct {
		call func() error
		want string
	}{
		"tools/call":     {func() error { _, err := s.CallTool(ctx, "t", nil); return err }, `with resultType "task" but no taskId`},
		"prompts/get":    {func() error { _, err := s.GetPrompt(ctx, "p", nil); return err }, "the tasks extension allows them only for tools/call"},
		"resources/read": {func() error { _, err := s.ReadResource(ctx, "x://r"); return err }, "the tasks extension allows them only for tools/call"},
	} {
		err := tc.call()
		var pe *client.ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want a ProtocolError saying %q", method, err, tc.want)
		}
	}
}

func TestAbsentOrCompleteResultTypeIsComplete(t *testing.T) {
	for _, res := range []string{
		`{"content":[{"type":"text","text":"old"}]}`,
		`{"resultType":"complete","content":[{"type":"text","text":"new"}]}`,
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		s, err := client.Connect(ctx, transport.Wrap(rawServer(t, func(string) string { return res }), "raw"), client.Options{Modes: client.Modes{Form: true}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CallTool(ctx, "t", nil); err != nil {
			t.Errorf("CallTool with result %s: %v, want it complete", res, err)
		}
		s.Close()
		cancel()
	}
}

func TestUnknownInputRequestMethodIsAServerBug(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, transport.Wrap(rawServer(t, func(string) string {
		return `{"resultType":"input_required","inputRequests":{"z":{"method":"tasks/get","params":{}}}}`
	}), "raw"), client.Options{Modes: client.Modes{Form: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.CallTool(ctx, "t", nil)
	var pe *client.ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `"tasks/get"`) || !strings.Contains(err.Error(), "bug in the server") {
		t.Errorf("CallTool error = %v, want a ProtocolError naming tasks/get as a server bug", err)
	}
}
