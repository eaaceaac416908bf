//go:build !unix

package render

import "os"

// withLoneEsc: elsewhere the input is the console's, not a byte stream a
// lone Esc can be told apart in; it is left as it is.
func withLoneEsc(f *os.File) *escFile { return nil }
