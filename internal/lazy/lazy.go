// Package lazy holds a value made the first time it is asked for.
//
// It is sync.OnceValue for package-level variables. A variable set to
// sync.OnceValue(f) is made by code run at package init, in every command
// of every run; a lazy.Value written as a composite literal is laid out by
// the linker, so a command that never asks for it runs nothing for it and
// touches no page of its package.
package lazy

import "sync"

// Value is a value of type T that New makes, once, at the first Get. Write
// it as a literal, lazy.Value[T]{New: f}, and do not copy it.
type Value[T any] struct {
	New   func() T
	once  sync.Once
	valid bool // New returned
	p     any  // what New panicked with
	v     T
}

// Get returns the value, calling New the first time. Concurrent first calls
// wait for the one New. If New panics (or exits its goroutine), every Get
// panics with the same value, the first one from within New, its frames on
// the trace, as a sync.OnceValue function does.
func (l *Value[T]) Get() T {
	l.once.Do(l.make)
	if !l.valid {
		panic(l.p)
	}
	return l.v
}

func (l *Value[T]) make() {
	defer func() {
		l.p = recover()
		if !l.valid {
			panic(l.p)
		}
	}()
	l.v = l.New()
	l.valid = true
}
