package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
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

// saveRecording writes r's flow file of req, ended with res or err, and
// says so on con. A recording that cannot replay is refused in one line,
// and the request's own outcome is still err.
func saveRecording(con *render.Console, r *runner.Recording, req *request.Request, res *client.Result, err error) error {
	msg, serr := r.Save(req, res, err)
	var ue *runner.UnansweredError
	switch {
	case errors.As(serr, &ue):
		con.Printf("mcpcli: --record %s", render.Line(ue.Error()))
	case serr != nil:
		return serr
	case msg != "":
		con.Printf("mcpcli: %s", render.Line(msg))
	}
	return nil
}

// afterRecording is a run's error once its result was printed (out) and
// its flow file written or not (rerr): a file that could not be written
// never costs the result, and a run that failed still says why the file
// was not written.
func afterRecording(con *render.Console, out, rerr error) error {
	switch {
	case rerr == nil:
		return out
	case out == nil:
		return rerr
	}
	con.Printf("mcpcli: %s", render.Line(rerr.Error()))
	return out
}

// ledger is mcpcli's record of the files it wrote (safefile.Ledger), in
// its state directory, where a cloned repository cannot write: what lets
// a save write over its own file, unchanged since, and over no other. nil
// when there is no state directory (no $HOME): then no file is written
// over.
func (f *Factory) ledger() *safefile.Ledger {
	home := f.Deps.Home
	if home == nil {
		home = func() (string, error) { return "", errors.New("no home directory") }
	}
	dir, err := oauth.StateDir(f.getenv, home)
	if err != nil {
		return nil
	}
	return &safefile.Ledger{Path: filepath.Join(dir, LedgerFile)}
}

// LedgerFile is the ledger's name in mcpcli's state directory.
const LedgerFile = "written-files"
