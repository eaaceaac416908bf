package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func note(token any, progress, total float64, msg string) *mcp.ProgressNotificationParams {
	return &mcp.ProgressNotificationParams{ProgressToken: token, Progress: progress, Total: total, Message: msg}
}

func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, ProgressOptions{})
	p.Update(note("a", 1, 4, "fetching \x1b[31mradar\x1b[0m"))
	p.Update(note("a", 1, 4, "fetching \x1b[31mradar\x1b[0m")) // a repeat
	p.Update(note("a", 2.5, 4, ""))
	p.Update(note("a", 7, 0, "no total"))
	p.Done()
	p.Update(note("a", 8, 0, "late")) // after the answer
	want := "progress:  25% (1/4) fetching radar\n" +
		"progress:  62% (2.5/4)\n" +
		"progress: 7 no total\n"
	if b.String() != want {
		t.Errorf("plain progress:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestProgressLiveLine(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, ProgressOptions{Live: true, Width: 80})
	p.Update(note(1, 50, 100, "halfway"))
	got := b.String()
	if !strings.HasPrefix(got, "\r\x1b[2K") {
		t.Errorf("a live update does not start by clearing the line: %q", got)
	}
	line := strings.TrimPrefix(got, "\r\x1b[2K")
	if want := strings.Repeat("#", 12) + strings.Repeat("-", 12) + "  50% 50/100  halfway"; line != want {
		t.Errorf("live line = %q, want %q", line, want)
	}
	if strings.Contains(line, "\n") {
		t.Errorf("the live line ends a line: %q", line)
	}

	b.Reset()
	p.Update(note(1, 60, 0, "unknown total"))
	if got := strings.TrimPrefix(b.String(), "\r\x1b[2K"); got != "… 60  unknown total" {
		t.Errorf("live line without total = %q", got)
	}

	b.Reset()
	p.Clear()
	p.Clear()
	if b.String() != "\r\x1b[2K" {
		t.Errorf("Clear wrote %q, want one line clear", b.String())
	}
}

func TestProgressLiveLineFitsTheTerminal(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, ProgressOptions{Live: true, Width: 40, Color: true})
	p.Update(note("t", 3, 10, strings.Repeat("very long message ", 10)))
	line := strings.TrimPrefix(b.String(), "\r\x1b[2K")
	if w := ansi.StringWidth(line); w >= 40 {
		t.Errorf("the live line is %d columns wide on a 40-column terminal: %q", w, line)
	}
	if !strings.HasSuffix(ansi.Strip(line), "…") {
		t.Errorf("a cut line does not end with …: %q", line)
	}
}

func TestProgressColorBar(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, ProgressOptions{Live: true, Width: 100, Color: true})
	p.Update(note("t", 1, 2, ""))
	line := strings.TrimPrefix(b.String(), "\r\x1b[2K")
	if !strings.Contains(line, "\x1b[") {
		t.Errorf("a color bar has no color: %q", line)
	}
	if got := ansi.Strip(line); !strings.HasSuffix(got, " 50% 1/2") {
		t.Errorf("color live line reads %q", got)
	}
}
