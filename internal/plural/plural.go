// Package plural says a count's noun in English, the one way mcpcli
// does everywhere.
package plural

import "strconv"

// S is the plural "s" of a noun counted n times: "" for one, else "s".
func S(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Of is one or many, as n calls for.
func Of(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n with its noun: "1 round", "3 rounds".
func Count(n int, one, many string) string { return strconv.Itoa(n) + " " + Of(n, one, many) }
