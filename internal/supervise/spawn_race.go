//go:build race && linux && amd64

package supervise

// raceBuild keeps a race build from spawning: there the coverage counters
// of the spawn's code (go test -race -cover) are calls into the race
// runtime, which needs a goroutine the spawn does not have. The
// supervisor is the program instead.
const raceBuild = true
