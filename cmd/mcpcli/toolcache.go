package main

import (
	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// toolCache is where the tool list of the server t reaches is kept
// between runs (client.ToolCacheFor), or nil when there is nowhere to
// keep it.
func (f *Factory) toolCache(t transport.Transport) *client.ToolCache {
	if f.Deps.CacheDir == nil {
		return nil
	}
	dir, err := f.Deps.CacheDir()
	if err != nil || dir == "" {
		return nil
	}
	return client.ToolCacheFor(t, dir)
}
