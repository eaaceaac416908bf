// Package cliflags reads what a command line's flags say without running
// its commands: the command it names, and the flags it was given, as
// words to type again.
package cliflags

import (
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcpcli/mcpcli/internal/shellwords"
)

// CommandWord is the first argument that is neither a flag of flags nor
// its value: the command a run names, "" when it names none (--version,
// or a server and no command). ok is false when the flags cannot be told
// apart from the command without cobra: a flag it does not know.
func CommandWord(flags *pflag.FlagSet, args []string) (word string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return "", true
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a[2:], "=")
			fl := flags.Lookup(name)
			if fl == nil && (name == "version" || name == "help") {
				continue // cobra's own, added as it runs
			}
			if fl == nil {
				return "", false
			}
			if !hasValue && fl.NoOptDefVal == "" {
				i++ // the next argument is its value
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				fl := flags.ShorthandLookup(a[j : j+1])
				if fl == nil && a[j] == 'h' {
					continue // cobra's -h
				}
				if fl == nil {
					return "", false
				}
				if fl.NoOptDefVal == "" {
					if j == len(a)-1 {
						i++ // -s NAME
					}
					break // -sNAME: the rest is its value
				}
			}
		default:
			return a, true
		}
	}
	return "", true
}

// Given are the flags of flags that were set: their names (--name), and
// the words that give them again (--name VALUE, quoted for a shell; a
// bool flag by its name alone; a repeatable one once per value). A flag
// named in bare counts as given but has no words (a flag that starts
// nothing, say).
func Given(flags *pflag.FlagSet, bare ...string) (names, words []string) {
	flags.VisitAll(func(fl *pflag.Flag) {
		if !fl.Changed {
			return
		}
		names = append(names, "--"+fl.Name)
		switch s, slice := fl.Value.(pflag.SliceValue); {
		case slices.Contains(bare, fl.Name):
		case fl.Value.Type() == "bool":
			words = append(words, "--"+fl.Name)
		case slice:
			for _, v := range s.GetSlice() {
				words = append(words, "--"+fl.Name+" "+shellwords.Quote(v))
			}
		default:
			words = append(words, "--"+fl.Name+" "+shellwords.Quote(fl.Value.String()))
		}
	})
	return names, words
}
