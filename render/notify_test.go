package render

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestNotificationLine(t *testing.T) {
	for _, tc := range []struct{ method, params, want string }{
		{"notifications/tools/list_changed", ``, "notifications/tools/list_changed"},
		{"notifications/resources/updated", `{"uri":"demo://clock","_meta":{"x":1}}`, "notifications/resources/updated demo://clock"},
		{"notifications/message", `{"level":"info","logger":"db","data":"hi\u001b[31m there"}`, "notifications/message [info db] hi there"},
		{"notifications/message", `{"level":"error","data":{"code":7}}`, `notifications/message [error] {"code":7}`},
		{"notifications/progress", `{"progressToken":"t1","progress":2,"total":4,"message":"half"}`, "notifications/progress t1 2/4 half"},
		{"notifications/subscriptions/acknowledged", `{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["a://b"]}}`, "notifications/subscriptions/acknowledged tools list changes, resource a://b"},
		{"notifications/custom\u202e", `{"a": [1, 2]}`, `notifications/custom<U+202E> {"a":[1,2]}`},
	} {
		if got := NotificationLine(tc.method, json.RawMessage(tc.params)); got != tc.want {
			t.Errorf("NotificationLine(%s, %s) = %q, want %q", tc.method, tc.params, got, tc.want)
		}
	}
}

func TestWriteJSONLine(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSONLine(&b, json.RawMessage("{\"method\": \"x\",\n \"params\": {\"t\": \"\u009b31m\"}}")); err != nil {
		t.Fatal(err)
	}
	if want := `{"method":"x","params":{"t":"\u009b31m"}}` + "\n"; b.String() != want {
		t.Errorf("WriteJSONLine = %q, want %q", b.String(), want)
	}
}
