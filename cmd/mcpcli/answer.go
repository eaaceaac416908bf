package main

import (
	"context"
	"errors"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
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

// configs are the run's config files (connect.Configs), made on first use:
// after --cast has taken the streams.
func (f *Factory) configs() *connect.Configs {
	if f.conf == nil {
		f.conf = &connect.Configs{Options: f.Deps.ConfigOptions, File: f.Flags.Config, TrustProject: f.Flags.TrustProject,
			Home: f.Deps.Home, Getenv: f.getenv, Person: f.person(), Prompter: f.asking().Prompter()}
	}
	return f.conf
}

// keepAnswers keeps what the person answered (connect.Asking.Keep): to
// --save-answers, or to a file of its own when the run failed after they
// accepted an ask, for a reason that sending them again may get past.
func (f *Factory) keepAnswers(err error) {
	if f.ask == nil {
		return
	}
	var ue *usageError
	failed := err != nil && !errors.As(err, &ue) && !errors.As(err, new(toolError)) && !errors.Is(err, client.ErrAbandoned) && !errors.Is(err, context.Canceled)
	f.ask.Keep(f.Console(), f.Flags.SaveAnswers, failed, f.Args)
}
