package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/internal/cast"
)

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
	rec, err := cast.Record(fl.Cast, cmd.CommandPath(), time.Duration(fl.CastIdle*float64(time.Second)), f.Deps.Err, f.Deps.Out, f.getenv)
	if err != nil {
		return usageErrorf(cmd, "--cast %q: %v", fl.Cast, err)
	}
	d := *f.Deps
	d.Err, d.Out = rec.Err, rec.Out
	f.Deps, f.con, f.cast = &d, nil, rec
	return nil
}

// endCast closes the cast, saying so when it could not be written whole.
func (f *Factory) endCast() {
	rec := f.cast
	if rec == nil {
		return
	}
	f.cast = nil
	if err := rec.Close(); err != nil {
		f.Console().Warn(fmt.Sprintf("the recording %s is incomplete: %v", rec.Path, err))
	}
}

// mark adds a marker to the cast, if the run records one.
func (f *Factory) mark(label string) {
	if f.cast != nil {
		f.cast.Mark(label)
	}
}
