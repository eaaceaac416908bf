package cast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock is a fake clock: each call of now returns the current time; step
// moves it on.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Unix(1_700_000_000, 0)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func TestHeader(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Header
		want string
	}{
		{"size only", Header{Width: 80, Height: 24}, `{"version": 2, "width": 80, "height": 24}`},
		{"everything", Header{Width: 120, Height: 40, Timestamp: time.Unix(1_700_000_000, 0), IdleTimeLimit: 1500 * time.Millisecond,
			Title: `mcpcli "demo"`, Env: map[string]string{"TERM": "xterm-256color", "SHELL": "/bin/sh"}},
			`{"version": 2, "width": 120, "height": 40, "timestamp": 1700000000, "idle_time_limit": 1.500000, "title": "mcpcli \"demo\"", "env": {"SHELL": "/bin/sh", "TERM": "xterm-256color"}}`},
	} {
		var b bytes.Buffer
		if _, err := New(&b, tc.h, newClock().now); err != nil {
			t.Fatalf("%s: New: %v", tc.name, err)
		}
		if got := b.String(); got != tc.want+"\n" {
			t.Errorf("%s: header\n got %s\nwant %s", tc.name, got, tc.want)
		}
		var v map[string]any
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Errorf("%s: the header is not JSON: %v", tc.name, err)
		}
	}
	if _, err := New(io.Discard, Header{Width: 0, Height: 24}, nil); err == nil {
		t.Error("New(width 0) = nil error, want one: a cast needs a size")
	}
}

func TestEvents(t *testing.T) {
	var b bytes.Buffer
	clk := newClock()
	w, err := New(&b, Header{Width: 80, Height: 24}, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	clk.step(250 * time.Millisecond)
	w.Write([]byte("hello \"world\"\r\n\x1b[1mbold\x1b[0m\ttab\\"))
	clk.step(1234567 * time.Microsecond)
	w.Resize(100, 30)
	clk.step(time.Millisecond)
	w.Mark("create_repo · round 2 · details: decline")
	w.Write([]byte("\u2028é\x00\x7f"))
	w.Write([]byte("bad \xff byte"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("after close"))
	got := lines(b.String())[1:]
	want := []string{
		`[0.250000, "o", "hello \"world\"\r\n\u001b[1mbold\u001b[0m\ttab\\"]`,
		`[1.484567, "r", "100x30"]`,
		`[1.485567, "m", "create_repo · round 2 · details: decline"]`,
		`[1.485567, "o", "\u2028é\u0000\u007f"]`,
		`[1.485567, "o", "bad ` + "\ufffd" + ` byte"]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// What was written reads back as it was written.
	_, events, err := ReadAll(&b)
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if events[0].Data != "hello \"world\"\r\n\x1b[1mbold\x1b[0m\ttab\\" || events[3].Data != "\u2028é\x00\x7f" {
		t.Errorf("read back %+v", events)
	}
}

// A UTF-8 character cut between two writes is written whole, in the event
// of the write that completes it; one cut at the end is U+FFFD.
func TestOutputKeepsCharactersWhole(t *testing.T) {
	var b bytes.Buffer
	w, _ := New(&b, Header{Width: 80, Height: 24}, newClock().now)
	w.Write([]byte("a\xe2\x94")) // the first two bytes of "─"
	w.Write([]byte("\x80b"))
	w.Write([]byte("\xf0\x9f")) // half an emoji
	w.Write([]byte("\x98\x80"))
	w.Write([]byte("c\xe2"))
	w.Close()
	_, events, err := ReadAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	var data []string
	for _, e := range events {
		data = append(data, e.Data)
	}
	want := []string{"a", "─b", "😀", "c", "\ufffd"}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("output events (-want +got):\n%s", diff)
	}
}

// A huge write is cut into events of bounded size, at character
// boundaries, and nothing is lost.
func TestLargeWriteIsChunked(t *testing.T) {
	var b bytes.Buffer
	w, _ := New(&b, Header{Width: 80, Height: 24}, newClock().now)
	big := strings.Repeat("é─x", 100_000) // 600 KB, characters of 1 to 3 bytes
	w.Write([]byte(big))
	w.Close()
	_, events, err := ReadAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, e := range events {
		if len(e.Data) > maxChunk+utf8Max {
			t.Errorf("an event of %d bytes, want at most %d", len(e.Data), maxChunk)
		}
		got.WriteString(e.Data)
	}
	if len(events) < 2 || got.String() != big {
		t.Errorf("%d events, %d bytes back of %d", len(events), got.Len(), len(big))
	}
}

const utf8Max = 3

// --cast-idle: a pause longer than the limit counts as the limit; shorter
// ones are kept.
func TestIdleTimeLimit(t *testing.T) {
	var b bytes.Buffer
	clk := newClock()
	w, _ := New(&b, Header{Width: 80, Height: 24, IdleTimeLimit: 2 * time.Second}, clk.now)
	for _, d := range []time.Duration{time.Second, 10 * time.Second, 500 * time.Millisecond, time.Hour, 2 * time.Second} {
		clk.step(d)
		w.Write([]byte("x"))
	}
	w.Close()
	h, events, err := ReadAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	if h.IdleTimeLimit != 2*time.Second {
		t.Errorf("header idle_time_limit %v, want 2s", h.IdleTimeLimit)
	}
	var times []float64
	for _, e := range events {
		times = append(times, e.Time)
	}
	if diff := cmp.Diff([]float64{1, 3, 3.5, 5.5, 7.5}, times); diff != "" {
		t.Errorf("times (-want +got):\n%s", diff)
	}
}

// A clock that goes back (a test's, or a wall clock stepped) never makes
// times decrease.
func TestTimesNeverDecrease(t *testing.T) {
	var b bytes.Buffer
	clk := newClock()
	w, _ := New(&b, Header{Width: 80, Height: 24}, clk.now)
	clk.step(time.Second)
	w.Write([]byte("a"))
	clk.step(-500 * time.Millisecond)
	w.Write([]byte("b"))
	clk.step(time.Second)
	w.Write([]byte("c"))
	w.Close()
	_, events, err := ReadAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	var times []float64
	for _, e := range events {
		times = append(times, e.Time)
	}
	if diff := cmp.Diff([]float64{1, 1, 1.5}, times); diff != "" {
		t.Errorf("times (-want +got):\n%s", diff)
	}
}

// Writers on several goroutines: every line whole, every byte there, in
// each writer's order, times never decreasing.
func TestConcurrentWrites(t *testing.T) {
	var b lockedBuffer
	w, _ := New(&b, Header{Width: 80, Height: 24}, nil)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				switch j % 10 {
				case 0:
					w.Mark(fmt.Sprintf("m%d.%d", i, j))
				case 1:
					w.Resize(80+i, 24)
				default:
					fmt.Fprintf(w, "<%d.%d>", i, j)
				}
			}
		}()
	}
	wg.Wait()
	w.Close()
	_, events, err := ReadAll(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if len(events) != writers*each {
		t.Fatalf("%d events, want %d", len(events), writers*each)
	}
	next := make([]int, writers)
	for _, e := range events {
		var i, j int
		switch e.Code {
		case Output:
			fmt.Sscanf(e.Data, "<%d.%d>", &i, &j)
		case Marker:
			fmt.Sscanf(e.Data, "m%d.%d", &i, &j)
		default:
			continue
		}
		for next[i]%10 == 1 {
			next[i]++ // resizes carry no number
		}
		if j != next[i] {
			t.Fatalf("writer %d: event %d after %d", i, j, next[i]-1)
		}
		next[i]++
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte { return l.b.Bytes() }

// Each event is one write of one whole line: a file cut by a crash ends on
// a line boundary.
func TestOneWritePerLine(t *testing.T) {
	var rec writeRecorder
	w, _ := New(&rec, Header{Width: 80, Height: 24}, nil)
	w.Write([]byte("one\ntwo\n"))
	w.Mark("m")
	w.Resize(1, 2)
	w.Close()
	for i, p := range rec.writes {
		if bytes.Count(p, []byte("\n")) != 1 || !bytes.HasSuffix(p, []byte("\n")) {
			t.Errorf("write %d is not one whole line: %q", i, p)
		}
	}
	if len(rec.writes) != 4 {
		t.Errorf("%d writes, want 4 (header, output, marker, resize)", len(rec.writes))
	}
}

type writeRecorder struct{ writes [][]byte }

func (r *writeRecorder) Write(p []byte) (int, error) {
	r.writes = append(r.writes, append([]byte(nil), p...))
	return len(p), nil
}

// A write error stops the cast and is kept for Err and Close.
func TestWriteError(t *testing.T) {
	fw := &failWriter{after: 2}
	w, err := New(fw, Header{Width: 80, Height: 24}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("a"))
	w.Write([]byte("b"))
	w.Write([]byte("c"))
	if w.Err() == nil || w.Close() == nil {
		t.Errorf("Err() = %v after a failed write, want the error", w.Err())
	}
	if fw.n != 3 {
		t.Errorf("%d writes tried, want 3: none after the one that failed", fw.n)
	}
}

type failWriter struct{ n, after int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	if f.n > f.after {
		return 0, io.ErrShortWrite
	}
	return len(p), nil
}

func TestReadRejects(t *testing.T) {
	for _, tc := range []struct{ name, cast, want string }{
		{"empty", "", "no header"},
		{"v3", `{"version": 3, "term": {"cols": 80, "rows": 24}}` + "\n", "not an asciicast v2 header"},
		{"no size", `{"version": 2}` + "\n", "not a size"},
		{"not JSON", `{"version": 2, "width": 80, "height": 24}` + "\n[0.1, \"o\", \"a\"\n", "line 2"},
		{"time goes back", `{"version": 2, "width": 80, "height": 24}` + "\n[1.0, \"o\", \"a\"]\n[0.5, \"o\", \"b\"]\n", "line 3: time 0.5 comes after 1"},
		{"two elements", `{"version": 2, "width": 80, "height": 24}` + "\n[1.0, \"o\"]\n", "3 elements"},
		{"bad resize", `{"version": 2, "width": 80, "height": 24}` + "\n[1.0, \"r\", \"80\"]\n", "not COLSxROWS"},
	} {
		_, _, err := ReadAll(strings.NewReader(tc.cast))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ReadAll = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// The helper process for TestSignalMidRun: it records output as fast as
// it can until a signal ends it.
func TestMain(m *testing.M) {
	if path := os.Getenv("CAST_TEST_WRITE"); path != "" {
		w, err := Create(path, Header{Width: 80, Height: 24, Timestamp: time.Now()}, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.WriteFile(path+".ready", nil, 0o644)
		for i := 0; ; i++ {
			fmt.Fprintf(w, "line %d: ─ \x1b[1mé\x1b[0m %s\r\n", i, strings.Repeat("x", i%500))
			if i%50 == 0 {
				w.Mark(fmt.Sprintf("marker %d", i))
			}
		}
	}
	os.Exit(m.Run())
}

// A run stopped by a signal mid-write (SIGKILL: no handler, no flush)
// leaves a cast that reads whole: the header first, every line complete.
func TestSignalMidRun(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT} {
		path := filepath.Join(t.TempDir(), "run.cast")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CAST_TEST_WRITE="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			st, err := os.Stat(path)
			if _, rerr := os.Stat(path + ".ready"); err == nil && rerr == nil && st.Size() > 256<<10 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("%v: the helper wrote no cast within 20s", sig)
			}
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		h, events, err := ReadAll(f)
		f.Close()
		if err != nil {
			t.Fatalf("%v: the cast left does not read: %v", sig, err)
		}
		if h.Width != 80 || len(events) < 100 {
			t.Errorf("%v: header %+v, %d events", sig, h, len(events))
		}
		b, _ := os.ReadFile(path)
		if !bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("%v: the cast ends inside a line: %q", sig, b[max(len(b)-80, 0):])
		}
	}
}

func TestCastSize(t *testing.T) {
	for _, tc := range []struct {
		env        map[string]string
		cols, rows int
	}{
		{nil, 80, 24},
		{map[string]string{"COLUMNS": "132", "LINES": "43"}, 132, 43},
		{map[string]string{"COLUMNS": "132"}, 80, 24},
		{map[string]string{"COLUMNS": "x", "LINES": "43"}, 80, 24},
	} {
		cols, rows := Size(nil, func(k string) string { return tc.env[k] })
		if cols != tc.cols || rows != tc.rows {
			t.Errorf("Size(no terminal, %v) = %dx%d, want %dx%d", tc.env, cols, rows, tc.cols, tc.rows)
		}
	}
}
