package render

import (
	"fmt"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/blobs"
)

// SaveBlobs writes every image, audio and blob content of res to dir
// (--save) and says where on the console.
func SaveBlobs(con *Console, dir string, res *client.Result) error {
	if dir == "" || res == nil {
		return nil
	}
	var items []blobs.Item
	switch {
	case res.Tool != nil:
		items = blobs.FromTool(res.Tool)
	case res.Resource != nil:
		items = blobs.FromResource(res.Resource)
	case res.Prompt != nil:
		items = blobs.FromPrompt(res.Prompt)
	}
	if len(items) == 0 {
		con.Printf("mcpcli: --save: the result has no image, audio or blob content to save")
		return nil
	}
	saved, err := blobs.Save(dir, items)
	for _, s := range saved {
		mime := s.MIME
		if mime == "" {
			mime = "no MIME type"
		}
		con.Printf("saved %s %s %s to %s", s.Kind, Line(mime), Size(len(s.Data)), s.Path)
	}
	if err != nil {
		return fmt.Errorf("--save %s: %v (%d of %d written)", dir, err, len(saved), len(items))
	}
	return nil
}
