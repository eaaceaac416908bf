package client

import "encoding/json"

// DecodeResult decodes the final result of method (tools/call,
// prompts/get, resources/read) from the bytes the server sent, as the loop
// decodes a big one: a session that keeps results as their bytes (not
// decoded, not laid out) reads one back with it when it is shown again.
func DecodeResult(method, target string, raw json.RawMessage) (*Result, error) {
	out := &Result{Method: method, Target: target, Raw: raw}
	if err := decodeStubbed(out, raw, false); err != nil {
		return nil, err
	}
	return out, nil
}
