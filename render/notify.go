package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// NotificationLine is one server notification for a person, on one
// sanitized line: its method, then what its params say, in a few words.
func NotificationLine(method string, params json.RawMessage) string {
	var p map[string]json.RawMessage
	_ = json.Unmarshal(params, &p)
	str := func(k string) string {
		var s string
		if json.Unmarshal(p[k], &s) == nil {
			return s
		}
		return strings.TrimSpace(string(p[k]))
	}
	var detail string
	switch method {
	case "notifications/resources/updated":
		detail = str("uri")
	case "notifications/message":
		detail = fmt.Sprintf("[%s", str("level"))
		if l := str("logger"); l != "" {
			detail += " " + l
		}
		detail += "] " + str("data")
	case "notifications/progress":
		detail = fmt.Sprintf("%s %s", str("progressToken"), str("progress"))
		if t := str("total"); t != "" {
			detail += "/" + t
		}
		if m := str("message"); m != "" {
			detail += " " + m
		}
	case "notifications/subscriptions/acknowledged":
		detail = acknowledged(p["notifications"])
	case "notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed":
	default:
		if len(p) > 0 {
			var b bytes.Buffer
			if json.Compact(&b, params) == nil {
				detail = b.String()
			}
		}
	}
	if detail == "" {
		return Line(method)
	}
	return Line(method) + " " + Line(detail)
}

// acknowledged says what a subscriptions/listen acknowledgement agreed to.
func acknowledged(raw json.RawMessage) string {
	var n struct {
		Tools     bool     `json:"toolsListChanged"`
		Prompts   bool     `json:"promptsListChanged"`
		Resources bool     `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
		TaskIDs   []string `json:"taskIds"`
	}
	_ = json.Unmarshal(raw, &n)
	var parts []string
	for _, l := range []struct {
		on   bool
		name string
	}{{n.Tools, "tools"}, {n.Prompts, "prompts"}, {n.Resources, "resources"}} {
		if l.on {
			parts = append(parts, l.name+" list changes")
		}
	}
	for _, u := range n.URIs {
		parts = append(parts, "resource "+u)
	}
	for _, id := range n.TaskIDs {
		parts = append(parts, "task "+id)
	}
	if len(parts) == 0 {
		return "(nothing)"
	}
	return strings.Join(parts, ", ")
}

// WriteJSONLine writes a message as one line of compact JSON, with the
// controls a terminal would obey escaped: -o json of watch.
func WriteJSONLine(w io.Writer, raw json.RawMessage) error {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		// Not JSON (it was read as a message, so this cannot happen):
		// keep it, as a string.
		b.Reset()
		b.WriteString(strconv.Quote(string(raw)))
	}
	b.WriteByte('\n')
	_, err := w.Write(textsafe.EscapeJSON(b.Bytes()))
	return err
}

// TaskLine is a task's status for a person: "task 786512e2…: working —
// Gathering sources...".
func TaskLine(st client.TaskStatus) string {
	id := st.TaskID
	if r := []rune(id); len(r) > 12 {
		id = string(r[:8]) + "…"
	}
	line := fmt.Sprintf("task %s: %s", Line(id), Line(st.Status))
	if st.StatusMessage != "" {
		line += " — " + Line(st.StatusMessage)
	}
	return line
}

// Notifications prints notifications, one line each as they arrive (with
// asJSON, each message as received: JSON Lines), for mcpcli watch.
type Notifications struct {
	mu     sync.Mutex
	out    io.Writer
	asJSON bool
}

// NewNotifications prints to out.
func NewNotifications(out io.Writer, asJSON bool) *Notifications {
	return &Notifications{out: out, asJSON: asJSON}
}

// Write prints n; it is client.Options.OnNotification.
func (w *Notifications) Write(n client.Notification) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.asJSON {
		_ = WriteJSONLine(w.out, n.Raw)
		return
	}
	fmt.Fprintln(w.out, NotificationLine(n.Method, n.Params))
}
