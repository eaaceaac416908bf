package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// misplacedHeader finds an x-mcp-header annotation that is not on a
// property reached from the schema root through "properties" alone: one
// under items, allOf/anyOf/oneOf/not, if/then/else, $defs or a $ref target
// makes the tool invalid (streamable-http, "Schema Extension"). The go-sdk
// checks the annotations it finds along properties, and never looks
// anywhere else.
func misplacedHeader(schema any) error {
	return findMisplaced(schema, nil, false)
}

func findMisplaced(v any, path []string, onProperty bool) error {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["x-mcp-header"]; ok && !onProperty {
			where := "the schema root"
			if len(path) > 0 {
				where = strings.Join(path, ".")
			}
			return fmt.Errorf("x-mcp-header at %s is not on a property reached through \"properties\" alone", where)
		}
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if k == "properties" && (onProperty || len(path) == 0) {
				if props, ok := x[k].(map[string]any); ok {
					pnames := make([]string, 0, len(props))
					for p := range props {
						pnames = append(pnames, p)
					}
					sort.Strings(pnames)
					for _, p := range pnames {
						if err := findMisplaced(props[p], append(path, "properties", p), true); err != nil {
							return err
						}
					}
					continue
				}
			}
			if err := findMisplaced(x[k], append(path, k), false); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := findMisplaced(e, append(path, fmt.Sprint(i)), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// verbatim returns the tools with each inputSchema exactly as the server
// sent it (its keys in its order), for -o json; the SDK's decoded form
// loses the order.
func (w *wireWatch) verbatim(tools []*mcp.Tool) []*mcp.Tool {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]*mcp.Tool, len(tools))
	for i, t := range tools {
		out[i] = t
		if raw, ok := w.schemas[t.Name]; ok {
			c := *t
			c.InputSchema = raw
			out[i] = &c
		}
	}
	return out
}

// observeTools keeps the raw inputSchema of each tool in a tools/list result.
func (w *wireWatch) observeTools(msg []byte) {
	if !bytes.Contains(msg, []byte(`"inputSchema"`)) {
		return
	}
	var m struct {
		Result *struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Result == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.schemas == nil {
		w.schemas = map[string]json.RawMessage{}
	}
	for _, t := range m.Result.Tools {
		if len(t.InputSchema) > 0 {
			w.schemas[t.Name] = t.InputSchema
		}
	}
}

// listed reports whether a tools/list result on the wire had a tool called
// name, whether or not it was kept.
func (w *wireWatch) listed(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.schemas[name]
	return ok
}
