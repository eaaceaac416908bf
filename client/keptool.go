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
// A tool readMembers does not read (icons, a key given twice, a key that
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
	var seen [len(toolKeys)]bool
	ok := true
	err := jsonpeek.Object(raw, func(k string, v []byte) bool {
		i := toolKey(k)
		if i < 0 {
			// json.Unmarshal skips a key that is no field's name in any
			// case; one that is, it reads into that field.
			ok = !foldsToToolKey(k)
			return ok
		}
		if seen[i] {
			ok = false // the last counts: json.Unmarshal merges them
			return false
		}
		seen[i] = true
		switch k {
		case "_meta":
			ok = json.Unmarshal(v, &t.Meta) == nil
		case "annotations":
			ok = readAnnotations(v, &t.Annotations)
		case "description":
			ok = json.Unmarshal(v, &t.Description) == nil
		case "inputSchema":
			ok = json.Unmarshal(v, &t.InputSchema) == nil
		case "name":
			ok = json.Unmarshal(v, &t.Name) == nil
		case "outputSchema":
			ok = json.Unmarshal(v, &t.OutputSchema) == nil
		case "title":
			ok = json.Unmarshal(v, &t.Title) == nil
		default:
			ok = false // icons: rare, left to json.Unmarshal
		}
		return ok
	})
	return t, err == nil && ok
}

func toolKey(k string) int {
	for i, key := range toolKeys {
		if k == key {
			return i
		}
	}
	return -1
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
	if len(v) == 0 || v[0] != '{' {
		return false
	}
	a := &mcp.ToolAnnotations{}
	seen := map[string]bool{}
	ok := true
	err := jsonpeek.Object(v, func(k string, v []byte) bool {
		if seen[k] {
			ok = false
			return false
		}
		seen[k] = true
		switch k {
		case "destructiveHint":
			ok = json.Unmarshal(v, &a.DestructiveHint) == nil
		case "idempotentHint":
			ok = json.Unmarshal(v, &a.IdempotentHint) == nil
		case "openWorldHint":
			ok = json.Unmarshal(v, &a.OpenWorldHint) == nil
		case "readOnlyHint":
			ok = json.Unmarshal(v, &a.ReadOnlyHint) == nil
		case "title":
			ok = json.Unmarshal(v, &a.Title) == nil
		default:
			ok = false
		}
		return ok
	})
	if err != nil || !ok {
		return false
	}
	*out = a
	return true
}
