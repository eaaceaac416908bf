package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

type traceLine struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

type traceMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

type mrtrParams struct {
	Name           string                     `json:"name"`
	URI            string                     `json:"uri"`
	Arguments      json.RawMessage            `json:"arguments"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   *string                    `json:"requestState"`
}

type mrtrResult struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
}

// checktrace FILE METHOD RETRIES checks, as an outside reviewer would, every
// request of METHOD in a --trace file: a new id each time, the same name
// and arguments, inputResponses keyed exactly as the previous interim
// result asked, and requestState identical to what the server sent (absent
// when it sent none). RETRIES is the number of retries expected.
func cmdCheckTrace(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: checktrace FILE METHOD RETRIES")
	}
	wantRetries, err := strconv.Atoi(args[2])
	ts.Check(err)
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var sends []traceMsg
	results := map[string]mrtrResult{} // by response id
	ids := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var l traceLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			ts.Fatalf("trace line %q is not JSON: %v", sc.Text(), err)
		}
		if len(l.Msg) == 0 {
			continue // HTTP headers
		}
		var m traceMsg
		ts.Check(json.Unmarshal(l.Msg, &m))
		if l.Dir == "send" && m.Method != "" && len(m.ID) > 0 {
			if ids[string(m.ID)] {
				ts.Fatalf("request id %s was used twice", m.ID)
			}
			ids[string(m.ID)] = true
			if m.Method == args[1] {
				sends = append(sends, m)
			}
		}
		if l.Dir == "recv" && len(m.Result) > 0 {
			var r mrtrResult
			ts.Check(json.Unmarshal(m.Result, &r))
			results[string(m.ID)] = r
		}
	}
	ts.Check(sc.Err())
	if len(sends) == 0 {
		ts.Fatalf("no %s request in the trace", args[1])
	}
	var first mrtrParams
	ts.Check(json.Unmarshal(sends[0].Params, &first))
	if first.InputResponses != nil || first.RequestState != nil {
		ts.Fatalf("the first %s carries inputResponses or requestState", args[1])
	}
	for i := 1; i < len(sends); i++ {
		var p mrtrParams
		ts.Check(json.Unmarshal(sends[i].Params, &p))
		if p.Name != first.Name || p.URI != first.URI || !jsonEqual(p.Arguments, first.Arguments) {
			ts.Fatalf("retry %d changed the request: %s, first was %s", i, sends[i].Params, sends[0].Params)
		}
		prev, ok := results[string(sends[i-1].ID)]
		if !ok || prev.ResultType != "input_required" {
			ts.Fatalf("retry %d follows a result that was not input_required", i)
		}
		if got, want := sortedKeysOf(p.InputResponses), sortedKeysOf(prev.InputRequests); !reflect.DeepEqual(got, want) {
			ts.Fatalf("retry %d inputResponses keys %v, want the asked keys %v", i, got, want)
		}
		switch {
		case prev.RequestState == nil && p.RequestState != nil:
			ts.Fatalf("retry %d sends requestState %q though the server sent none", i, *p.RequestState)
		case prev.RequestState != nil && (p.RequestState == nil || *p.RequestState != *prev.RequestState):
			ts.Fatalf("retry %d requestState %v, want %q", i, p.RequestState, *prev.RequestState)
		}
	}
	if got := len(sends) - 1; got != wantRetries {
		ts.Fatalf("%d retries of %s, want %d", got, args[1], wantRetries)
	}
	ts.Logf("checktrace: %s sent %d times; ids new, arguments kept, keys and requestState as asked", args[1], len(sends))
}

func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func sortedKeysOf(m map[string]json.RawMessage) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
