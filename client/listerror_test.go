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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// answerServer is a hand-written 2026-07-28 server declaring caps, that
// answers each method with the JSON-RPC members answers gives it
// ("result": … or "error": …).
func answerServer(t *testing.T, caps string, answers map[string]string) transport.Transport {
	return transport.Wrap(pipeServer(t, func(sc *bufio.Scanner, w io.Writer) {
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
				continue
			}
			body, ok := answers[m.Method]
			if m.Method == "server/discover" {
				body, ok = `"result":{"supportedVersions":["2026-07-28"],"capabilities":`+caps+`,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"lists","version":"1"}}}`, true
			}
			if !ok {
				body = `"error":{"code":-32601,"message":"no such method"}`
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`+"\n", m.ID, body)
		}
	}), "lists")
}

// A list request answered with something other than a list is named as
// what it was: input_required (which no list may be answered with), or
// the server's error; never an empty list. A server that does not declare
// prompts or resources is not asked for them.
func TestListsSayWhatTheServerAnswered(t *testing.T) {
	ask := `"result":{"resultType":"input_required","inputRequests":{"who":{"method":"elicitation/create","params":{"message":"Who?","requestedSchema":{"type":"object","properties":{}}}}}}`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lists := map[string]func(*client.Session) error{
		"tools/list":     func(s *client.Session) error { _, err := s.ListTools(ctx); return err },
		"prompts/list":   func(s *client.Session) error { _, err := s.ListPrompts(ctx); return err },
		"resources/list": func(s *client.Session) error { _, err := s.ListResources(ctx); return err },
		"resources/templates/list": func(s *client.Session) error {
			_, err := s.ListResourceTemplates(ctx)
			return err
		},
	}
	for method, list := range lists {
		for _, tc := range []struct {
			name, answer string
			check        func(error) string
		}{
			{"input_required", ask, func(err error) string {
				var le *client.ListError
				if !errors.As(err, &le) || le.ResultType != "input_required" || le.Method != method || !strings.Contains(err.Error(), "instead of a list") {
					return "want a ListError naming input_required"
				}
				return ""
			}},
			{"method not found", `"error":{"code":-32601,"message":"unknown method"}`, func(err error) string {
				var le *client.ListError
				var je *jsonrpc.Error
				if !errors.As(err, &le) || le.Method != method || !errors.As(err, &je) || je.Code != -32601 {
					return "want a ListError carrying the -32601"
				}
				return ""
			}},
			{"internal error", `"error":{"code":-32603,"message":"database down"}`, func(err error) string {
				var je *jsonrpc.Error
				if !errors.As(err, &je) || je.Code != -32603 || !strings.Contains(err.Error(), method) {
					return "want an error naming the method and carrying the -32603"
				}
				return ""
			}},
		} {
			s, err := client.Connect(ctx, answerServer(t, `{"tools":{},"prompts":{},"resources":{}}`, map[string]string{method: tc.answer}), client.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := list(s); err == nil {
				t.Errorf("%s answered with %s: no error", method, tc.name)
			} else if why := tc.check(err); why != "" {
				t.Errorf("%s answered with %s: %v; %s", method, tc.name, err, why)
			}
			s.Close()
		}
	}

	// Nothing declared: prompts and resources are not asked for.
	w := &wire{}
	ct := answerServer(t, `{"tools":{}}`, nil)
	ct.Observe(w.observe)
	s, err := client.Connect(ctx, ct, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, method := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		var no *client.NotOfferedError
		if err := lists[method](s); !errors.As(err, &no) {
			t.Errorf("%s of a server that does not declare it = %v, want a NotOfferedError", method, err)
		}
		if sent := w.calls(t, method); len(sent) > 0 {
			t.Errorf("%s was sent to a server that does not declare it", method)
		}
	}
}
