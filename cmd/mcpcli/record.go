package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/safefile"
)

// addRecordFlag gives cmd --record FILE: the request written as a flow
// file (runner.Recording), through the one writer the sessions' save uses.
func addRecordFlag(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "record", "", "write what happened as a flow `FILE` (the asks, your answers with secrets as $env: references, the result) that 'mcpcli test' replays")
}

// recording is --record path for this run, or nil without it. A file
// that is there and not mcpcli's to write over is refused now, before
// the request is sent: its outcome would have nowhere to go.
func (f *Factory) recording(path string) (*runner.Recording, error) {
	if path == "" {
		return nil, nil
	}
	l := f.ledger()
	if err := safefile.Check(path, l); err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	return &runner.Recording{Path: path, Server: f.flowServer(), Ledger: l}, nil // the server checked by Transport before
}

// ledger is mcpcli's record of the files it wrote (connect.Ledger).
func (f *Factory) ledger() *safefile.Ledger { return connect.Ledger(f.getenv, f.Deps.Home) }
