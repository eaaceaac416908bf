#include "textflag.h"
#include "go_asm.h"

// func Grow()
//
// A frame of FrameSize bytes that is never written: the stack check in
// the prologue grows the stack, and nothing touches the new pages.
TEXT ·Grow(SB), 0, $const_FrameSize-0
	NOP	SP // the frame is reserved, not used
	RET
