package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

// maxInputFile bounds what mcpcli reads from a file the person names
// (--args @FILE, --answers): far more than any real arguments or answers,
// and small enough that /dev/zero named by mistake is refused in a moment.
const maxInputFile = 64 << 20

// readInput reads all of what open opens (name is what it is called), at most maxInputFile bytes, in a way ctx can
// cut short: a FIFO nobody writes to, or a terminal nobody types into,
// never holds the run past Ctrl+C or SIGTERM.
func readInput(ctx context.Context, name string, open func() (io.ReadCloser, error)) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		// Opening a FIFO blocks until a writer comes: that too is in here.
		rc, err := open()
		if err != nil {
			done <- result{err: err}
			return
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, maxInputFile+1))
		if err == nil && len(b) > maxInputFile {
			err = fmt.Errorf("%s is larger than %d MiB; is it the right file?", name, maxInputFile>>20)
			b = nil
		}
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		// The reader goroutine stays blocked; the run is ending anyway.
		return nil, context.Cause(ctx)
	}
}

// openFile is readInput's opener for a named file.
func openFile(name string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return os.Open(name) }
}
