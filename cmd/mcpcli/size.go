package main

import (
	"fmt"

	"github.com/mcpcli/mcpcli/transport"
)

// byteSize is a --max-message-size value: a number of bytes, or a number
// with a unit (KiB, MiB, GiB; KB, MB, GB for powers of ten).
type byteSize int

func (b *byteSize) String() string { return transport.FormatSize(int64(*b)) }
func (b *byteSize) Type() string   { return "SIZE" }

func (b *byteSize) Set(s string) error {
	n, err := transport.ParseMessageSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// resultBudget is a session's --result-budget: a size of at least 1 MiB.
type resultBudget int64

func (b *resultBudget) String() string { return transport.FormatSize(int64(*b)) }
func (b *resultBudget) Type() string   { return "SIZE" }

func (b *resultBudget) Set(s string) error {
	n, err := transport.ParseSize(s)
	if err != nil {
		return err
	}
	if n < 1<<20 {
		return fmt.Errorf("%q is less than 1MiB, too small to keep a result of any size", s)
	}
	*b = resultBudget(n)
	return nil
}
