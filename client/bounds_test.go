package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/transport"
)

// toolPage is a tools/list result of n tools, numbered from first.
func toolPage(first, n int, next string) string {
	var b strings.Builder
	b.WriteString(`{"resultType":"complete","tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"t%d","inputSchema":{"type":"object"}}`, first+i)
	}
	b.WriteString(`]`)
	if next != "" {
		fmt.Fprintf(&b, `,"nextCursor":%q`, next)
	}
	b.WriteString(`}`)
	return b.String()
}

func connectHTTP(t *testing.T, url string, opts client.Options) *client.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	s, err := client.Connect(ctx, &transport.HTTP{URL: url}, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The list bound of 100,000 items holds within one page (issue 22): a
// page with more items than are left is refused before the go-sdk
// decodes it (it makes a Tool of each, at some 30 KB apiece: a page of
// 256 MiB of {} would be 85 million of them). The bound counts the items
// of earlier pages too (TestListBoundCountsWhatIsLeft).
func TestTheListBoundHoldsWithinAPage(t *testing.T) {
	page := toolPage(0, client.MaxListItems+1, "")
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) { wiretest.Result(w, r, page) },
	})
	s := connectHTTP(t, srv.URL, client.Options{})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := s.ListTools(context.Background())
	runtime.ReadMemStats(&after)
	var pe *client.PageLimitError
	if !errors.As(err, &pe) || !pe.InPage || pe.Pages != 1 || pe.Items != 0 {
		t.Fatalf("ListTools of one page of %d tools = %v; want a PageLimitError for page 1", client.MaxListItems+1, err)
	}
	if !strings.Contains(err.Error(), "page 1 alone holds more than the 100000 left after 0 items") {
		t.Errorf("error %q does not say the page alone was too long", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*uint64(len(page)) {
		t.Errorf("refusing a page of %d MiB allocated %d MiB: it was decoded", len(page)>>20, alloc>>20)
	}
}

// Completion values are capped at the spec's 100, with a note when the
// server sent more (issue 22).
func TestCompletionValuesAreCapped(t *testing.T) {
	values := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprintf("%q", fmt.Sprintf("v%d", i))
		}
		return "[" + strings.Join(vs, ",") + "]"
	}
	for _, tc := range []struct {
		sent, total int
		more        bool
	}{
		{100, 0, false},
		{101, 0, true},
		{150, 400, true},
		{50_000, 0, true}, // beyond what the go-sdk is given to decode
	} {
		t.Run(fmt.Sprint(tc.sent), func(t *testing.T) {
			srv := wiretest.New(t, map[string]wiretest.Handler{
				"server/discover": wiretest.Discover([]string{"2026-07-28"}, `{"prompts":{},"completions":{}}`),
				"completion/complete": func(w http.ResponseWriter, r *wiretest.Request, n int) {
					total := ""
					if tc.total > 0 {
						total = fmt.Sprintf(`,"total":%d`, tc.total)
					}
					wiretest.Result(w, r, `{"resultType":"complete","completion":{"values":`+values(tc.sent)+total+`}}`)
				},
			})
			var warned []string
			s := connectHTTP(t, srv.URL, client.Options{Warn: func(m string) { warned = append(warned, m) }})
			c, err := s.Complete(context.Background(), &mcp.CompleteReference{Type: "ref/prompt", Name: "p"}, "arg", "", nil)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if want := min(tc.sent, client.MaxCompletionValues); len(c.Values) != want || c.Values[want-1] != fmt.Sprintf("v%d", want-1) {
				t.Errorf("Complete of %d values kept %d; want the first %d", tc.sent, len(c.Values), want)
			}
			if c.More != tc.more || c.Cut != max(tc.sent-client.MaxCompletionValues, 0) {
				t.Errorf("Complete of %d values: More %v, Cut %d; want %v, %d", tc.sent, c.More, c.Cut, tc.more, max(tc.sent-client.MaxCompletionValues, 0))
			}
			if tc.total > 0 && c.Total != tc.total {
				t.Errorf("Complete: Total %d, want the server's %d", c.Total, tc.total)
			}
			note := strings.Join(warned, "\n")
			if tc.more != strings.Contains(note, fmt.Sprintf("sent %d values to complete \"arg\"; mcpcli keeps the first 100", tc.sent)) {
				t.Errorf("warnings %q; want a note that %d values were sent: %v", note, tc.sent, tc.more)
			}
		})
	}
}
