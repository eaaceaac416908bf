package client_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordLog keeps the go-sdk's log records.
type recordLog struct {
	mu      sync.Mutex
	records []string
}

func (h *recordLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordLog) Handle(_ context.Context, r slog.Record) error {
	line := r.Message
	r.Attrs(func(a slog.Attr) bool { line += " " + a.Key + "=" + a.Value.String(); return true })
	h.mu.Lock()
	h.records = append(h.records, line)
	h.mu.Unlock()
	return nil
}
func (h *recordLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordLog) WithGroup(string) slog.Handler      { return h }

// The go-sdk alone leaves out of tools/list a tool whose x-mcp-header it
// finds invalid, saying so only in a log record (see
// gosdk_droppedtools.go).
func TestGoSDKLeavesOutAToolWithOnlyALogRecord(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	logs := &recordLog{}
	cs, _, _ := bareModern(t, &mcp.ClientOptions{Logger: slog.New(logs)}, func(string) string {
		return `{"tools":[{"name":"bad","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"has space"}}}},{"name":"good","inputSchema":{"type":"object"}}]}`
	})
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	logs.mu.Lock()
	defer logs.mu.Unlock()
	said := strings.Join(logs.records, "\n")
	if len(res.Tools) != 1 || res.Tools[0].Name != "good" || !strings.Contains(said, "excluding tool") || !strings.Contains(said, "tool=bad") || !strings.Contains(said, "error=") {
		t.Errorf("the go-sdk alone listed %d tools and logged %q; v1.8.0 left \"bad\" out with a record \"excluding tool\" naming the tool and the error: sdkLog must follow", len(res.Tools), said)
	}
}
