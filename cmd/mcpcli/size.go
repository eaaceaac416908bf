package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpcli/mcpcli/transport"
)

// byteSize is a --max-message-size value: a number of bytes, or a number
// with a unit (KiB, MiB, GiB; KB, MB, GB for powers of ten).
type byteSize int64

// Bounds of --max-message-size: below 1 KiB no MCP message fits; above
// 16 GiB the bound no longer protects anything.
const (
	minMessageSize = 1 << 10
	maxMessageSize = 16 << 30
)

var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
	"kb": 1000, "mb": 1000 * 1000, "gb": 1000 * 1000 * 1000,
}

func (b *byteSize) String() string { return transport.FormatSize(int64(*b)) }
func (b *byteSize) Type() string   { return "SIZE" }

func (b *byteSize) Set(s string) error {
	n, err := parseSize(s)
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
	n, err := parseSizeOf(s)
	if err != nil {
		return err
	}
	if n < 1<<20 {
		return fmt.Errorf("%q is less than 1MiB, too small to keep a result of any size", s)
	}
	*b = resultBudget(n)
	return nil
}

// parseSize reads "256MiB", "1MB", "65536": a message size.
func parseSize(s string) (int64, error) {
	n, err := parseSizeOf(s)
	if err != nil {
		return 0, err
	}
	if n < minMessageSize {
		return 0, fmt.Errorf("%q is less than %s, too small for an MCP message", s, transport.FormatSize(minMessageSize))
	}
	return n, nil
}

// parseSizeOf reads a size of at most 16 GiB.
func parseSizeOf(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult, ok := sizeUnits[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a size: write it like 256MiB, 64KiB or 1048576", s)
	}
	if n > maxMessageSize/mult || n*mult > maxMessageSize {
		return 0, fmt.Errorf("%q is more than %s", s, transport.FormatSize(maxMessageSize))
	}
	return n * mult, nil
}
