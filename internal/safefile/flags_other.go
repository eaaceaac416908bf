//go:build !unix

package safefile

// Without O_NOFOLLOW, O_EXCL still refuses a link at the path; there are
// no FIFOs to wait on in a path here.
const (
	noFollow = 0
	nonBlock = 0
)
