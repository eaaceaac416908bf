//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"syscall"
)

// ownedBy is Options.Trust on Unix: a project file must belong to uid or
// to root, as git asks of a repository before it runs anything from it.
func ownedBy(uid int) func(string, fs.FileInfo) error {
	return func(_ string, info fs.FileInfo) error {
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok || int(st.Uid) == uid || st.Uid == 0 {
			return nil
		}
		return fmt.Errorf("it belongs to another user (uid %d), not to you (uid %d)", st.Uid, uid)
	}
}
