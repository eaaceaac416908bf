//go:build !(linux && amd64)

package supervise

import (
	"errors"
	"os"
)

// CanSpawn is false here: the supervisor is a program of its own (Run).
func CanSpawn() bool { return false }

// ErrNoSpawn is Spawn's error here.
var ErrNoSpawn = errors.New("the in-process supervisor is made only on Linux on amd64")

// SpawnAttr is a server for Spawn to start.
type SpawnAttr struct {
	Path, Dir                     string
	Argv, Env                     []string
	Stdin, Stdout, Stderr, Status *os.File
}

// Spawned is a supervisor Spawn started.
type Spawned struct{ Pid int }

// Release does nothing here.
func (*Spawned) Release() {}

// Spawn is not made here.
func Spawn(SpawnAttr) (*Spawned, error) { return nil, ErrNoSpawn }
