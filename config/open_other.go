//go:build !unix

package config

import "os"

// openFlags open a config file for reading; there are no FIFOs to wait on
// in a path here.
const openFlags = os.O_RDONLY
