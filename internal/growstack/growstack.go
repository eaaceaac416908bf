// Package growstack gives the calling goroutine a big stack at once, while
// its stack is still shallow.
//
// A goroutine's stack starts small and doubles whenever a call needs more.
// Each doubling copies the stack and walks every frame on it, and the walk
// reads each frame's function metadata (the pc tables and stack maps in
// the binary's .gopclntab and .rodata). A one-shot mcpcli run grew its
// main goroutine from 8 KiB to 16 KiB and then to 32 KiB deep inside a
// call, walking 22-26 frames and then 65: 3-4% of the instructions of a
// call, and the pages those walks faulted in were 0.3-0.6 MiB of its peak
// RSS. Growing once before the command runs, a kilobyte and 8 frames
// deep, does the same job for the cost of one small copy. The goroutine
// that reads a stdio server's messages grows the same way at its start:
// decoding the first message grew it twice. The pages of the bigger
// stack that nothing uses are never touched, so they cost no memory.
package growstack

// FrameSize is the frame Grow asks for. The runtime doubles the stack
// until that frame fits above what is in use, so after Grow a kilobyte deep
// in a stack of 8 KiB it is 128 KiB: room for the deepest one-shot path
// (under 32 KiB) and for the terminal forms, so that they do not grow it
// again.
const FrameSize = 64 << 10
