//go:build !amd64 && !arm64

package growstack

// Grow makes the calling goroutine's stack big enough for a FrameSize
// frame above what it uses now. Call it where the stack is shallow, before
// the calls that would grow it deep. Without the assembly version the
// frame is a Go array, which the compiler clears: the same growth, for a
// few microseconds more.
//
//go:noinline
func Grow() {
	var frame [FrameSize]byte
	keep(&frame)
}

// keep stops the compiler from dropping the frame.
//
//go:noinline
func keep(*[FrameSize]byte) {}
