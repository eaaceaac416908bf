// Package safefile writes a file a person named, or that mcpcli names for
// them, so that a symbolic link or a file already there cannot turn the
// write against them: nothing is written through a link, and nothing is
// written over a file mcpcli did not write, or that changed since it did.
// What mcpcli wrote is proved by its Ledger, kept outside the working tree
// (in mcpcli's state directory), never by what a file says of itself:
// anyone can start a file with mcpcli's first line.
package safefile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxSize bounds a file Write replaces: what mcpcli writes this way is a
// script or a flow file, and a file past it is refused unread.
const MaxSize = 16 << 20

// Write writes data to path, with mode perm:
//
//   - when nothing is there, as a new file, created exclusively
//     (O_CREAT|O_EXCL, and O_NOFOLLOW where there is one): should anything
//     appear at path meanwhile, even a dangling link, the write fails;
//   - when a regular file is there whose content l's last note for path
//     matches (mcpcli wrote it, and nobody changed it since), by writing a
//     new file beside it and renaming it over the old one: a rename
//     replaces the name, so a link put there meanwhile is replaced, never
//     written through, and a reader sees the old file or the new one;
//   - anything else (a symbolic link, a FIFO, a device, a directory, a
//     file mcpcli did not write or that changed since, any file when l is
//     nil) is refused, with an error that names the file and what to do.
//
// What it writes is noted in l first (path and SHA-256), so that a later
// Write may replace it; a nil l notes nothing.
func Write(path string, data []byte, perm fs.FileMode, l *Ledger) error {
	key, h := ledgerKey(path), sum(data)
	known, exists, err := mayWrite(path, key, l)
	switch {
	case err != nil:
		return err
	case !exists:
		if err := l.note(path, key, h); err != nil {
			return err
		}
		return create(path, data, perm)
	}
	if h != known { // the same again needs no new note
		if err := l.note(path, key, h); err != nil {
			return err
		}
	}
	return Replace(path, data, perm)
}

// Check is the refusal Write would give path now, or nil, without writing
// anything: a run checks the file it is to write before it sends a request
// whose outcome the file would hold.
func Check(path string, l *Ledger) error {
	_, _, err := mayWrite(path, ledgerKey(path), l)
	return err
}

// mayWrite says whether Write may write path: nothing is there (exists
// false), or a regular file l's last note for key matches (known, its
// hash); otherwise the refusal.
func mayWrite(path, key string, l *Ledger) (known string, exists bool, err error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", true, err
	case st.Mode()&fs.ModeSymlink != 0:
		return "", true, fmt.Errorf("%s is a symbolic link, and mcpcli does not write through one; name another file", path)
	case !st.Mode().IsRegular():
		return "", true, fmt.Errorf("%s is not a regular file; name another file", path)
	}
	now, err := sumFile(path)
	if err != nil {
		return "", true, err
	}
	known, ok, err := l.last(key)
	switch {
	case err != nil:
		return "", true, err
	case l == nil:
		return "", true, fmt.Errorf("%s already exists, and mcpcli keeps no ledger here to show it wrote it; name another file, or remove that one first", path)
	case !ok:
		return "", true, fmt.Errorf("%s already exists, and mcpcli did not write it; name another file, or remove that one first", path)
	case known != now:
		return "", true, fmt.Errorf("%s has changed since mcpcli wrote it, and mcpcli does not write over a change; name another file, or remove that one first", path)
	}
	return known, true, nil
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

// sumFile is the SHA-256, in hex, of the regular file at path, read
// without following a link or waiting on a FIFO should path have become
// one since it was looked at, and refused past MaxSize.
func sumFile(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file; name another file", path)
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, MaxSize+1))
	if err != nil {
		return "", err
	}
	if n > MaxSize {
		return "", fmt.Errorf("%s already exists, and is larger (over %d MiB) than any file mcpcli writes; name another file, or remove that one first", path, MaxSize>>20)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sum is the SHA-256 of data, in hex.
func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
