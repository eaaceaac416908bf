package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
)

// A server's own name is whatever it says: one 300 characters long pushed
// "(1 of 3)" off the form's title line, and the command it was started
// with (the one part of "your answers go to …" the server does not choose)
// off an 80-column line.
func TestHeaderKeepsCountAndViaWithALongServerName(t *testing.T) {
	s := client.Server{Title: strings.Repeat("T", 300), Via: "stdio: ./srv"}
	r := client.Round{Server: s, Number: 2, Asks: []client.Ask{{Key: "a"}, {Key: "b"}, {Key: "c"}}}
	if got := ansi.Truncate(AskTitle(r, 0), 80, ""); !strings.Contains(got, "asks (1 of 3) · round 2") {
		t.Errorf("AskTitle at 80 columns: %q", got)
	}
	if got := ansi.Truncate("your answers go to "+Who(s), 80, ""); !strings.Contains(got, "(stdio: ./srv)") {
		t.Errorf("who at 80 columns: %q", got)
	}
	short := client.Server{Name: "weather", Via: "stdio: ./srv"}
	if got := Who(short); got != "weather (stdio: ./srv)" {
		t.Errorf("Who(short) = %q", got)
	}
}

// Small words right (issue 9's small slips).
func TestSmallWords(t *testing.T) {
	one, five := 1, 5
	if got := Constraints(&schema.Field{Kind: schema.String, MinLength: &one}); got != "text, at least 1 character" {
		t.Errorf("Constraints(minLength 1) = %q", got)
	}
	if got := Constraints(&schema.Field{Kind: schema.String, MinLength: &one, MaxLength: &five}); got != "text, 1–5 characters" {
		t.Errorf("Constraints(1–5) = %q", got)
	}
	if got := Context(client.Round{Method: "resources/read", Target: "demo://r"}); got != "while reading resource demo://r" {
		t.Errorf("Context(read) = %q", got)
	}
	if got := Context(client.Round{Method: "tools/call", Target: "t"}); got != "while running tool t" {
		t.Errorf("Context(call) = %q", got)
	}
}
