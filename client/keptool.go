package client

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// decodeTool reads a kept tool as json.Unmarshal reads it into an mcp.Tool,
// without encoding/json's reflection over the go-sdk's types (a tenth of a
// millisecond at every call whose tool list is kept): each member by its
// exact name, each value decoded by encoding/json as the basic type it is.
// A tool readTool does not read (icons, a key given twice, a key that
// json.Unmarshal would match to a field in another case) is read by
// json.Unmarshal. TestDecodeToolIsJSONUnmarshal and a fuzz target hold the
// two alike.
func decodeTool(raw []byte) (*mcp.Tool, error) {
	if t, ok := readTool(raw); ok {
		return t, nil
	}
	t := &mcp.Tool{}
	return t, json.Unmarshal(raw, t)
}

// toolKeys are the JSON names of mcp.Tool's fields.
var toolKeys = [...]string{"_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title", "icons"}

// readTool is decodeTool without json.Unmarshal; false when it cannot
// read raw as json.Unmarshal would.
func readTool(raw []byte) (*mcp.Tool, bool) {
	if !json.Valid(raw) || len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	t := &mcp.Tool{}
	ok := jsonpeek.EachOnce(raw, func(k string, v []byte) bool {
		switch k {
		case "_meta":
			return json.Unmarshal(v, &t.Meta) == nil
		case "annotations":
			return readAnnotations(v, &t.Annotations)
		case "description":
			return json.Unmarshal(v, &t.Description) == nil
		case "inputSchema":
			return json.Unmarshal(v, &t.InputSchema) == nil
		case "name":
			return json.Unmarshal(v, &t.Name) == nil
		case "outputSchema":
			return json.Unmarshal(v, &t.OutputSchema) == nil
		case "title":
			return json.Unmarshal(v, &t.Title) == nil
		case "icons":
			return false // rare: left to json.Unmarshal
		}
		// json.Unmarshal skips a key that is no field's name in any
		// case; one that is, it reads into that field.
		return !foldsToToolKey(k)
	})
	return t, ok
}

// foldsToToolKey reports whether json.Unmarshal could read k into one of
// mcp.Tool's fields: k in another case, or k with a letter outside ASCII
// (encoding/json folds the Kelvin sign to k, the long s to s).
func foldsToToolKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return true
		}
	}
	for _, key := range toolKeys {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// readAnnotations reads a tool's annotations as json.Unmarshal reads them
// into *mcp.ToolAnnotations; false for anything but null or an object of
// its five hints, each given once in its exact name.
func readAnnotations(v []byte, out **mcp.ToolAnnotations) bool {
	if string(v) == "null" {
		*out = nil
		return true
	}
	a := &mcp.ToolAnnotations{}
	ok := jsonpeek.EachOnce(v, func(k string, v []byte) bool {
		switch k {
		case "destructiveHint":
			return json.Unmarshal(v, &a.DestructiveHint) == nil
		case "idempotentHint":
			return json.Unmarshal(v, &a.IdempotentHint) == nil
		case "openWorldHint":
			return json.Unmarshal(v, &a.OpenWorldHint) == nil
		case "readOnlyHint":
			return json.Unmarshal(v, &a.ReadOnlyHint) == nil
		case "title":
			return json.Unmarshal(v, &a.Title) == nil
		}
		return false
	})
	if ok {
		*out = a
	}
	return ok
}
