package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow/runner"
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
	return &runner.Recording{Path: path, Server: f.flowServer()} // checked by Transport before
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
