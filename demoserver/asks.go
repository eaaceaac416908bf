package demoserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (d *Demo) addPrompt() {
	d.srv.AddPrompt(&mcp.Prompt{
		Name:        "release_notes",
		Description: "Draft release notes; asks who they are for.",
		Arguments:   []*mcp.PromptArgument{{Name: "version", Description: "Version being released"}},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		version := req.Params.Arguments["version"]
		if version == "" {
			version = "1.0"
		}
		r := response(req.Params.InputResponses, "audience")
		if r == nil {
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{
				"audience": elicit("Who are the release notes for?", `{"type":"object","properties":{
  "audience":{"type":"string","title":"Audience","oneOf":[{"const":"developers","title":"Developers — APIs and breaking changes"},{"const":"customers","title":"Customers — features in plain words"}],"default":"customers"}
},"required":["audience"]}`),
			}}, nil
		}
		audience := "everyone"
		switch r.Action {
		case "accept":
			audience, _ = r.Content["audience"].(string)
		case "decline":
			audience = "everyone (you declined to choose)"
		case "cancel":
			audience = "everyone (you dismissed the question)"
		}
		return &mcp.GetPromptResult{
			Description: fmt.Sprintf("Release notes for %s, for %s", version, audience),
			Messages: []*mcp.PromptMessage{{
				Role:    "user",
				Content: &mcp.TextContent{Text: fmt.Sprintf("Write release notes for version %s. The readers are %s.", version, audience)},
			}},
		}, nil
	})
}

func (d *Demo) addResource() {
	d.srv.AddResource(&mcp.Resource{
		URI:         "demo://reports/q3",
		Name:        "q3-report",
		Title:       "Q3 report",
		Description: "A report; asks how much detail you want.",
		MIMEType:    "text/plain",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		r := response(req.Params.InputResponses, "detail")
		if r == nil {
			return &mcp.ReadResourceResult{InputRequests: mcp.InputRequestMap{
				"detail": elicit("How much of the Q3 report do you want?", `{"type":"object","properties":{
  "detail":{"type":"string","title":"Detail","enum":["summary","full"],"default":"summary"}
},"required":["detail"]}`),
			}}, nil
		}
		var body string
		switch {
		case r.Action == "accept" && r.Content["detail"] == "full":
			body = "Q3 report (full)\nRevenue: 4.2M (+12%)\nCosts: 3.1M (+4%)\nHeadcount: 41 (+3)\nNew customers: 118"
		case r.Action == "accept":
			body = "Q3 report (summary)\nRevenue up 12%, costs up 4%."
		case r.Action == "decline":
			body = "Q3 report: you declined to choose, so here is only the title."
		default:
			body = "Q3 report: the question was dismissed, so nothing more is shown."
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: body}}}, nil
	})
}
