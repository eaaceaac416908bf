package client

// Works around go-sdk v1.8.0: its ClientSession.ListTools leaves out a
// tool whose x-mcp-header annotations it finds invalid, and says so only
// in a log record ("excluding tool from tools/list", with the tool and the
// error). mcpcli reads that record to tell the person which tool was left
// out, and why. gosdk_droppedtools_test.go shows the go-sdk alone leaving
// a tool out with that record: when it fails, the go-sdk says it another
// way, and sdkLog must follow.

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
)

// sdkLog turns the go-sdk's log records into what the session knows: a
// tool it left out of tools/list (and why), or a warning for the person.
type sdkLog struct {
	s     *Session
	attrs []slog.Attr
}

func (h *sdkLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *sdkLog) Handle(_ context.Context, r slog.Record) error {
	attrs := map[string]string{}
	for _, a := range h.attrs {
		attrs[a.Key] = a.Value.String()
	}
	r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
	if strings.Contains(r.Message, "excluding tool") && attrs["tool"] != "" {
		h.s.dropped.add(attrs["tool"], attrs["error"])
		return nil
	}
	msg := r.Message
	for _, k := range sortedKeys(attrs) {
		msg += fmt.Sprintf("; %s: %s", k, attrs[k])
	}
	h.s.warn(msg)
	return nil
}

func (h *sdkLog) WithAttrs(as []slog.Attr) slog.Handler {
	return &sdkLog{s: h.s, attrs: append(append([]slog.Attr(nil), h.attrs...), as...)}
}

func (h *sdkLog) WithGroup(string) slog.Handler { return h }

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// droppedTools collects the go-sdk's warnings about tools it left out.
type droppedTools struct {
	mu     sync.Mutex
	reason map[string]string
}

func (d *droppedTools) add(name, reason string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.reason == nil {
		d.reason = map[string]string{}
	}
	d.reason[name] = reason
}

func (d *droppedTools) get(name string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.reason[name]
}
