package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// asking is how this run asks the person (connect.Asking), made on first
// use: after --cast has taken the streams.
func (f *Factory) asking() *connect.Asking {
	if f.ask == nil {
		f.ask = connect.NewAsking(f.person())
	}
	return f.ask
}

// person is how this run reaches the person who runs it.
func (f *Factory) person() connect.Person {
	d := f.Deps
	return connect.Person{In: d.In, Console: f.Console(), InTTY: d.InTTY, ErrTTY: d.ErrTTY, InFd: d.InFd, Getenv: f.getenv, Open: d.Open,
		Answers: f.Flags.Answers, OpenURLs: f.Flags.OpenURLs, Accessible: f.Flags.Accessible}
}

// prompter is the run's line prompter.
func (f *Factory) prompter() *render.Prompter { return f.asking().Prompter() }

// arguments is how this run asks for missing arguments (nil: nobody can
// be asked).
func (f *Factory) arguments() request.FormAsker { return f.asking().Arguments() }

// values is how this run asks for one value with completions (nil:
// nobody can be asked).
func (f *Factory) values() request.ValueAsker { return f.asking().Values() }

// keepAnswers writes what the person answered as an answers file: to
// --save-answers, or, when the run failed after they accepted an ask, to a
// file of its own, with the command that sends them again (answers that
// only decline or cancel are nothing to send again).
func (f *Factory) keepAnswers(err error) {
	if f.ask == nil || f.ask.Recorder() == nil {
		return
	}
	rec := f.ask.Recorder()
	n, accepted := rec.Answered()
	if n == 0 {
		return
	}
	con := f.Console()
	path := f.Flags.SaveAnswers
	if path == "" {
		var ue *usageError
		if err == nil || accepted == 0 || errors.As(err, &ue) || errors.As(err, new(toolError)) || errors.Is(err, client.ErrAbandoned) || errors.Is(err, context.Canceled) {
			return
		}
		file, ferr := os.CreateTemp("", "mcpcli-answers-*.json")
		if ferr != nil {
			con.Warn(fmt.Sprintf("your answers could not be kept: %v", ferr))
			return
		}
		file.Close()
		path = file.Name()
	}
	file, _, _ := rec.Answers()
	if werr := os.WriteFile(path, file, 0o600); werr != nil {
		con.Warn(fmt.Sprintf("your answers could not be saved in %s: %v", path, werr))
		return
	}
	if f.Flags.SaveAnswers != "" {
		con.Printf("mcpcli: your answers are saved in %s (send them again with --answers %s)", path, path)
		return
	}
	line, redacted := request.ResendCommand(f.Args, path)
	if redacted {
		con.Printf("mcpcli: your answers are kept in %s; to send them again (put back what shows as %s): %s", path, request.Redacted, line)
		return
	}
	con.Printf("mcpcli: your answers are kept in %s; to send them again: %s", path, line)
}
