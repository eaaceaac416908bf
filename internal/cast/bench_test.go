package cast

import (
	"io"
	"strings"
	"testing"
)

// A frame of a form, escapes and box drawing included, as bubbletea
// writes it: what --cast adds to each frame drawn.
func BenchmarkWriteFrame(b *testing.B) {
	frame := []byte(strings.Repeat("\x1b[38;5;105m┃\x1b[39m Account * \x1b[2m— the accounts found for you\x1b[22m\r\n", 24))
	w, err := New(io.Discard, Header{Width: 80, Height: 24}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		w.Write(frame)
	}
}
