//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package render

import "os"

// flushInput does nothing here: the key guard alone keeps keys typed
// ahead from the screen.
func flushInput(*os.File) {}
