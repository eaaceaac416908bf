package client

// Works around go-sdk v1.8.0: its elicitation check reads SEP-1330's
// titled multi-select written as the spec's example writes it (items with
// "type": "string" beside their anyOf) as an untitled one without an enum,
// and refuses the whole 2025-11-25 ask with -32602.
// gosdk_sep1330_test.go shows the go-sdk alone refusing it: when it
// fails, the go-sdk takes it, and titledMultiForSDK can go.

import "maps"

// titledMultiForSDK is a requested schema as the go-sdk's elicitation
// check takes it. SEP-1330's titled multi-select is an array whose items
// have anyOf, and the spec's own example (and the go-sdk's conformance
// server) writes "type": "string" beside it; but the go-sdk's check reads
// items with a type as an untitled multi-select, wants an enum there, and
// refuses the whole ask before mcpcli sees it. The go-sdk gets the same
// schema without that type (every anyOf const is a string: nothing it
// checks changes); mcpcli builds its form from the schema as the server
// wrote it, kept on the wire.
func titledMultiForSDK(schema any) any {
	top, ok := schema.(map[string]any)
	if !ok {
		return schema
	}
	props, ok := top["properties"].(map[string]any)
	if !ok {
		return schema
	}
	var out map[string]any
	for name, p := range props {
		prop, ok := p.(map[string]any)
		if !ok || prop["type"] != "array" {
			continue
		}
		items, ok := prop["items"].(map[string]any)
		_, anyOf := items["anyOf"]
		_, enum := items["enum"]
		if !ok || items["type"] != "string" || !anyOf || enum {
			continue
		}
		if out == nil {
			out = maps.Clone(top)
			out["properties"] = maps.Clone(props)
		}
		untyped := maps.Clone(items)
		delete(untyped, "type")
		changed := maps.Clone(prop)
		changed["items"] = untyped
		out["properties"].(map[string]any)[name] = changed
	}
	if out == nil {
		return schema
	}
	return out
}
