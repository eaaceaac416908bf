package client

import (
	"encoding/json"
	"fmt"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/transport"
)

// The bounds on what one response of a list or a completion holds are
// applied to the bytes the server sent, before the go-sdk decodes them: a
// page of 256 MiB of {} is some 85 million tools to it, and a completion
// of "" as many strings. Past a bound, the go-sdk gets a stub (as for a big
// result, see bigresult.go) and the caller learns what was left out from
// the request's exchange.

// MaxCompletionValues is the most values a completion holds: the spec's
// own bound (completion.mdx: "values ... maximum 100 items").
const MaxCompletionValues = 100

// bounded is the stub the go-sdk gets for a result past a bound, or nil;
// it notes in s's exchange what was left out.
func (w *wire) bounded(s *sent, result []byte, top sentResult) json.RawMessage {
	if s == nil || s.ex == nil {
		return nil
	}
	list := s.method != "completion/complete" && resultField[s.method] != ""
	if list && len(result) < transport.MinStub {
		// Smaller pages are far from the bound (which takes at least
		// 200 KB), and the transport may not offer them to the filter:
		// a stub kept for them would never be taken.
		return nil
	}
	if list {
		return listBound(s.ex, resultField[s.method], result, top.field)
	}
	if s.method == "completion/complete" {
		return completionBound(s.ex, result, top.field)
	}
	return nil
}

// listBound counts the items of a list page (items, its member field), up
// to one past the most its exchange allows; past it, the page is stubbed
// empty.
func listBound(ex *exchange, field string, result, items []byte) json.RawMessage {
	ex.mu.Lock()
	most := ex.maxItems
	ex.mu.Unlock()
	if most <= 0 || len(result) < 2*most { // an item and its comma take two bytes at least
		return nil
	}
	n := 0
	_ = jsonpeek.Array(items, func([]byte) bool { n++; return n <= most })
	if n <= most {
		return nil
	}
	ex.mu.Lock()
	ex.overItems = true
	ex.mu.Unlock()
	return json.RawMessage(fmt.Sprintf(`{%q:[]}`, field))
}

// completionBound counts a completion's values; past MaxCompletionValues,
// the go-sdk gets the first of them only when the result is big enough
// for the transport to offer it to the filter (Complete cuts the rest).
func completionBound(ex *exchange, result, c []byte) json.RawMessage {
	var first [][]byte
	n := 0
	_ = jsonpeek.Array(jsonpeek.Get(c, "values"), func(v []byte) bool {
		if n < MaxCompletionValues {
			first = append(first, v)
		}
		n++
		return true
	})
	ex.mu.Lock()
	ex.values = n
	ex.mu.Unlock()
	if n <= MaxCompletionValues || len(result) < transport.MinStub {
		return nil
	}
	stub := []byte(`{"completion":{"values":[`)
	for i, v := range first {
		if i > 0 {
			stub = append(stub, ',')
		}
		stub = append(stub, v...)
	}
	stub = append(stub, `],"hasMore":true`...)
	if total := jsonpeek.Get(c, "total"); total != nil {
		var t int64
		if jsonpeek.Unmarshal(total, &t) == nil {
			stub = fmt.Appendf(stub, `,"total":%d`, t)
		}
	}
	return append(stub, "}}"...)
}
