//go:build amd64 || arm64

package growstack

// Grow makes the calling goroutine's stack big enough for a FrameSize
// frame above what it uses now, without writing to it. Call it where the
// stack is shallow, before the calls that would grow it deep.
func Grow()
