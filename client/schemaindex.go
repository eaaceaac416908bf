package client

import (
	"bytes"
	"encoding/json"
	"sync"
)

// SchemaIndex remembers every requestedSchema seen on the wire in the bytes
// the server wrote, so that a form can show fields in the server's order
// (the SDK hands schemas over as Go maps, which have none).
//
// Feed it received messages with Observe; the loop looks schemas up by
// content.
type SchemaIndex struct {
	mu    sync.Mutex
	raw   map[string]json.RawMessage // canonical JSON → server's bytes
	order []string                   // insertion order, for eviction
}

const schemaIndexMax = 256

// NewSchemaIndex returns an empty index.
func NewSchemaIndex() *SchemaIndex {
	return &SchemaIndex{raw: map[string]json.RawMessage{}}
}

// Observe records the requested schemas in one received JSON-RPC message:
// in an input_required result's inputRequests, or in a server-initiated
// elicitation/create request.
func (x *SchemaIndex) Observe(msg []byte) {
	if x == nil || !bytes.Contains(msg, []byte(`"requestedSchema"`)) {
		return
	}
	var m struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result *struct {
			InputRequests map[string]struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"inputRequests"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return
	}
	if m.Method == "elicitation/create" {
		x.addParams(m.Params)
	}
	if m.Result != nil {
		for _, ir := range m.Result.InputRequests {
			if ir.Method == "elicitation/create" {
				x.addParams(ir.Params)
			}
		}
	}
}

func (x *SchemaIndex) addParams(params json.RawMessage) {
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestedSchema) == 0 {
		return
	}
	key, ok := canonical(p.RequestedSchema)
	if !ok {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, seen := x.raw[key]; !seen {
		x.order = append(x.order, key)
		if len(x.order) > schemaIndexMax {
			delete(x.raw, x.order[0])
			x.order = x.order[1:]
		}
	}
	x.raw[key] = append(json.RawMessage(nil), p.RequestedSchema...)
}

// Lookup returns the server's bytes for a schema the SDK decoded, or nil.
func (x *SchemaIndex) Lookup(schema any) json.RawMessage {
	if x == nil || schema == nil {
		return nil
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	key, ok := canonical(b)
	if !ok {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.raw[key]
}

// canonical re-encodes JSON with sorted keys and normalised numbers, so that
// the server's bytes and the SDK's decoded value meet on one key.
func canonical(b []byte) (string, bool) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "", false
	}
	out, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(out), true
}
