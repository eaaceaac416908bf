package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ConfirmMessage is the question confirm asks; the first-form path waits
// for it on screen.
const ConfirmMessage = "Run the benchmark step?"

// confirmSchema is the one field confirm asks for.
const confirmSchema = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`

// maxBig bounds big's size so that a typo cannot eat the machine.
const maxBig = 512 << 20

// toolsTTL is how long tools/list says the list stays fresh (ttlMs): its
// tools never change, as a real server's that says so. A client may call
// without listing first for that long.
var toolsTTL = 5 * time.Minute

// extraTools is how many tools the server lists besides its own (-tools).
var extraTools int

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench-server", Version: "1.0.0"}, &mcp.ServerOptions{
		SetCacheable: func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			if _, ok := req.(*mcp.ListToolsRequest); ok {
				c.TTLMs = int(toolsTTL / time.Millisecond)
			}
		},
	})
	s.AddTool(&mcp.Tool{
		Name:        "echo",
		Description: "Answer with the text given.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
	}, echo)
	s.AddTool(&mcp.Tool{
		Name:        "confirm",
		Description: "Ask one yes/no question (input_required), then answer.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	}, confirm)
	s.AddTool(&mcp.Tool{
		Name:        "survey",
		Description: "Ask a form of many text fields (input_required), then answer.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	}, survey)
	for i := range extraTools {
		s.AddTool(&mcp.Tool{
			Name:        fmt.Sprintf("tool%05d", i+1),
			Description: fmt.Sprintf("Extra tool number %d, for lists as long as a big server's.", i+1),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		}, echo)
	}
	s.AddTool(&mcp.Tool{
		Name:        "big",
		Description: "Answer with size bytes of text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"size":{"type":"integer","minimum":0}},"required":["size"]}`),
	}, big)
	return s
}

func arguments(req *mcp.CallToolRequest) (map[string]any, error) {
	var args map[string]any
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, invalidParams("arguments are not a JSON object: %v", err)
		}
	}
	return args, nil
}

func invalidParams(format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, a...)}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := arguments(req)
	if err != nil {
		return nil, err
	}
	s, ok := args["text"].(string)
	if !ok {
		return nil, invalidParams("echo needs a string argument text, got %v", args["text"])
	}
	return text(s), nil
}

func confirm(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params.InputResponses == nil {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
			"confirm": &mcp.ElicitParams{Mode: "form", Message: ConfirmMessage, RequestedSchema: json.RawMessage(confirmSchema)},
		}}, nil
	}
	r, ok := req.Params.InputResponses["confirm"].(*mcp.ElicitResult)
	if !ok {
		return nil, invalidParams("inputResponses has no elicitation result under \"confirm\"")
	}
	if r.Action != "accept" {
		return text("not confirmed: " + r.Action), nil
	}
	yes, _ := r.Content["ok"].(bool)
	return text(fmt.Sprintf("confirmed: ok=%t", yes)), nil
}

// SurveyFields is how many text fields survey asks for: a form as long as
// a big real one, to type in.
const SurveyFields = 200

// surveySchema is survey's requestedSchema: SurveyFields text fields,
// f001 to f200.
var surveySchema = func() json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 1; i <= SurveyFields; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"f%03d":{"type":"string","title":"Field %d"}`, i, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}()

// SurveyMessage is the question survey asks.
const SurveyMessage = "Fill in the survey"

func survey(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params.InputResponses == nil {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
			"survey": &mcp.ElicitParams{Mode: "form", Message: SurveyMessage, RequestedSchema: surveySchema},
		}}, nil
	}
	r, ok := req.Params.InputResponses["survey"].(*mcp.ElicitResult)
	if !ok {
		return nil, invalidParams("inputResponses has no elicitation result under \"survey\"")
	}
	return text(fmt.Sprintf("survey: %s with %d answers", r.Action, len(r.Content))), nil
}

// bigLine is what big's text is made of: 64-byte lines, so a client that
// escapes or re-indents pays for the newlines as it would on real output.
const bigLine = "the quick brown fox jumps over the lazy dog 0123456789 abcdefgh\n"

func big(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := arguments(req)
	if err != nil {
		return nil, err
	}
	n, ok := args["size"].(float64)
	if !ok || n < 0 || n > maxBig || n != float64(int(n)) {
		return nil, invalidParams("big needs an integer size between 0 and %d, got %v", maxBig, args["size"])
	}
	size := int(n)
	var b strings.Builder
	b.Grow(size)
	for b.Len()+len(bigLine) <= size {
		b.WriteString(bigLine)
	}
	b.WriteString(bigLine[:size-b.Len()])
	return text(b.String()), nil
}
