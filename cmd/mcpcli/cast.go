package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/internal/cast"
)

// recording is the run's --cast: what mcpcli draws on the terminal (all
// of stderr, and stdout when it is the terminal), as an asciinema cast,
// with a marker for each round and each chapter of the tour. Keys typed
// are never recorded.
type recording struct {
	w    *cast.Writer
	path string
	stop func() // stops watching the terminal's size
}

// startCast starts --cast: from here on, the run's stderr (and stdout,
// when it is the terminal) is also written to the cast.
func (f *Factory) startCast(cmd *cobra.Command) error {
	fl := f.Flags
	if fl.Cast == "" {
		if fl.CastIdle != 0 {
			return usageErrorf(cmd, "--cast-idle goes with --cast FILE: it caps the pauses of the recording")
		}
		return nil
	}
	if fl.CastIdle < 0 {
		return usageErrorf(cmd, "--cast-idle %v: give the longest pause to keep, in seconds, such as 2", fl.CastIdle)
	}
	if f.cast != nil {
		return nil
	}
	d := *f.Deps
	var fds []int // the terminals drawn on, the one to size first
	if fd, ok := cast.TTYFd(d.Err); ok {
		fds = append(fds, fd)
	}
	outFd, outTTY := cast.TTYFd(d.Out)
	if outTTY {
		fds = append(fds, outFd)
	}
	cols, rows := cast.Size(fds, f.getenv)
	h := cast.Header{
		Width: cols, Height: rows, Timestamp: time.Now(),
		IdleTimeLimit: time.Duration(fl.CastIdle * float64(time.Second)),
		Title:         cmd.CommandPath(),
	}
	if t := f.getenv("TERM"); t != "" {
		h.Env = map[string]string{"TERM": t}
	}
	w, err := cast.Create(fl.Cast, h, nil)
	if err != nil {
		return usageErrorf(cmd, "--cast %q: %v", fl.Cast, err)
	}
	rec := &recording{w: w, path: fl.Cast, stop: func() {}}
	if len(fds) > 0 {
		rec.stop = cast.WatchSize(fds[0], cols, rows, w.Resize)
	}
	// Stdout is recorded when it is the terminal: a result drawn there
	// is part of what the person saw. Piped or redirected, it is not.
	d.Err = cast.Tee(d.Err, w)
	if outTTY {
		d.Out = cast.Tee(d.Out, w)
	}
	f.Deps = &d
	f.con = nil
	f.cast = rec
	return nil
}

// endCast closes the cast, saying so when it could not be written whole.
func (f *Factory) endCast() {
	rec := f.cast
	if rec == nil {
		return
	}
	f.cast = nil
	rec.stop()
	if err := rec.w.Close(); err != nil {
		f.Console().Warn(fmt.Sprintf("the recording %s is incomplete: %v", rec.path, err))
	}
}

// mark adds a marker to the cast, if the run records one.
func (f *Factory) mark(label string) {
	if f.cast != nil {
		f.cast.w.Mark(label)
	}
}
