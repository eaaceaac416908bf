package render

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/client"
)

func question(required bool, suggestions ...string) Question {
	return Question{Server: client.Server{Name: "test-server"}, For: "prompt greet", Name: "lang\x1b[31m", Description: "Which language", Required: required, Suggestions: suggestions}
}

func TestPrompterAskValue(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		q        Question
		want     string
		wantErr  error
		shown    []string
	}{
		{"a number picks a suggestion", "2\n", question(true, "en", "fr\u202e"), "fr\u202e", nil, []string{"── test-server needs lang for prompt greet ──", "   Which language", "   1) en", "   2) fr<U+202E>"}},
		{"anything else is the value", "de\n", question(true, "en"), "de", nil, nil},
		{"a number out of range is a value", "7\n", question(true, "en"), "7", nil, nil},
		{"empty skips an optional value", "\n", question(false, "en"), "", ErrSkipped, []string{"lang [empty: leave unset]:"}},
		{"empty is asked again when required", "\n\nja\n", question(true), "ja", nil, []string{"! lang is required"}},
		{"bounded", "\n\n\n", question(true), "", errGaveUp, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrompter(strings.NewReader(tc.in), &out)
			got, err := p.AskValue(context.Background(), tc.q)
			if !errors.Is(err, tc.wantErr) || got != tc.want {
				t.Errorf("AskValue(%q) = %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.wantErr)
			}
			for _, s := range tc.shown {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
			if strings.ContainsAny(out.String(), "\x1b\u202e") {
				t.Errorf("output carries the server's controls: %q", out.String())
			}
		})
	}
}

// valueTUI runs ValueForm.AskValue through the real bubbletea loop; it
// returns the value, the error and the first screen.
func valueTUI(t *testing.T, q Question, keys ...string) (string, error, string) {
	t.Helper()
	got, err, first, _ := valueTUIScreens(t, q, keys...)
	return got, err, first
}

// valueTUIScreens is valueTUI that also returns the last screen drawn
// before the question ended.
func valueTUIScreens(t *testing.T, q Question, keys ...string) (got string, err error, first, last string) {
	t.Helper()
	pr, pw := io.Pipe()
	defer pw.Close()
	var out syncBuffer
	seen := make(chan string, 100)
	v := &ValueForm{Term: &Terminal{In: pr, Out: &out, Options: []tea.ProgramOption{tea.WithWindowSize(80, 24), tea.WithEnvironment([]string{"TERM=xterm-256color"})}, KeyGuard: NoKeyGuard}}
	var lastMu sync.Mutex
	v.onView = func(s string) {
		if s != "" {
			lastMu.Lock()
			last = ansi.Strip(s)
			lastMu.Unlock()
		}
		select {
		case seen <- ansi.Strip(s):
		default:
		}
	}
	type result struct {
		v   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		got, err := v.AskValue(context.Background(), q)
		done <- result{got, err}
	}()

	deadline := time.After(waitLimit)
	for !strings.Contains(first, "esc abandon") {
		select {
		case first = <-seen:
		case <-deadline:
			t.Fatalf("the question never showed; last:\n%s", first)
		}
	}
	for _, k := range keys {
		pw.Write([]byte(k))
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case r := <-done:
		lastMu.Lock()
		defer lastMu.Unlock()
		return r.v, r.err, first, last
	case <-time.After(waitLimit):
		t.Fatalf("AskValue did not end")
	}
	return "", nil, "", ""
}

func TestValueFormFullScreen(t *testing.T) {
	got, err, screen := valueTUI(t, question(true, "English", "French", "Japanese"), "Fr", kTab, kEnter)
	if err != nil || got != "French" {
		t.Errorf("typing Fr, tab, enter: AskValue = %q, %v; want French", got, err)
	}
	for _, w := range []string{"test-server needs lang", "for prompt greet", "Which language", "suggested: English, French, Japanese"} {
		if !strings.Contains(screen, w) {
			t.Errorf("the screen lacks %q:\n%s", w, screen)
		}
	}
	got, err, _ = valueTUI(t, question(true), kEnter, "x", kEnter)
	if err != nil || got != "x" {
		t.Errorf("enter on an empty required value, then x: AskValue = %q, %v; want x", got, err)
	}
	_, err, _ = valueTUI(t, question(false), kEnter)
	if !errors.Is(err, ErrSkipped) {
		t.Errorf("enter on an empty optional value: err = %v, want ErrSkipped", err)
	}
	_, err, _ = valueTUI(t, question(true), kEsc)
	if !errors.Is(err, client.ErrAbandoned) {
		t.Errorf("esc: err = %v, want client.ErrAbandoned", err)
	}
}

// TestValueFormSuggestionBeforeTyping: the suggestion drawn in the empty
// input is what tab and enter take, and ↑/↓ switch it, before anything is
// typed (the README: "tab takes the one shown, ↑/↓ switch").
func TestValueFormSuggestionBeforeTyping(t *testing.T) {
	sug := []string{"Engineering", "Sales", "Marketing"}
	for _, tc := range []struct {
		name     string
		required bool
		keys     []string
		want     string
		wantErr  error
	}{
		{"enter takes the one shown", true, []string{kEnter}, "Engineering", nil},
		{"tab takes the one shown", true, []string{kTab, kEnter}, "Engineering", nil},
		{"down switches", true, []string{kDown, kEnter}, "Sales", nil},
		{"up wraps to the last", true, []string{kUp, kTab, kEnter}, "Marketing", nil},
		{"down then up is back", true, []string{kDown, kDown, kUp, kEnter}, "Sales", nil},
		{"tab then edit", true, []string{kTab, kBack, kEnter}, "Engineerin", nil},
		{"typed text is sent as typed", true, []string{"Eng", kEnter}, "Eng", nil},
		{"typed, tab completes", true, []string{"s", kTab, kEnter}, "Sales", nil},
		{"optional: tab takes it", false, []string{kDown, kTab, kEnter}, "Sales", nil},
		{"optional: enter leaves it unset", false, []string{kEnter}, "", ErrSkipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err, _, _ := valueTUIScreens(t, question(tc.required, sug...), tc.keys...)
			if got != tc.want || !errors.Is(err, tc.wantErr) {
				t.Errorf("keys %q: AskValue = %q, %v; want %q, %v", tc.keys, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestValueFormScreen: the keys line names the suggestion tab takes
// between ‹ and › (dim text looks typed without color), the suggested line
// narrows to what matches what is typed, and no line is cut at the edge.
func TestValueFormScreen(t *testing.T) {
	sug := []string{"Engineering", "Sales", "Marketing", "Support"}
	for _, tc := range []struct {
		name     string
		required bool
		keys     []string
		want     []string
		not      []string
	}{
		{"nothing typed", true, nil,
			[]string{"> Engineering", "suggested: Engineering, Sales, Marketing, Support", "enter or tab take ‹Engineering› · ↑/↓ another"}, nil},
		{"down", true, []string{kDown},
			[]string{"> Sales", "enter or tab take ‹Sales›"}, nil},
		{"optional", false, []string{kDown},
			[]string{"tab take ‹Sales› · ↑/↓ another · enter leave unset"}, nil},
		{"typed", true, []string{"S"},
			[]string{"> Sales", "suggested: Sales, Support\n", "tab complete to ‹Sales› · ↑/↓ another · enter use what you typed"}, []string{"Engineering", "…"}},
		{"typed, down", true, []string{"S", kDown},
			[]string{"> Support", "tab complete to ‹Support›"}, []string{"…"}},
		{"typed, one match", true, []string{"Ma"},
			[]string{"suggested: Marketing\n", "tab complete to ‹Marketing› · enter"}, []string{"↑/↓", "…"}},
		{"typed, no match", true, []string{"x"},
			[]string{"no suggestion starts with what you typed", "enter use it · esc"}, []string{"tab", "…"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, screen := valueTUIScreens(t, question(tc.required, sug...), append(tc.keys, kEsc)...)
			for _, w := range tc.want {
				if !strings.Contains(screen+"\n", w) {
					t.Errorf("after %q the screen lacks %q:\n%s", tc.keys, w, screen)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(screen, w) {
					t.Errorf("after %q the screen shows %q:\n%s", tc.keys, w, screen)
				}
			}
		})
	}
}
