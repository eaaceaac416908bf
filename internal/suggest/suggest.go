// Package suggest finds what a person probably meant to type: the names
// closest to a mistyped one.
package suggest

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Closest returns the candidates close enough to typed to be a typo of it,
// closest first (at most three): the same name in another case or with
// other separators, a name it begins, or one a few edits away.
func Closest(typed string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	var out []scored
	t := fold(typed)
	for _, c := range candidates {
		if c == typed {
			continue
		}
		f := fold(c)
		d := distance(t, f)
		switch {
		case f == t:
			d = 0
		case len(t) >= 3 && (strings.HasPrefix(f, t) || strings.HasPrefix(t, f)):
			d = min(d, 1)
		}
		if d <= limit(typed) {
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	var names []string
	for i, s := range out {
		if i == 3 {
			break
		}
		names = append(names, s.name)
	}
	return names
}

// limit is how many edits still make a typo: more for longer names.
func limit(s string) int {
	n := utf8.RuneCountInString(s)
	switch {
	case n <= 3:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// fold ignores case and the usual separators: get_weather, getWeather and
// get-weather are one name.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// distance is the Damerau-Levenshtein (optimal string alignment) distance.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// DidYouMean is names as a message says them after what was typed:
// ` (did you mean "a" or "b"?)`, or "" for none.
func DidYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return " (did you mean " + strings.Join(q, " or ") + "?)"
}
