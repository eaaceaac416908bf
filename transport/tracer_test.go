package transport

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestTracerLinesAndRedaction(t *testing.T) {
	var buf bytes.Buffer
	tr := NewTracer(&buf)
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	tr.Observe(Event{Time: at, Dir: Send, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)})
	tr.Observe(Event{Time: at, Dir: Recv, Msg: []byte(`not json`)})
	tr.Observe(Event{Time: at, Dir: Send, HTTP: &HTTPHeaders{Method: "POST", URL: "http://x/mcp", Header: http.Header{
		"Authorization": {"Bearer secret"}, "Cookie": {"a=b"}, "X-Ok": {"fine"}}}})
	tr.Observe(Event{Time: at, Dir: Recv, HTTP: &HTTPHeaders{Status: 200, Header: http.Header{"Set-Cookie": {"s=1"}}}})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("tracer wrote %d lines, want 4:\n%s", len(lines), buf.String())
	}
	want := []string{
		`{"time":"2026-11-30T10:00:00Z","dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}`,
		`{"time":"2026-11-30T10:00:00Z","dir":"recv","msg":"not json"}`,
		`{"time":"2026-11-30T10:00:00Z","dir":"send","http":{"method":"POST","url":"http://x/mcp","headers":{"Authorization":["[redacted]"],"Cookie":["[redacted]"],"X-Ok":["fine"]}}}`,
		`{"time":"2026-11-30T10:00:00Z","dir":"recv","http":{"status":200,"headers":{"Set-Cookie":["[redacted]"]}}}`,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("trace line %d =\n  %s\nwant\n  %s", i+1, lines[i], want[i])
		}
	}
}

func TestLineReaderSplitsMessagesAcrossReads(t *testing.T) {
	r := iotest.OneByteReader(strings.NewReader(`{"a":` + `1}` + "\n" + `{"b":2}` + "\r\n\n  \n" + `{"c"` + `:3}`))
	lr := &lineReader{r: bufio.NewReaderSize(r, 16), max: 64}
	var got []string
	for {
		line, err := lr.next()
		if err != nil {
			break
		}
		got = append(got, string(line))
	}
	want := []string{`{"a":1}`, `{"b":2}`, `{"c":3}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lineReader read %q, want %q", got, want)
	}
}

func TestLineReaderRefusesALineLongerThanItsBound(t *testing.T) {
	lr := &lineReader{r: bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\n"), 16), max: 64}
	var tl *TooLongError
	if _, err := lr.next(); !errors.As(err, &tl) {
		t.Errorf("next() on a 100-byte line with max 64 = %v, want a TooLongError", err)
	}
	// The bound is on the line, its ending aside: exactly, however the
	// line ends and however it is read.
	for _, tc := range []struct {
		in      string
		tooLong bool
	}{
		{"xxxx\r\n", false},
		{"xxxx\n", false},
		{"xxxx", false},
		{"xxxxx\n", true},
		{"xxxxx", true},
		{"xxxxxx", true},
		{"xxxx\r\r\n", true},
		{strings.Repeat("x", 20) + "\n", true},
	} {
		for _, size := range []int{16, 4096} {
			lr := &lineReader{r: bufio.NewReaderSize(iotest.HalfReader(strings.NewReader(tc.in)), size), max: 4}
			_, err := lr.next()
			if got := errors.As(err, &tl); got != tc.tooLong {
				t.Errorf("next() on %q with max 4 (buffer %d) = %v; want a TooLongError: %v", tc.in, size, err, tc.tooLong)
			}
		}
	}
}

func TestEventBodyReportsEventData(t *testing.T) {
	stream := "event: message\nid: 1\ndata: {\"id\":1,\ndata: \"result\":{}}\n\n: comment\n\ndata: {\"id\":2}\r\n\r\n"
	var got []string
	eb := &eventBody{reading: reading{obs: func(ev Event) { got = append(got, string(ev.Msg)) }}, rc: io.NopCloser(strings.NewReader(stream))}
	b := make([]byte, 7) // small reads split lines
	var out []byte
	for {
		n, err := eb.Read(b)
		out = append(out, b[:n]...)
		if err != nil {
			break
		}
	}
	want := []string{"{\"id\":1,\n\"result\":{}}", `{"id":2}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("eventBody reported %q, want %q", got, want)
	}
	// Handed on plainly: no comment, no space after the colons.
	if want := "event:message\nid:1\ndata:{\"id\":1,\ndata:\"result\":{}}\n\ndata:{\"id\":2}\n\n"; string(out) != want {
		t.Errorf("eventBody handed on %q, want %q", out, want)
	}
}

func TestParseHeader(t *testing.T) {
	tests := []struct {
		in, name, value, err string
	}{
		{"Authorization: Bearer x", "Authorization", "Bearer x", ""},
		{"X-Empty:", "X-Empty", "", ""},
		{"no colon", "", "", "must look like"},
		{"Bad Name: v", "", "", "not a valid header name"},
	}
	for _, tt := range tests {
		h := http.Header{}
		err := ParseHeader(h, tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseHeader(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || h.Get(tt.name) != tt.value {
			t.Errorf("ParseHeader(%q) = %v, %q; want %q", tt.in, err, h.Get(tt.name), tt.value)
		}
	}
}

func TestTracerKeepsTheMessagesCharacters(t *testing.T) {
	var buf bytes.Buffer
	msg := `{"result":{"requestState":"<a&b> \u00e9 \u2028 é` + "\u2028" + ` \"q\" \\ \/"}}`
	NewTracer(&buf).Observe(Event{Time: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), Dir: Recv, Msg: []byte(msg)})
	want := `{"time":"2026-11-30T10:00:00Z","dir":"recv","msg":` + msg + "}\n"
	if got := buf.String(); got != want {
		t.Errorf("trace line =\n  %q\nwant the message as it came\n  %q", got, want)
	}
}

func TestTracerEscapesControlsForTerminals(t *testing.T) {
	msg := []byte("{\"result\":{\"text\":\"\u009b2J\u202eabc\"}}")
	var file, term bytes.Buffer
	NewTracer(&file).Observe(Event{Dir: Recv, Msg: msg})
	tt := NewTracer(&term)
	tt.EscapeControls = true
	tt.Observe(Event{Dir: Recv, Msg: msg})
	if !bytes.Contains(file.Bytes(), []byte("\u009b2J\u202e")) {
		t.Errorf("file trace = %s, want the server's characters as sent", file.Bytes())
	}
	if !bytes.Contains(term.Bytes(), []byte(`\u009b2J\u202eabc`)) || bytes.Contains(term.Bytes(), []byte("\u009b")) {
		t.Errorf("terminal trace = %s, want C1 and bidi as \\u escapes", term.Bytes())
	}
}

// Every header the person gave is redacted, whatever its name: an
// X-Api-Key is as secret as an Authorization.
func TestTracerRedactsTheHeadersThePersonGave(t *testing.T) {
	var buf bytes.Buffer
	tr := NewTracer(&buf)
	tr.RedactHeaders = []string{"X-Api-Key"}
	tr.Observe(Event{Dir: Send, HTTP: &HTTPHeaders{Method: "POST", URL: "http://x/mcp", Header: http.Header{
		"X-Api-Key": {"k3y"}, "Authorization": {"Bearer t0ken"}, "Mcp-Method": {"tools/call"}}}})
	got := buf.String()
	for _, secret := range []string{"k3y", "t0ken"} {
		if strings.Contains(got, secret) {
			t.Errorf("the trace shows %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, `"X-Api-Key":["[redacted]"]`) || !strings.Contains(got, `"Mcp-Method":["tools/call"]`) {
		t.Errorf("the trace does not redact X-Api-Key alone:\n%s", got)
	}
}
