// Package runner runs flow files against live servers, as `mcpcli test`
// and `mcpcli lint` do: it connects through a Dialer the front end gives
// (so that -s NAME, --stdio, --url and sign-in stay cmd's), replays each
// step with the file's answers (new ids, the live requestState echoed by
// the client's loop, each ask answered by its key), checks the runs
// (flow.Check), rewrites the expectations on --update (File.Update),
// watches the wire with lint, and gives back a report.Flow per file.
//
// It also turns what a front end recorded (request.Recorder's rounds)
// into a flow file (Save): --record and the sessions' save write flow
// files through it.
package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/report"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Dialer connects a session to srv, with a as its Answerer and observe
// (when not nil) watching its transport from before the handshake. The
// error it returns is worded for a person: the runner puts the flow's
// file and server line in front of it.
type Dialer func(ctx context.Context, srv flow.Server, a client.Answerer, observe transport.Observer) (*client.Session, error)

// Options are how a run goes.
type Options struct {
	Dial Dialer
	// Server, when set, is where every flow runs, whatever its file says
	// (the command line's -s, --stdio, --url or -- CMD).
	Server *flow.Server
	// Jobs is how many connections run at once (at least 1).
	Jobs int
	// Update rewrites the expectations of a flow that fails from its
	// live run.
	Update bool
	// Strict fails a flow on any lint finding.
	Strict bool
	// Lint configures the linter that watches every connection.
	Lint lint.Options
	// Env reads the $env: answers (nil: os.LookupEnv).
	Env flow.Env
	// ReadFile and WriteFile read a flow file and write it back (--update);
	// nil: os.ReadFile, and safefile.Replace (the old file is replaced
	// whole, or not at all).
	ReadFile  func(path string) ([]byte, error)
	WriteFile func(path string, data []byte) error
	// Done, when set, is told each flow as it ends, in the order they end
	// (a progress line); it may be called from several goroutines at once.
	Done func(report.Flow)
}

// Outcome is one flow file's run: its report, and what it ran (for a
// caller that writes more, such as lint's SARIF).
type Outcome struct {
	report.Flow
	File *flow.File // nil when it did not parse
	Runs []flow.Run
}

// Files are the flow files args name: a file as it is, a directory as
// every *.flow below it (sorted). None given: ./flows when it is a
// directory. An argument that names nothing is an error that says so.
func Files(args []string) ([]string, error) {
	if len(args) == 0 {
		if st, err := os.Stat("flows"); err == nil && st.IsDir() {
			args = []string{"flows"}
		} else {
			return nil, errors.New("name the flow files or directories to run (mcpcli test flows/); with none, mcpcli runs ./flows, and there is no such directory here")
		}
	}
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: no such flow file or directory", a)
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".flow") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no .flow file; record one with mcpcli call TOOL --record FILE.flow", a)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// job is what one connection runs: a flow of its own, or the flows that
// share a connection to the same server, in order.
type job struct {
	server flow.Server
	idx    []int // into the run's outcomes
}

// Run runs the flow files at paths and gives their outcomes in the same
// order.
func Run(ctx context.Context, paths []string, o Options) []Outcome {
	out := make([]Outcome, len(paths))
	var jobs []*job
	shared := map[string]*job{}
	for i, p := range paths {
		out[i].Name = p
		out[i].Strict = o.Strict
		f, err := o.parse(p)
		if err != nil {
			out[i].Err = err
			o.done(out[i].Flow)
			continue
		}
		out[i].File = f
		for _, st := range f.Steps {
			out[i].Steps = append(out[i].Steps, st.Request)
		}
		srv := f.Server
		if o.Server != nil {
			srv = *o.Server
		}
		if len(srv.Command) == 0 && srv.URL == "" && srv.Name == "" {
			out[i].Err = fmt.Errorf("%s: the flow names no server; add a line such as `server command ./my-server` before its first step, or give one with -s NAME, --stdio \"CMD\", --url URL or -- CMD", p)
			o.done(out[i].Flow)
			continue
		}
		if !f.Shared {
			jobs = append(jobs, &job{server: srv, idx: []int{i}})
			continue
		}
		k := serverKey(srv)
		if j := shared[k]; j != nil {
			j.idx = append(j.idx, i)
			continue
		}
		j := &job{server: srv, idx: []int{i}}
		shared[k] = j
		jobs = append(jobs, j)
	}
	n := max(o.Jobs, 1)
	todo := make(chan *job)
	var wg sync.WaitGroup
	for range min(n, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range todo {
				o.runJob(ctx, j, out)
			}
		}()
	}
	for _, j := range jobs {
		todo <- j
	}
	close(todo)
	wg.Wait()
	return out
}

func serverKey(s flow.Server) string {
	b, _ := json.Marshal([]any{s.Name, s.Command, s.URL})
	return string(b)
}

func (o *Options) parse(path string) (*flow.File, error) {
	read := o.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	src, err := read(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	return flow.Parse(path, src)
}

// unwrapPath is a file error without the path it repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (o *Options) done(f report.Flow) {
	if o.Done != nil {
		o.Done(f)
	}
}

// watch is the connection's lint: each flow gets a linter of its own,
// which first sees the handshake the connection began with (the
// protocol and capabilities its checks read).
type watch struct {
	opts lint.Options

	mu        sync.Mutex
	handshake []transport.Event
	cur       *lint.Linter
}

func (w *watch) observe(ev transport.Event) {
	w.mu.Lock()
	l := w.cur
	if l == nil {
		ev.Msg = bytes.Clone(ev.Msg)
		w.handshake = append(w.handshake, ev)
	}
	w.mu.Unlock()
	if l != nil {
		l.Observe(ev)
	}
}

// start gives the next flow its linter.
func (w *watch) start() *lint.Linter {
	l := lint.New(w.opts)
	w.mu.Lock()
	for _, ev := range w.handshake {
		l.Observe(ev)
	}
	w.cur = l
	w.mu.Unlock()
	return l
}

func (o *Options) runJob(ctx context.Context, j *job, out []Outcome) {
	// The connection's Answerer: each step plugs its Tape in.
	sw := &client.Switch{Idle: func(client.Round) error {
		return errors.New("an ask came between two steps of the flow, with nobody to answer it")
	}}
	w := &watch{opts: o.Lint}
	start := time.Now()
	s, err := o.Dial(ctx, j.server, sw, w.observe)
	if err != nil {
		for _, i := range j.idx {
			oc := &out[i]
			at := oc.Name
			if o.Server == nil && oc.File.Server.Line > 0 {
				at = fmt.Sprintf("%s:%d", oc.Name, oc.File.Server.Line)
			}
			oc.Err = fmt.Errorf("%s: %w", at, err)
			oc.Duration = time.Since(start)
			o.done(oc.Flow)
		}
		return
	}
	defer s.Close()
	for n, i := range j.idx {
		oc := &out[i]
		if n > 0 {
			start = time.Now()
		}
		l := w.start()
		oc.Runs, oc.Err = o.steps(ctx, s, sw, oc.File)
		if oc.Err == nil {
			oc.Mismatches = flow.Check(oc.File, oc.Runs)
		}
		oc.Findings = placed(l.Findings(), oc.File)
		if o.Update && oc.Err == nil && len(oc.Mismatches) > 0 {
			o.update(oc)
		}
		oc.Duration = time.Since(start)
		o.done(oc.Flow)
	}
}

// steps replays every step of f on s, in order.
func (o *Options) steps(ctx context.Context, s *client.Session, sw *client.Switch, f *flow.File) ([]flow.Run, error) {
	var runs []flow.Run
	for _, st := range f.Steps {
		req, err := asRequest(st.Request)
		if err != nil {
			return runs, fmt.Errorf("%s:%d: %v", f.Name, st.Line, err)
		}
		tape := st.Replay(o.Env)
		sw.Set(tape)
		res, err := request.Send(ctx, s, req, 0)
		sw.Set(nil)
		var env *flow.EnvError
		if errors.As(err, &env) {
			return runs, fmt.Errorf("%s:%d: the answer to %q takes $%s from the environment, which is not set; set it (export %s=...) and run again: the file never holds the secret", f.Name, env.Line, env.Key, env.Name, env.Name)
		}
		if ctx.Err() != nil {
			return runs, ctx.Err()
		}
		runs = append(runs, tape.Finish(res, err))
	}
	return runs, nil
}

// asRequest is a flow step as the request layer sends it.
func asRequest(r flow.Request) (*request.Request, error) {
	req := &request.Request{Method: r.Method(), Target: r.Target}
	if len(r.Args) > 0 {
		dec := json.NewDecoder(bytes.NewReader(r.Args))
		dec.UseNumber() // 12345678901234567890 goes as written
		if err := dec.Decode(&req.Args); err != nil {
			return nil, fmt.Errorf("%s: the arguments are not a JSON object: %v", r, err)
		}
	}
	return req, nil
}

// placed are findings placed in the flow file: at the step whose request
// they came with.
func placed(findings []lint.Finding, f *flow.File) []lint.Finding {
	for i := range findings {
		findings[i].File = f.Name
		if c := findings[i].Call; c >= 1 && c <= len(f.Steps) {
			findings[i].Line = f.Steps[c-1].Line
		}
	}
	return findings
}

// update rewrites oc's file from its live runs: it passes now.
func (o *Options) update(oc *Outcome) {
	nf, err := oc.File.Update(oc.Runs)
	if err == nil {
		write := o.WriteFile
		if write == nil {
			write = func(p string, b []byte) error { return safefile.Replace(p, b, 0o644) }
		}
		err = write(oc.Name, nf.Format())
	}
	if err != nil {
		oc.Err = fmt.Errorf("%s: --update could not rewrite it: %v", oc.Name, err)
		return
	}
	oc.File, oc.Updated, oc.Mismatches = nf, true, nil
}
