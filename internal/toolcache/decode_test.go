package toolcache

import (
	"encoding/json"
	"reflect"
	"testing"
)

var entryFiles = []string{
	`{"v":1,"receivedMs":1764700000000,"ttlMs":300000,"tools":[{"name":"echo","inputSchema":{"type":"object"}}, {"name":"b"} ]}`,
	`{"v":1,"receivedMs":1,"ttlMs":2,"private":true,"tools":[]}`,
	` { "tools" : null , "v" : 1 } `,
	`{"v":1,"tools":[null, 1, "s", [ 1 , 2 ]]}`,
	`{"v":1,"receivedMs":-5,"ttlMs":1e3}`,
	`{"v":1,"dropped":[{"name":"x","reason":"too big"}],"tools":[]}`,
	`{"V":1,"tools":[]}`,
	`{"v":1,"v":2}`,
	`{"v":1.5}`,
	`{"v":"1"}`,
	`{"v":1,"tools":{}}`,
	`{"v":1,"other":true}`,
	`{"v":1} trailing`,
	`[1]`,
	`{"v":1,"tools":[tru]}`,
	``,
}

// decodeFile reads what json.Unmarshal reads, and refuses what it refuses.
func TestDecodeFileIsJSONUnmarshal(t *testing.T) {
	for _, raw := range entryFiles {
		got, gotOK := decodeFile([]byte(raw))
		var want file
		wantOK := json.Unmarshal([]byte(raw), &want) == nil
		if gotOK != wantOK || wantOK && !reflect.DeepEqual(got, want) {
			t.Errorf("decodeFile(%s) = %+v, %v; json.Unmarshal gives %+v, %v", raw, got, gotOK, want, wantOK)
		}
	}
	// The usual file takes the way without reflection.
	var f file
	if !readMembers([]byte(entryFiles[0]), &f) {
		t.Errorf("readMembers(%s) = false, want the file read without json.Unmarshal", entryFiles[0])
	}
}

func FuzzDecodeFileIsJSONUnmarshal(f *testing.F) {
	for _, raw := range entryFiles {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gotOK := decodeFile(raw)
		var want file
		wantOK := json.Unmarshal(raw, &want) == nil
		if gotOK != wantOK || wantOK && !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeFile(%q) = %+v, %v; json.Unmarshal gives %+v, %v", raw, got, gotOK, want, wantOK)
		}
	})
}
