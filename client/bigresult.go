package client

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// bigResult is the size from which the final result of a request the
// loop makes is decoded by mcpcli, once, from the bytes the server sent,
// instead of by the go-sdk: its decoder buffers the whole value again as
// it reads, growing by doubling (a 100 MB result cost some 320 MB there).
const bigResult = 1 << 20

// stubs are what the go-sdk decodes in place of a big final result: the
// empty result of each method. The loop puts the real one in its place.
var stubs = map[string]json.RawMessage{
	"tools/call":     json.RawMessage(`{"content":[]}`),
	"resources/read": json.RawMessage(`{"contents":[]}`),
	"prompts/get":    json.RawMessage(`{"messages":[]}`),
}

// shrinks says, for a response the wire saw, whether the go-sdk should
// get a stub instead: a big final result of a request whose exchange keeps
// the raw bytes. The exchange is marked so that the loop decodes them.
func (w *wire) shrinks(s *sent, result []byte, top sentResult) bool {
	if s == nil || s.ex == nil || len(result) < bigResult || stubs[s.method] == nil {
		return false
	}
	switch top.resultType {
	case "", "complete":
	default:
		return false // interim results and tasks: the loop reads their fields
	}
	s.ex.mu.Lock()
	s.ex.stubbed = true
	s.ex.mu.Unlock()
	return true
}

// stub is the session's transport.ResultFilter: the stub for a response
// the wire has marked (see wire.shrinks, wire.bounded).
func (w *wire) stub(id jsonrpc.ID, result json.RawMessage) (json.RawMessage, bool) {
	return w.takeStub(id)
}

// decodeStubbed puts in out the real result of a request whose final
// result the go-sdk got as a stub, decoded once from raw. With rawOnly
// only what Result itself needs is read: a tool's isError.
func decodeStubbed(out *Result, raw json.RawMessage, rawOnly bool) error {
	if rawOnly {
		if out.Method == "tools/call" {
			isError := string(jsonpeek.Get(raw, "isError")) == "true"
			out.Tool = &mcp.CallToolResult{IsError: isError}
		}
		return nil
	}
	var err error
	switch out.Method {
	case "tools/call":
		out.Tool, err = decodeToolResult(raw)
	case "resources/read":
		out.Resource = &mcp.ReadResourceResult{}
		err = jsonpeek.Unmarshal(raw, out.Resource)
	case "prompts/get":
		out.Prompt = &mcp.GetPromptResult{}
		err = jsonpeek.Unmarshal(raw, out.Prompt)
	}
	if err != nil {
		return fmt.Errorf("decoding the result of %s: %w", out.Method, err)
	}
	return nil
}

// decodeToolResult decodes a big tool result as the go-sdk would, but
// reading it in place: its members and content blocks are slices of raw,
// and a text block is decoded by encoding/json straight into its string
// (the go-sdk's decoder first copies the whole value into a buffer it
// grows by doubling). Blocks of other types are few and small beside the
// text, and go through the go-sdk one at a time.
func decodeToolResult(raw json.RawMessage) (*mcp.CallToolResult, error) {
	res := &mcp.CallToolResult{}
	var items [][]byte
	var err error
	perr := jsonpeek.Object(raw, func(k string, v []byte) bool {
		switch k {
		case "content": // the last one counts, as in the go-sdk
			items = nil
			if !jsonpeek.IsNull(v) {
				err = jsonpeek.Array(v, func(item []byte) bool { items = append(items, item); return true })
			}
		case "structuredContent":
			err = jsonpeek.Unmarshal(v, &res.StructuredContent)
		case "isError":
			err = jsonpeek.Unmarshal(v, &res.IsError)
		case "_meta":
			err = jsonpeek.Unmarshal(v, &res.Meta)
		}
		return err == nil
	})
	if perr != nil {
		return nil, perr
	}
	if err != nil {
		return nil, err
	}
	res.Content = make([]mcp.Content, 0, len(items))
	for _, item := range items {
		c, err := decodeContent(item)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, c)
	}
	return res, nil
}

func decodeContent(item []byte) (mcp.Content, error) {
	if t, _ := jsonpeek.String(jsonpeek.Get(item, "type")); t == "text" {
		var tc struct {
			Text        *string          `json:"text"`
			Annotations *mcp.Annotations `json:"annotations"`
			Meta        mcp.Meta         `json:"_meta"`
		}
		if err := jsonpeek.Unmarshal(item, &tc); err != nil {
			return nil, err
		}
		if tc.Text == nil {
			return nil, fmt.Errorf("a text content block has no text")
		}
		return &mcp.TextContent{Text: *tc.Text, Annotations: tc.Annotations, Meta: tc.Meta}, nil
	}
	var one mcp.CallToolResult
	wrapped := make([]byte, 0, len(item)+13)
	wrapped = append(append(append(wrapped, `{"content":[`...), item...), "]}"...)
	if err := jsonpeek.Unmarshal(wrapped, &one); err != nil {
		return nil, err
	}
	if len(one.Content) != 1 {
		return nil, fmt.Errorf("a content block could not be read")
	}
	return one.Content[0], nil
}
