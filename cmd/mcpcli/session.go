package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/shell/line"
	"github.com/mcpcli/mcpcli/shell/tui"
	"github.com/mcpcli/mcpcli/transport"
)

// SessionOptions are what session needs.
type SessionOptions struct {
	Console *render.Console
	// Accessible runs the line session (--accessible) instead of the
	// full-screen one.
	Accessible bool

	// The full-screen shell (NoTerminal says why there is none), or the
	// line shell.
	NoTerminal string
	TUI        *tui.RunOptions
	Line       *line.Options
}

// NewCmdSession is the session command (and what mcpcli runs when given a
// server and no command).
func NewCmdSession(f *Factory, runF func(context.Context, *SessionOptions) error) *cobra.Command {
	var save string
	budget := tui.Budget(tui.DefaultResultBudget)
	cmd := &cobra.Command{
		Use:         "session",
		Aliases:     []string{"shell"},
		Short:       "Browse and call a server's tools, prompts and resources on one connection",
		Annotations: helpPage("session"),
		Args:        noArgs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := f.sessionOptions(cmd, save)
			if errors.Is(err, tui.ErrNoChoice) {
				return nil
			}
			if err != nil {
				return err
			}
			if opts.TUI != nil {
				opts.TUI.ResultBudget = int64(budget)
			} else if opts.Line != nil {
				opts.Line.ResultBudget = int64(budget)
			}
			return runOr(cmd, runF, sessionRun, opts)
		},
	}
	cmd.Flags().StringVar(&save, "save", "", "write the session's requests to `FILE` as a replayable script of one-shot commands (offered by S, written when it ends)")
	cmd.Flags().Var(&budget, "result-budget", "keep the results in at most `SIZE` of memory; past it the least lately shown go to a private temporary directory (at most 1GiB), then are dropped (r re-runs them); with --accessible, the oldest are let go and save flow leaves them out")
	return cmd
}

// sessionOptions resolves the server and how the session will show.
func (f *Factory) sessionOptions(cmd *cobra.Command, save string) (*SessionOptions, error) {
	if err := f.pickServer(cmd); err != nil {
		return nil, err
	}
	t, err := f.Transport(cmd)
	if err != nil {
		return nil, err
	}
	// Each connection of the session is to a transport of its own: the
	// one just checked, then (R, restart) one made again from the flags.
	transportOnce := func() (transport.Transport, error) {
		if next := t; next != nil {
			t = nil
			return next, nil
		}
		return f.Transport(cmd)
	}
	opts := &SessionOptions{Console: f.Console(), Accessible: f.Flags.Accessible}
	replay := connect.ReplayHere(f.flags(), f.Deps.Executable, f.getenv, f.Deps.Home)
	if opts.Accessible {
		opts.Line = f.lineOptions(cmd, save, replay, connect.RestartWord(t), transportOnce)
		return opts, nil
	}
	if why := f.person().NoTerminal(); why != "" {
		t.Close()
		opts.NoTerminal = why
		return opts, nil
	}
	if f.Flags.Answers != "" {
		t.Close()
		return nil, usageErrorf(cmd, "--answers goes with one-shot commands and --accessible; the session asks you each time")
	}
	opts.TUI = f.tuiOptions(cmd, save, replay, transportOnce)
	return opts, nil
}

// lineOptions are the line shell's: the run's way of asking (lines, or an
// answers file), each request's rounds recorded by the shell.
func (f *Factory) lineOptions(cmd *cobra.Command, save string, replay request.Replay, restart string, transportOnce func() (transport.Transport, error)) *line.Options {
	con := f.Console()
	return &line.Options{
		Out: f.Deps.Out, Console: con, JSON: f.JSON(), Save: save, Replay: replay, Flow: f.flowServer(), Ledger: f.ledger(), Words: shell.Words{Login: f.loginArgs(), Line: true},
		Restart: restart,
		Connect: func(ctx context.Context, rec *request.Recorder) (*client.Session, error) {
			t, err := transportOnce()
			if err != nil {
				return nil, err
			}
			a, err := f.asking().Way(ctx)
			if err != nil {
				t.Close()
				return nil, asUsage(cmd, err)
			}
			return f.dial(ctx, cmd, t, dial{session: true,
				// --save writes each request with its answers: the
				// answers of a whole session are not one answers file.
				answers: &connect.Answers{Answerer: rec.Answerer(a.Answerer), Sampler: rec.Sampler(a.Sampler)},
				adjust: func(o *client.Options) {
					rec.Hook(o)
					// Roots can be added and removed, and sampling turned
					// on, while connected (root, sampling).
					o.ChangeableRoots = true
				}})
		},
		Prompter: f.asking().Prompter(), Form: f.asking().Arguments(), Value: f.asking().Values(), TTY: f.Deps.InTTY,
		Scripted: f.Flags.Answers != "",
		Settled:  con.Waiter().Stop,
	}
}

// tuiOptions are the full-screen shell's: its own forms, lent the
// shell's terminal, every round recorded and shown in its timeline.
func (f *Factory) tuiOptions(cmd *cobra.Command, save string, replay request.Replay, transportOnce func() (transport.Transport, error)) *tui.RunOptions {
	con := f.Console()
	fa := f.person().SessionForms()
	// The session holds the console itself (Feed.HoldConsole), to let its
	// writes out while a form or a sign-in has the terminal. Its own screen
	// takes keys at once: it is not a consent screen (its asks wait; its
	// forms, on fa.Term, have the key guard).
	o := &tui.RunOptions{Console: con, Forms: fa, Values: &render.ValueForm{Term: fa.Term},
		Terminal: &render.Terminal{In: f.Deps.In, Out: f.Deps.Err, KeyGuard: render.NoKeyGuard}, KeyGuard: fa.Term.KeyGuard,
		Replay: replay, Save: save, Flow: f.flowServer(), Ledger: f.ledger(), ErrorText: f.errorText}
	o.Connect = func(ctx context.Context, feed *tui.Feed) (*client.Session, error) {
		t, err := transportOnce()
		if err != nil {
			return nil, err
		}
		if st, ok := t.(*transport.Stdio); ok {
			st.Cmd.Stderr = feed.Stderr()
			st.Warn = feed.Warn
		}
		t.Observe(feed.Observe)
		return f.dial(ctx, cmd, t, dial{session: true, share: feed.Share, answers: &connect.Answers{Answerer: fa, Sampler: fa},
			adjust: func(o *client.Options) {
				// Sampling can be turned on (C), and roots added, while
				// connected.
				feed.Hooks(o, fa, fa)
				o.SamplingOff = !f.Flags.Sampling
				o.ChangeableRoots = true
				o.OnUndeclared = func(e *client.UndeclaredError) { feed.Warn(shell.Undeclared(e)) }
			}})
	}
	return o
}

// pickServer asks which configured server to open, when none was named and
// there is a terminal to ask on; with none configured, Transport says how
// to name one.
func (f *Factory) pickServer(cmd *cobra.Command) error {
	fl := f.Flags
	if fl.Server != "" || fl.Stdio != "" || fl.URL != "" || len(fl.ServerArgv) > 0 || fl.Accessible || f.person().NoTerminal() != "" {
		return nil
	}
	name, err := tui.PickServer(cmd.Context(), f.Console().Terminal(f.Deps.In), f.configs().Load)
	if name != "" {
		f.Flags.Server = name
	}
	return err
}

func sessionRun(ctx context.Context, opts *SessionOptions) error {
	if opts.Accessible {
		return shellOutcome(ctx, line.Run(ctx, opts.Line))
	}
	if opts.NoTerminal != "" {
		return &shell.NoTerminalError{Why: opts.NoTerminal}
	}
	err := shellOutcome(ctx, tui.Run(ctx, opts.TUI))
	if errors.Is(err, render.ErrCancelled) {
		err = nil
	}
	return err
}

// shellOutcome is how a shell ended, as report words it.
func shellOutcome(ctx context.Context, err error) error {
	err = shell.Outcome(ctx, err)
	if errors.Is(err, line.ErrToolReported) {
		return toolError{}
	}
	return err
}
