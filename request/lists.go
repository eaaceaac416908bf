package request

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/client"
)

// TemplateLister is what listing templates needs of a client.Session.
type TemplateLister interface {
	ListResourceTemplates(ctx context.Context) (*client.TemplateList, error)
}

// Templates are the server's resource templates, for the lists every
// front end shows: a server that has none may not know the method
// (-32601), and then has none.
func Templates(ctx context.Context, s TemplateLister) (*client.TemplateList, error) {
	tl, err := s.ListResourceTemplates(ctx)
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound {
		return &client.TemplateList{Raw: map[string]json.RawMessage{}}, nil
	}
	return tl, err
}
