package request

import (
	"context"
	"fmt"
	"io"
	"os"
)

// MaxInputFile bounds what mcpcli reads from a file the person names
// (--args @FILE, --answers): far more than any real arguments or answers,
// and small enough that /dev/zero named by mistake is refused in a moment.
const MaxInputFile = 64 << 20

// ReadInput reads all of what open opens (name is what it is called), at most MaxInputFile bytes, in a way ctx can
// cut short: a FIFO nobody writes to, or a terminal nobody types into,
// never holds the run past Ctrl+C or SIGTERM.
func ReadInput(ctx context.Context, name string, open func() (io.ReadCloser, error)) ([]byte, error) {
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
		b, err := io.ReadAll(io.LimitReader(rc, MaxInputFile+1))
		if err == nil && len(b) > MaxInputFile {
			err = fmt.Errorf("%s is larger than %d MiB; is it the right file?", name, MaxInputFile>>20)
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

// OpenFile is ReadInput's opener for a named file.
func OpenFile(name string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return os.Open(name) }
}
