// Command democast records the tour as docs/demo.cast (make demo-cast):
// mcpcli demo --cast in tmux at 80×24, answered with the keys of
// tourtape.Tour and a pause before each, as a person would. It checks the
// recording (a chapter a flow, a marker a round) before it replaces the
// file. It needs tmux.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpcli/mcpcli/internal/cast"
	"github.com/mcpcli/mcpcli/internal/tourtape"
)

func main() {
	bin := flag.String("mcpcli", "bin/mcpcli", "the mcpcli `binary` to record")
	out := flag.String("o", "docs/demo.cast", "write the cast to `FILE`")
	pause := flag.Duration("pause", 700*time.Millisecond, "how long each screen stays before a key is pressed")
	read := flag.Duration("read", 2*time.Second, "how long each new ask stays before its first key")
	idle := flag.String("idle", "3", "the longest pause kept in the cast, in `seconds` (--cast-idle)")
	flag.Parse()
	if err := record(*bin, *out, *pause, *read, *idle); err != nil {
		fmt.Fprintf(os.Stderr, "democast: %v\n", err)
		os.Exit(1)
	}
}

func record(bin, out string, pause, read time.Duration, idle string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no mcpcli to record (make build makes it): %v", err)
	}
	dir, err := os.MkdirTemp("", "democast")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "demo.cast")
	start := time.Now()
	// BROWSER=true "opens" the connect page; the script finishes it, as
	// the person would in the browser.
	env := []string{"BROWSER=true"}
	tm, err := tourtape.Start(dir, 80, 24, env, bin, "demo", "--cast", tmp, "--cast-idle", idle)
	if err != nil {
		return err
	}
	defer tm.Close()
	if err := tourtape.Play(tm, tourtape.Tour(), tourtape.Options{Pause: pause, Read: read, TypeDelay: 80 * time.Millisecond}); err != nil {
		return err
	}
	code, err := tm.Exited(30 * time.Second)
	if err != nil {
		return err
	}
	if code != 0 {
		s, _ := tm.History()
		return fmt.Errorf("mcpcli demo ended with status %d:\n%s", code, s)
	}
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	h, events, err := cast.ReadAll(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("the recording does not read: %v", err)
	}
	var marks []string
	for _, e := range events {
		if e.Code == cast.Marker {
			marks = append(marks, e.Data)
		}
	}
	want := tourtape.Marks()
	if fmt.Sprint(marks) != fmt.Sprint(want) {
		return fmt.Errorf("the recording's markers are\n  %q\nnot\n  %q", marks, want)
	}
	b, err := os.ReadFile(tmp)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return err
	}
	fmt.Printf("democast: wrote %s: %dx%d, %d markers (7 chapters), %.1f s of playing time, %d KB, recorded in %.1f s\n",
		out, h.Width, h.Height, len(marks), events[len(events)-1].Time, len(b)>>10, time.Since(start).Seconds())
	return nil
}
