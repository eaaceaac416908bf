//go:build !linux

package render

// DropTerminalInput does nothing here: the question's default is no, so
// an Enter typed ahead declines.
func DropTerminalInput(fd int) {}
