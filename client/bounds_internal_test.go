package client

import (
	"fmt"
	"strings"
	"testing"
)

// A page is stubbed when it holds more items than its exchange allows,
// and only then: the bound is inclusive, and it is what is left of the
// list after the pages before (pages sets maxItems so).
func TestListBoundCountsWhatIsLeft(t *testing.T) {
	page := func(n int) []byte {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`{"name":"t%d"}`, i)
		}
		return []byte(`{"tools":[` + strings.Join(items, ",") + `],"nextCursor":"x"}`)
	}
	for _, tc := range []struct {
		most, items int
		stubbed     bool
	}{
		{3, 3, false},
		{3, 4, true},
		{1, 1, false},
		{1, 2, true},
		{0, 50, false}, // no bound
	} {
		ex := &exchange{maxItems: tc.most}
		p := page(tc.items)
		stub := listBound(ex, "tools", p, peekResult(p, "tools").field)
		if (stub != nil) != tc.stubbed || ex.overItems != tc.stubbed {
			t.Errorf("listBound(at most %d, a page of %d) = %s, over %v; want stubbed %v", tc.most, tc.items, stub, ex.overItems, tc.stubbed)
		}
		if stub != nil && string(stub) != `{"tools":[]}` {
			t.Errorf("listBound stub = %s, want an empty list", stub)
		}
	}
}
