package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
)

// CallOptions are what call needs.
type CallOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	Tool  string
	Base  map[string]any // --args
	Pairs []request.Pair // KEY=VALUE, applied over Base
	// Form asks for missing required arguments; nil means they are a
	// usage error (no terminal, or a scripted run).
	Form   request.FormAsker
	Save   string            // --save DIR
	Record *runner.Recording // --record FILE (nil without)
}

// NewCmdCall is the call command.
func NewCmdCall(f *Factory, runF func(context.Context, *CallOptions) error) *cobra.Command {
	var argsJSON, save, record string
	cmd := &cobra.Command{
		Use:         "call TOOL [KEY=VALUE ...]",
		Short:       "Call a tool, answering what the server asks along the way",
		Annotations: helpPage("call"),
		Args:        cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			if len(args) == 0 {
				return usageErrorf(cmd, "name the tool to call: mcpcli call TOOL [KEY=VALUE ...]; 'mcpcli tools' lists them")
			}
			base, err := parseArgsFlag(cmd, argsJSON)
			if err != nil {
				return err
			}
			pairs, err := request.ParsePairs(args[1:], "argument")
			if err != nil {
				return asUsage(cmd, err) // before starting any server
			}
			rec, err := f.recording(record)
			if err != nil {
				return err
			}
			// -o json prints the bytes: nothing to decode.
			connect, err := f.connector(cmd, dial{rawOnly: f.JSON() && save == "" && rec == nil, adjust: rec.Adjust()})
			if err != nil {
				return err
			}
			opts := &CallOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), Tool: args[0], Base: base, Pairs: pairs, Form: f.asking().Arguments(), Save: save, Record: rec}
			return asUsage(cmd, runOr(cmd, runF, callRun, opts))
		},
	}
	cmd.Flags().StringVar(&argsJSON, "args", "", "tool arguments as a JSON object, or @FILE")
	cmd.Flags().StringVar(&save, "save", "", "write every image, audio and blob content of the result to `DIR` (paths on stderr)")
	addRecordFlag(cmd, &record)
	return cmd
}

func callRun(ctx context.Context, opts *CallOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		p := &request.Preparer{Session: s, Form: opts.Form, Note: shell.Words{}.NoteOn(opts.Console)}
		r, err := p.Call(ctx, opts.Tool, opts.Base, opts.Pairs)
		if err != nil {
			return shell.BeforeSending(ctx, err)
		}
		res, sent, err := p.Send(ctx, r, 0)
		out := err
		if err == nil {
			out = printResult(opts.Out, opts.Console, res, opts.JSON, opts.Save)
		}
		return opts.Record.Finish(shell.Words{}.SayOn(opts.Console), sent, res, err, out)
	})
}

// printResult prints a final result (writing its binary contents to dir
// when --save asked for it), and says so in the exit code when the tool
// reported an error.
func printResult(w io.Writer, con *render.Console, res *client.Result, asJSON bool, dir string) error {
	if err := render.PrintResult(w, res, asJSON); err != nil {
		return err
	}
	if err := render.SaveBlobs(con, dir, res); err != nil {
		return err
	}
	if res.IsError() {
		return toolError{}
	}
	return nil
}

// parseArgsFlag is --args (request.ReadArgs), its mistakes usage errors.
func parseArgsFlag(cmd *cobra.Command, raw string) (map[string]any, error) {
	m, err := request.ReadArgs(cmd.Context(), raw)
	if fe := (*request.ArgsFileError)(nil); errors.As(err, &fe) {
		return nil, usageErrorf(cmd, "--args: %v", fe.Err)
	}
	return m, asUsage(cmd, err)
}

// PromptOptions are what prompt needs.
type PromptOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	Name string
	Args map[string]string
	// Form asks for missing required arguments; nil means they are a
	// usage error.
	Form request.FormAsker
	// Value asks, one by one with the server's completion suggestions,
	// for the arguments not given, when the server offers completions;
	// nil when nobody can be asked.
	Value  request.ValueAsker
	Record *runner.Recording // --record FILE
}

// NewCmdPrompt is the prompt command.
func NewCmdPrompt(f *Factory, runF func(context.Context, *PromptOptions) error) *cobra.Command {
	var record string
	cmd := &cobra.Command{
		Use:         "prompt NAME [KEY=VALUE ...]",
		Short:       "Get a prompt, answering what the server asks along the way",
		Annotations: helpPage("prompt"),
		Args:        cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			if len(args) == 0 {
				return usageErrorf(cmd, "name the prompt: mcpcli prompt NAME [KEY=VALUE ...]; 'mcpcli prompts' lists them")
			}
			pairs, err := request.ParsePairs(args[1:], "argument")
			if err != nil {
				return asUsage(cmd, err)
			}
			rec, err := f.recording(record)
			if err != nil {
				return err
			}
			connect, err := f.connector(cmd, dial{rawOnly: f.JSON() && rec == nil, adjust: rec.Adjust()})
			if err != nil {
				return err
			}
			opts := &PromptOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), Name: args[0], Args: request.Values(pairs), Form: f.asking().Arguments(), Value: f.asking().Values(), Record: rec}
			return asUsage(cmd, runOr(cmd, runF, promptRun, opts))
		},
	}
	addRecordFlag(cmd, &record)
	return cmd
}

func promptRun(ctx context.Context, opts *PromptOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		p := &request.Preparer{Session: s, Form: opts.Form, Value: opts.Value, Note: shell.Words{}.NoteOn(opts.Console)}
		r, err := p.Prompt(ctx, opts.Name, opts.Args)
		if err != nil {
			return shell.BeforeSending(ctx, err)
		}
		res, err := request.Send(ctx, s, r, 0)
		out := err
		if err == nil {
			out = printResult(opts.Out, opts.Console, res, opts.JSON, "")
		}
		return opts.Record.Finish(shell.Words{}.SayOn(opts.Console), r, res, err, out)
	})
}

// ReadOptions are what read needs.
type ReadOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	// URI is a URI, or a URI template filled with Vars; its missing
	// variables are asked of Value (nil when nobody can be asked).
	URI    string
	Vars   map[string]string
	Value  request.ValueAsker
	Save   string            // --save DIR
	Record *runner.Recording // --record FILE
}

// NewCmdRead is the read command.
func NewCmdRead(f *Factory, runF func(context.Context, *ReadOptions) error) *cobra.Command {
	var vars []string
	var save, record string
	cmd := &cobra.Command{
		Use:         "read URI | TEMPLATE [--var NAME=VALUE ...]",
		Short:       "Read a resource, answering what the server asks along the way",
		Annotations: helpPage("read"),
		Args:        cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			if len(args) != 1 {
				if len(args) > 1 && request.IsTemplate(args[0]) && strings.Contains(args[1], "=") {
					return usageErrorf(cmd, "a template's variables go in --var: mcpcli read '%s' --var %s", render.Line(args[0]), render.Line(args[1]))
				}
				return usageErrorf(cmd, "give one resource URI: mcpcli read URI (a template's variables go in --var NAME=VALUE); 'mcpcli resources' lists them")
			}
			pairs, err := request.ParsePairs(vars, "--var")
			if err != nil {
				return asUsage(cmd, err)
			}
			tmpl, err := request.ParseTemplate(args[0], request.Values(pairs))
			if err != nil {
				return asUsage(cmd, err)
			}
			ask := f.asking().Values()
			if tmpl != nil && ask == nil && len(tmpl.Missing()) > 0 {
				return asUsage(cmd, &request.MissingError{What: "template", Name: args[0], Missing: tmpl.Missing()})
			}
			rec, err := f.recording(record)
			if err != nil {
				return err
			}
			connect, err := f.connector(cmd, dial{rawOnly: f.JSON() && save == "" && rec == nil, adjust: rec.Adjust()})
			if err != nil {
				return err
			}
			opts := &ReadOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), URI: args[0], Vars: request.Values(pairs), Value: ask, Save: save, Record: rec}
			return asUsage(cmd, runOr(cmd, runF, readRun, opts))
		},
	}
	cmd.Flags().StringArrayVar(&vars, "var", nil, "fill the URI template's variable: `NAME=VALUE` (repeatable)")
	cmd.Flags().StringVar(&save, "save", "", "write every blob of the contents to `DIR` (paths on stderr)")
	addRecordFlag(cmd, &record)
	return cmd
}

func readRun(ctx context.Context, opts *ReadOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		p := &request.Preparer{Session: s, Value: opts.Value, Note: shell.Words{}.NoteOn(opts.Console)}
		r, err := p.Read(ctx, opts.URI, opts.Vars)
		if err != nil {
			return shell.BeforeSending(ctx, err)
		}
		res, err := request.Send(ctx, s, r, 0)
		var out error
		if err != nil {
			out = request.Unreadable(s.Server().Display(), r.Target, err)
		} else {
			out = printResult(opts.Out, opts.Console, res, opts.JSON, opts.Save)
		}
		return opts.Record.Finish(shell.Words{}.SayOn(opts.Console), r, res, err, out)
	})
}
