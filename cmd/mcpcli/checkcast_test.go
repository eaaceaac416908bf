package main

import (
	"os"
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpcli/mcpcli/internal/cast"
)

// readCast reads and checks the cast FILE of a script: an asciicast v2
// header, every line whole, times that never decrease, and no input
// events (keys are never recorded).
func readCast(ts *testscript.TestScript, name string) (cast.Header, []cast.Event) {
	f, err := os.Open(ts.MkAbs(name))
	ts.Check(err)
	defer f.Close()
	h, events, err := cast.ReadAll(f)
	if err != nil {
		ts.Fatalf("%s is not a valid cast: %v", name, err)
	}
	for _, e := range events {
		if e.Code == cast.Input {
			ts.Fatalf("%s records keys typed: %q at %v", name, e.Data, e.Time)
		}
	}
	return h, events
}

// castmarks FILE WANT: the cast FILE is valid, and its markers, one a
// line, are the lines of WANT.
func cmdCastMarks(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: castmarks FILE WANT")
	}
	_, events := readCast(ts, args[0])
	var got []string
	for _, e := range events {
		if e.Code == cast.Marker {
			got = append(got, e.Data)
		}
	}
	want := strings.TrimSuffix(ts.ReadFile(args[1]), "\n")
	if g := strings.Join(got, "\n"); g != want {
		ts.Fatalf("markers of %s:\n%s\nwant:\n%s", args[0], g, want)
	}
}

// castout FILE REGEXP: what the cast FILE draws (its output, escapes
// taken out) matches REGEXP; with !, it does not.
func cmdCastOut(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: castout FILE REGEXP")
	}
	_, events := readCast(ts, args[0])
	var b strings.Builder
	for _, e := range events {
		if e.Code == cast.Output {
			b.WriteString(e.Data)
		}
	}
	drawn := ansi.Strip(b.String())
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	if re.MatchString(drawn) == neg {
		if neg {
			ts.Fatalf("the cast %s draws %q:\n%s", args[0], args[1], drawn)
		}
		ts.Fatalf("the cast %s does not draw %q:\n%s", args[0], args[1], drawn)
	}
}
