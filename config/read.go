package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxFileSize bounds every file this package reads: config files, envFile
// files and the record of trusted project files. It is far more than any
// real config holds (Claude Code's ~/.claude.json, which keeps a record of
// every project, is the largest), and a file past it is refused before it
// is read, so that a config file that is /dev/zero, or a link to a huge
// file, costs nothing.
const MaxFileSize = 16 << 20

// notRegularError is a path that names something other than a regular
// file: a FIFO, a device, a socket, a directory.
type notRegularError struct{ mode fs.FileMode }

func (e *notRegularError) Error() string {
	return fmt.Sprintf("is %s, not a regular file; mcpcli reads config only from regular files", fileType(e.mode))
}

// tooLargeError is a file larger than MaxFileSize.
type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("is larger than %d MiB, the most mcpcli reads of a config file; is it the right file?", MaxFileSize>>20)
}

// distrustError is a file the owner check refused.
type distrustError struct{ err error }

func (e *distrustError) Error() string { return e.err.Error() }
func (e *distrustError) Unwrap() error { return e.err }

// fileType names the kind of a file that is not a regular one.
func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// readFileBounded reads path: a regular file of at most MaxFileSize bytes.
// Anything else is refused at once, without reading (nor, when the path
// already says so, opening) it: a FIFO nobody writes to cannot hang the
// run, and /dev/zero cannot fill memory. The checks are made on the file
// opened, by its descriptor, so that the path cannot be swapped between
// the check and the read.
//
// owner, when set, is asked about the file opened and, when path is a
// symbolic link, about the link too: a link another user planted must not
// pass because what it points to is yours (or root's). Its refusal is a
// *distrustError.
func readFileBounded(path string, owner func(string, fs.FileInfo) error) ([]byte, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the person would have done with it
		}
		return nil, err
	}
	if lst.Mode()&fs.ModeSymlink != 0 {
		if owner != nil {
			if err := owner(path, lst); err != nil {
				return nil, &distrustError{fmt.Errorf("it is a symbolic link, and %w", err)}
			}
		}
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		lst = st
	}
	if !lst.Mode().IsRegular() {
		return nil, &notRegularError{lst.Mode()}
	}
	// Non-blocking: should the path have become a FIFO since, opening
	// it does not wait for a writer, and the check below refuses it.
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &notRegularError{info.Mode()}
	}
	if owner != nil {
		if err := owner(path, info); err != nil {
			return nil, &distrustError{err}
		}
	}
	if info.Size() > MaxFileSize {
		return nil, &tooLargeError{info.Size()}
	}
	// The size can grow while it is read: read one byte past the bound.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, &tooLargeError{int64(len(data))}
	}
	return data, nil
}
