package urlmode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"github.com/pkg/browser"

	"github.com/mcpcli/mcpcli/internal/shellwords"
)

// OpenFunc opens a URL in the person's browser. It is a dependency passed
// down from main, so that tests never open a real browser by accident.
type OpenFunc func(ctx context.Context, url string) error

// Browser opens URLs the way git and the GitHub CLI do: with $BROWSER when
// it is set, else with the system's opener (xdg-open, open, rundll32).
//
// $BROWSER is split into words like a shell would (quotes, backslashes,
// no expansion) and run with the URL as one more argument, or in place of
// a %s; no shell ever sees the URL. Like git and gh, mcpcli waits for it
// to exit: that lets a terminal browser (w3m, lynx) use the terminal.
type Browser struct {
	// Getenv reads $BROWSER (and $DISPLAY, $WAYLAND_DISPLAY on Linux).
	Getenv func(string) string
	// Stdin is the terminal, handed to $BROWSER; nil when stdin is not a
	// terminal (piped answers are never given to a browser).
	Stdin io.Reader
	// Stderr receives $BROWSER's output, both streams: stdout is for
	// mcpcli's results only.
	Stderr io.Writer
	// System opens with the platform's opener; nil uses pkg/browser with
	// its output captured, away from the terminal.
	System func(url string) error
}

// Open implements OpenFunc.
func (b *Browser) Open(ctx context.Context, url string) error {
	getenv := b.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if v := strings.TrimSpace(getenv("BROWSER")); v != "" {
		return b.runBrowserVar(ctx, v, url)
	}
	if runtime.GOOS == "linux" && getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" && b.System == nil {
		return errors.New("no graphical display ($DISPLAY and $WAYLAND_DISPLAY are unset) and $BROWSER is not set")
	}
	if b.System != nil {
		return b.System(url)
	}
	return systemOpen(url)
}

// BrowserCommand is the command line $BROWSER gives for url.
func BrowserCommand(browserVar, url string) ([]string, error) {
	words, err := shellwords.Split(browserVar)
	if err != nil {
		return nil, fmt.Errorf("$BROWSER %q: %v", browserVar, err)
	}
	if len(words) == 0 || words[0] == "" {
		return nil, fmt.Errorf("$BROWSER %q names no command", browserVar)
	}
	substituted := false
	for i, w := range words[1:] {
		if strings.Contains(w, "%s") {
			words[i+1] = strings.ReplaceAll(w, "%s", url)
			substituted = true
		}
	}
	if !substituted {
		words = append(words, url)
	}
	return words, nil
}

func (b *Browser) runBrowserVar(ctx context.Context, v, url string) error {
	argv, err := BrowserCommand(v, url)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = b.Stdin
	cmd.Stdout = b.Stderr
	cmd.Stderr = b.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		switch {
		case errors.Is(err, exec.ErrNotFound):
			return fmt.Errorf("$BROWSER names %q, which is not installed or not on $PATH", argv[0])
		case errors.As(err, &ee):
			return fmt.Errorf("$BROWSER (%s) failed: %s", argv[0], ee.ProcessState)
		}
		return fmt.Errorf("$BROWSER (%s): %v", argv[0], err)
	}
	return nil
}

// pkgBrowserMu guards pkg/browser's package-level Stdout and Stderr, which
// are its only way to keep xdg-open's chatter off the terminal.
var pkgBrowserMu sync.Mutex

func systemOpen(url string) error {
	pkgBrowserMu.Lock()
	defer pkgBrowserMu.Unlock()
	var out bytes.Buffer
	oldOut, oldErr := browser.Stdout, browser.Stderr
	browser.Stdout, browser.Stderr = &out, &out
	defer func() { browser.Stdout, browser.Stderr = oldOut, oldErr }()
	if err := browser.OpenURL(url); err != nil {
		if last := lastLine(out.String()); last != "" {
			return fmt.Errorf("%v: %s", err, last)
		}
		return err
	}
	return nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
