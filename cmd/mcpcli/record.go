package main

import (
	"errors"
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

// recording is --record path for this run, or nil without it.
func (f *Factory) recording(path string) *runner.Recording {
	if path == "" {
		return nil
	}
	return &runner.Recording{Path: path, Server: f.flowServer(), Ledger: f.ledger()} // checked by Transport before
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
