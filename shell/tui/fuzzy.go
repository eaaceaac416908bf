package tui

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lists' filter: a name or a title matches when the letters typed
// come in it in order (a subsequence: "crrep" finds create_repo), scored
// so that the best match comes first: letters at the start of words and
// letters one after another count most, letters far apart least. A
// description matches when each word typed is in it (any order): letters
// spread over a paragraph would match everything. A name counts more than
// a title, a title more than a description.

// Weights of where a filter matched.
const (
	weightName  = 3
	weightTitle = 2
	weightDesc  = 1
)

// maxFuzzy bounds the text a subsequence is looked for in (names and
// titles are short; a longer one is looked at in its first part).
const maxFuzzy = 256

// fuzzyText is a name or title as the filter looks at it: its runes, and
// the same in lower case (made once, not per keystroke).
type fuzzyText struct{ orig, lower []rune }

func newFuzzyText(s string) fuzzyText {
	if len(s) > maxFuzzy {
		s = s[:maxFuzzy]
	}
	return fuzzyText{orig: []rune(s), lower: []rune(strings.ToLower(s))}
}

// fuzzyScore scores query (lower case runes) as a subsequence of text; 0
// when it is not one.
func fuzzyScore(q []rune, text fuzzyText) int {
	if len(q) == 0 {
		return 1
	}
	t, orig := text.lower, text.orig
	if len(orig) != len(t) {
		orig = t // a rune whose lower case is longer: no camelCase then
	}
	best := 0
	// Try each place the first letter is, and keep the best: "rep" in
	// create_repo scores its word start, not the r of create.
	for start := 0; start+len(q) <= len(t); start++ {
		if t[start] != q[0] {
			continue
		}
		score, prev, qi := 0, -1, 0
		for i := start; i < len(t) && qi < len(q); i++ {
			if t[i] != q[qi] {
				continue
			}
			s := 1
			switch {
			case i == 0:
				s += 8
			case boundary(orig, i):
				s += 6
			}
			if prev >= 0 {
				if i == prev+1 {
					s += 5
				} else {
					s -= min(i-prev-1, 3)
				}
			}
			score += s
			prev = i
			qi++
		}
		if qi == len(q) {
			best = max(best, score)
		}
	}
	if best > 0 && hasPrefix(t, q) {
		best += 10 // the name as typed
	}
	return best
}

func hasPrefix(t, q []rune) bool {
	if len(q) > len(t) {
		return false
	}
	for i := range q {
		if t[i] != q[i] {
			return false
		}
	}
	return true
}

// boundary reports whether rune i of s starts a word: after a separator,
// or a capital after a small letter (camelCase).
func boundary(s []rune, i int) bool {
	p, c := s[i-1], s[i]
	if !unicode.IsLetter(p) && !unicode.IsDigit(p) {
		return true
	}
	return unicode.IsLower(p) && unicode.IsUpper(c)
}

// wordsScore scores a description: every word of the query (lower case)
// must be in desc (lower case); a word at a word's start counts more.
func wordsScore(words []string, desc string) int {
	if len(words) == 0 || desc == "" {
		return 0
	}
	score := 0
	for _, w := range words {
		i := strings.Index(desc, w)
		if i < 0 {
			return 0
		}
		score += utf8.RuneCountInString(w)
		if i == 0 || !isWordRune(desc[i-1]) {
			score += 2
		}
	}
	return score
}

func isWordRune(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// matchScore scores an entry for the filter: its words (lower case), and
// q, them run together as runes; 0 means it does not match.
func matchScore(e *entry, words []string, q []rune) int {
	if e.fuzzy == nil {
		e.fuzzy = []fuzzyText{newFuzzyText(e.name), newFuzzyText(e.title), newFuzzyText(e.uri)}
	}
	s := weightName * fuzzyScore(q, e.fuzzy[0])
	for _, t := range e.fuzzy[1:] {
		if len(t.orig) > 0 {
			s = max(s, weightTitle*fuzzyScore(q, t))
		}
	}
	if e.search != "" && s == 0 {
		// What else the entry is found by (the picker: its command).
		s = weightDesc * wordsScore(words, e.search)
	}
	if e.desc != "" {
		s = max(s, weightDesc*wordsScore(words, e.desc))
	}
	return s
}

// rank lists the indexes of items that match f, best first; the server's
// order among equals. No filter: all, in order.
func rank(items []entry, f string, into []int) []int {
	into = into[:0]
	if f == "" {
		for i := range items {
			into = append(into, i)
		}
		return into
	}
	words := strings.Fields(f)
	q := []rune(strings.Join(words, ""))
	scores := make([]int, len(items))
	for i := range items {
		if s := matchScore(&items[i], words, q); s > 0 {
			into = append(into, i)
			scores[i] = s
		}
	}
	sort.SliceStable(into, func(a, b int) bool { return scores[into[a]] > scores[into[b]] })
	return into
}

// Names cut to fit.

// cutApart cuts each name to at most its width in cells (w[i]), as clip
// does (the end gives way to …), except that names that would look the
// same once cut keep what tells them apart: the part where they differ,
// after a short head ("trigger-elicitation-request-form" and "…-url" at
// 24 cells: "trigger…request-form" and "trigger…-request-url").
func cutApart(names []string, w []int) []string {
	out := make([]string, len(names))
	groups := map[string][]int{}
	for i, n := range names {
		out[i] = clip(n, w[i])
		if out[i] != n {
			groups[out[i]] = append(groups[out[i]], i)
		}
	}
	for cut, idx := range groups {
		// Names that are cut the same, among all (one cut alone may match
		// a name that fits exactly, which shows whole).
		same := idx
		for i, n := range names {
			if out[i] == cut && n == cut {
				same = append(same, i)
			}
		}
		if len(same) < 2 {
			continue
		}
		apart := make([]string, len(same))
		seen := map[string]bool{}
		ok := true
		for k, i := range same {
			p := 0
			for _, j := range same {
				if j != i {
					p = max(p, commonPrefix(names[i], names[j]))
				}
			}
			apart[k] = cutAround(names[i], p, w[i])
			if seen[apart[k]] {
				ok = false
			}
			seen[apart[k]] = true
		}
		if ok {
			for k, i := range same {
				out[i] = apart[k]
			}
		}
	}
	return out
}

// commonPrefix is how many runes a and b share at their start.
func commonPrefix(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	return n
}

// cutAround cuts s to w cells keeping rune p (where it differs from names
// like it) in view: a head, …, then the part from a little before p, to
// the end when it fits (else … again).
func cutAround(s string, p, w int) string {
	r := []rune(s)
	if len(r) <= w || w < 8 {
		return clip(s, w)
	}
	head := max((w-2)/3, 2)
	if rest := len(r) - p; rest+4 <= w-1-head {
		// The tail holds the difference: keep as much of it as fits.
		tail := w - 1 - head
		return string(r[:head]) + "…" + string(r[len(r)-tail:])
	}
	win := w - 2 - head
	start := max(p-win/3, head)
	end := min(start+win, len(r))
	out := string(r[:head]) + "…" + string(r[start:end])
	if end < len(r) {
		out += "…"
	}
	return clip(out, w)
}
