package main

import (
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// recording is --record FILE on call, prompt and read: the request kept
// as it went (request.Recorder), written as a flow file when it ends,
// through the one writer the sessions' save uses too (runner.Save).
type recording struct {
	path   string
	server flow.Server
	rec    *request.Recorder
	con    *render.Console
}

// addRecordFlag gives cmd --record FILE.
func addRecordFlag(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "record", "", "write what happened as a flow `FILE` (the asks, your answers with secrets as $env: references, the result) that 'mcpcli test' replays")
}

// recording is --record path for this run, or nil without it.
func (f *Factory) recording(path string) *recording {
	if path == "" {
		return nil
	}
	return &recording{path: path, server: f.flowServer(), rec: &request.Recorder{}, con: f.Console()}
}

// flowServer is the server the flags name, as a flow file names it.
func (f *Factory) flowServer() flow.Server {
	fl := f.Flags
	switch {
	case fl.Server != "":
		return flow.Server{Name: fl.Server}
	case fl.URL != "":
		return flow.Server{URL: fl.URL}
	case fl.Stdio != "":
		words, _ := shellwords.Split(fl.Stdio)
		return flow.Server{Command: words}
	}
	return flow.Server{Command: fl.ServerArgv}
}

// adjust hooks the recorder into the client (dial.adjust); nil-safe.
func (r *recording) adjust() func(*client.Options) {
	if r == nil {
		return nil
	}
	return func(o *client.Options) {
		r.rec.Hook(o)
		o.Answerer = r.rec.Answerer(o.Answerer)
	}
}

// save writes the flow file of the request sent, ended with res or err.
func (r *recording) save(req *request.Request, res *client.Result, err error) error {
	if r == nil {
		return nil
	}
	var rounds []request.Round
	for _, id := range r.rec.Calls() {
		rounds = append(rounds, r.rec.Rounds(id)...)
	}
	msg, serr := runner.Save(r.path, r.server, []runner.Recorded{{Request: req, Rounds: rounds, Result: res, Err: err}})
	if serr != nil {
		return serr
	}
	r.con.Printf("mcpcli: %s", render.Line(msg))
	return nil
}
