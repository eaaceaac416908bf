package client

import "slices"

// LogLevels are the protocol's log levels, least severe first (RFC 5424's,
// as MCP names them).
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogShown reports whether a log message at level is shown when asked is
// the level the person asked for: never when nothing was asked, and only at
// or above it. A level the protocol does not name is shown only at debug.
func LogShown(asked, level string) bool {
	a := slices.Index(LogLevels, asked)
	if a < 0 {
		return false
	}
	l := slices.Index(LogLevels, level)
	if l < 0 {
		return a == 0
	}
	return l >= a
}
