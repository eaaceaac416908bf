package render

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// maxMarker bounds a marker's label, in characters.
const maxMarker = 160

// RoundMarker names a round for the cast, as
// "create_repo · round 2 · details: decline"; "" for a round that ended
// in an error other than being abandoned (nothing was sent).
func RoundMarker(r client.Round, out map[string]*mcp.ElicitResult, err error) string {
	target := r.Target
	if target == "" {
		target = r.Method
	}
	if target == "" {
		target = "elicitation"
	}
	head := fmt.Sprintf("%s · round %d · ", Line(target), r.Number)
	var what string
	switch {
	case errors.Is(err, client.ErrAbandoned) || errors.Is(err, context.Canceled):
		what = "abandoned"
	case err != nil:
		return ""
	default:
		var parts []string
		for _, a := range r.Asks {
			if res := out[a.Key]; res != nil {
				parts = append(parts, Line(a.Key)+": "+Line(res.Action))
			}
		}
		what = strings.Join(parts, ", ")
	}
	label := []rune(head + what)
	if len(label) > maxMarker {
		return string(label[:maxMarker-1]) + "…"
	}
	return string(label)
}
