package render

import (
	"bytes"
	"strings"
	"testing"
)

func TestServerStderr(t *testing.T) {
	var b bytes.Buffer
	con := NewConsole(&b, ConsoleOptions{})
	w := con.ServerStderr("[server stderr] ")
	for _, chunk := range []string{
		"starting on st", "dio\nloaded 3 tools\r\n",
		"\x1b[31mred\x1b[0m and \x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \u202eabc\n",
		"no newline at the end",
	} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatalf("Write(%q) = %v", chunk, err)
		}
	}
	before := b.String()
	if err := w.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	want := "[server stderr] starting on stdio\n" +
		"[server stderr] loaded 3 tools\n" +
		"[server stderr] red and link <U+202E>abc\n"
	if before != want {
		t.Errorf("lines shown as they completed:\n%q\nwant\n%q", before, want)
	}
	if got, last := b.String(), "[server stderr] no newline at the end\n"; got != want+last {
		t.Errorf("after Close:\n%q\nwant the last line too: %q", got, last)
	}
}

func TestServerStderrLongLine(t *testing.T) {
	var b bytes.Buffer
	w := NewConsole(&b, ConsoleOptions{}).ServerStderr("> ")
	w.Write([]byte(strings.Repeat("x", maxStderrLine+10)))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1 || len(lines[0]) != len("> ")+maxStderrLine {
		t.Errorf("a runaway line is shown in pieces of %d bytes; got %d line(s) of %d bytes", maxStderrLine, len(lines), len(lines[0]))
	}
}
