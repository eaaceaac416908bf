// Package safefile writes a file a person named, or that mcpcli names for
// them, so that a symbolic link or a file already there cannot turn the
// write against them: nothing is written through a link, and nothing is
// written over a file mcpcli did not write.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path, with mode perm:
//
//   - when nothing is there, as a new file, created exclusively
//     (O_CREAT|O_EXCL, and O_NOFOLLOW where there is one): should anything
//     appear at path meanwhile, even a dangling link, the write fails;
//   - when a regular file is there that ours says is one mcpcli wrote (it
//     is given the file's first bytes), by writing a new file beside it
//     and renaming it over the old one: a rename replaces the name, so a
//     link put there meanwhile is replaced, never written through, and a
//     reader sees the old file or the new one;
//   - anything else (a symbolic link, a FIFO, a device, a directory, a
//     file mcpcli did not write) is refused, with an error that says so.
func Write(path string, data []byte, perm fs.FileMode, ours func(head []byte) bool) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return create(path, data, perm)
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, and mcpcli does not write through one; name another file", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file; name another file", path)
	}
	head, err := readHead(path)
	if err != nil {
		return err
	}
	if ours == nil || !ours(head) {
		return fmt.Errorf("%s already exists, and mcpcli did not write it; name another file, or remove that one first", path)
	}
	return Replace(path, data, perm)
}

// create writes a new file at path, failing if anything is there.
func create(path string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, perm)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

// Replace writes data to a new file beside path and renames it over path,
// so a reader sees the old file or the new one, never half. It follows
// nothing and checks nothing: Write decides when it is safe; config's
// own file, whose link it has resolved, uses it directly.
func Replace(path string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// headSize is how much of a file ours is shown.
const headSize = 256

// readHead reads the start of the regular file at path, without following
// a link or waiting on a FIFO should path have become one since.
func readHead(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; name another file", path)
	}
	b := make([]byte, headSize)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}
