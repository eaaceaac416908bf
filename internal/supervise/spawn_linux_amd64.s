#include "textflag.h"

// func rawsys(trap, a1, a2, a3, a4, a5, a6 uintptr) (r, errno uintptr)
//
// A system call and nothing else: no scheduler hooks, no stack check. The
// only way the in-process supervisor enters the kernel.
TEXT ·rawsys(SB),NOSPLIT,$0-72
	MOVQ	a1+8(FP), DI
	MOVQ	a2+16(FP), SI
	MOVQ	a3+24(FP), DX
	MOVQ	a4+32(FP), R10
	MOVQ	a5+40(FP), R8
	MOVQ	a6+48(FP), R9
	MOVQ	trap+0(FP), AX
	SYSCALL
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, r+56(FP)
	NEGQ	AX
	MOVQ	AX, errno+64(FP)
	RET
ok:
	MOVQ	AX, r+56(FP)
	MOVQ	$0, errno+64(FP)
	RET

// func cloneInto(flags, stack, ptid, arg, fn, fs uintptr) (pid, errno uintptr)
//
// clone(2) with a stack of its own for the new process, which starts in
// the Go function at fn (supervisorMain or serverMain: its ABIInternal
// entry, from a func value) with arg, and never comes back here: should
// the function return, the process exits 127. The new process's thread
// pointer is fs (CLONE_SETTLS), whose word below holds its g (see
// spawnArgs.tls). The calling side returns the new process's pid,
// as rawsys would.
TEXT ·cloneInto(SB),NOSPLIT|NOFRAME,$0-64
	MOVQ	flags+0(FP), DI
	MOVQ	stack+8(FP), SI
	MOVQ	ptid+16(FP), DX
	ORQ	$0x80000, DI // CLONE_SETTLS: the new thread pointer is R8
	MOVQ	$0, R10
	MOVQ	fs+40(FP), R8
	MOVQ	arg+24(FP), R12
	MOVQ	fn+32(FP), R13
	MOVQ	R8, BX
	MOVQ	$56, AX // SYS_clone
	SYSCALL
	CMPQ	AX, $0
	JEQ	child
	CMPQ	AX, $0xfffffffffffff001
	JLS	parent
	MOVQ	$-1, pid+48(FP)
	NEGQ	AX
	MOVQ	AX, errno+56(FP)
	RET
parent:
	MOVQ	AX, pid+48(FP)
	MOVQ	$0, errno+56(FP)
	RET
child:
	// On the new stack, empty and 16-byte aligned, with a thread pointer
	// of its own, set by the clone itself (it succeeds with it or fails):
	// the g Go code loads from it (after each call into assembly) is the
	// spawn's stand-in, never a g of mcpcli's. The function is entered as
	// Go calls a func value (ABIInternal: the argument in AX, its g in
	// R14, X15 zero), not through an ABI0 wrapper, which would enter the
	// race detector where it is built in.
	MOVQ	R12, AX
	XORPS	X15, X15
	MOVQ	-8(BX), R14
	SUBQ	$16, SP
	CALL	R13
	MOVL	$127, DI
	MOVL	$231, AX // SYS_exit_group
	SYSCALL
	INT	$3
