package connect

import (
	"context"
	"errors"
	"os/exec"
	"sync"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/transport"
)

// FlowServer is the server fl names, as a flow file names it: nil when
// fl names none (each flow runs where its file says).
func (fl Flags) FlowServer() (*flow.Server, error) {
	switch {
	case fl.Server != "":
		return &flow.Server{Name: fl.Server}, nil
	case fl.URL != "":
		return &flow.Server{URL: fl.URL}, nil
	case fl.Stdio != "" && len(fl.ServerArgv) > 0:
		return nil, flagErrorf("give the server once: either --stdio \"CMD ARGS\" or the command after --, not both")
	case fl.Stdio != "":
		words, err := shellwords.Split(fl.Stdio)
		if err != nil || len(words) == 0 {
			return nil, flagErrorf("--stdio %q: give the command to start", fl.Stdio)
		}
		return &flow.Server{Command: words}, nil
	case len(fl.ServerArgv) > 0:
		return &flow.Server{Command: fl.ServerArgv}, nil
	}
	return nil, nil
}

// Flows reaches the servers flow files name (a name from the config
// files, a command or a URL) as Dial reaches a command's: sign-in, trace,
// protocol and timeouts from the run's flags, with each flow's own
// answerer, and an observer (lint) watching the wire from before the
// handshake. Its Dial is a runner.Dialer; flows may dial at once.
type Flows struct {
	// Flags are the run's; where the server is comes from each Dial.
	Flags   Flags
	Configs *Configs
	Machine Machine
	// Options are Dial's; Flags and Answerer are each flow's own.
	Options Options
	// Explain words an error for a person (the runner puts the flow's
	// file and line in front of it).
	Explain func(error) string

	mu sync.Mutex // the config files are read once, by one flow at a time
}

// Dial connects to srv with a answering, observe (when not nil) watching.
func (d *Flows) Dial(ctx context.Context, srv flow.Server, a client.Answerer, observe transport.Observer) (*client.Session, error) {
	fl := d.Flags
	fl.Server, fl.Stdio, fl.URL, fl.ServerArgv = "", "", "", nil
	var named *config.Server
	switch {
	case srv.Name != "":
		d.mu.Lock()
		cfg, err := d.Configs.Load(ctx)
		if err == nil {
			named, err = cfg.Server(srv.Name)
		}
		d.mu.Unlock()
		if err != nil {
			return nil, errors.New(d.Explain(err))
		}
		fl.Server = srv.Name
	case srv.URL != "":
		fl.URL = srv.URL
	default:
		fl.ServerArgv = selfCommand(srv.Command, d.Machine.Executable)
	}
	t, err := Transport(fl, named, d.Machine, "test")
	if err != nil {
		return nil, err
	}
	if observe != nil {
		t.Observe(observe)
	}
	o := d.Options
	o.Flags, o.Answerer = fl, a
	s, err := Dial(ctx, t, o)
	if err != nil {
		return nil, errors.New(d.Explain(err))
	}
	return s, nil
}

// selfCommand is argv, except that "mcpcli" where no mcpcli is on $PATH
// is this mcpcli (exe): a flow recorded against `mcpcli demo-server` runs
// from a fresh clone's go build.
func selfCommand(argv []string, exe func() (string, error)) []string {
	if len(argv) == 0 || argv[0] != "mcpcli" || exe == nil {
		return argv
	}
	if _, err := exec.LookPath("mcpcli"); err == nil {
		return argv
	}
	path, err := exe()
	if err != nil {
		return argv
	}
	return append([]string{path}, argv[1:]...)
}
