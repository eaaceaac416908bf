package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"charm.land/huh/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askForm asks one form-mode elicitation on the terminal with huh, the
// plain way: the message as a note, a confirm per boolean property, an
// input per other property, drawn on stderr.
func askForm(ask *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	var schema struct {
		Properties map[string]struct {
			Type  string `json:"type"`
			Title string `json:"title"`
		} `json:"properties"`
	}
	raw, err := json.Marshal(ask.RequestedSchema)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	keys := make([]string, 0, len(schema.Properties))
	for k := range schema.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fields := []huh.Field{huh.NewNote().Title(ask.Message)}
	bools := map[string]*bool{}
	strs := map[string]*string{}
	for _, k := range keys {
		p := schema.Properties[k]
		title := p.Title
		if title == "" {
			title = k
		}
		if p.Type == "boolean" {
			bools[k] = new(bool)
			fields = append(fields, huh.NewConfirm().Title(title).Value(bools[k]))
			continue
		}
		strs[k] = new(string)
		fields = append(fields, huh.NewInput().Title(title).Value(strs[k]))
	}
	if err := huh.NewForm(huh.NewGroup(fields...)).WithOutput(os.Stderr).Run(); err != nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	content := map[string]any{}
	for k, v := range bools {
		content[k] = *v
	}
	for k, v := range strs {
		content[k] = *v
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}
