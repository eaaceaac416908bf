//go:build unix

package config

import "syscall"

// openFlags open a config file for reading without waiting for a writer,
// should it be a FIFO.
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
