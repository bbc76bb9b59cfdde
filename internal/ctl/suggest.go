package ctl

import (
	"flag"
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Suggest returns the name among names closest to typed, or "" when none
// is close enough to be what was meant: at most two edits away (one for a
// word of three letters or fewer; two letters swapped count two), or the
// only name typed begins.
func Suggest(typed string, names []string) string {
	best, bestDist := "", 0
	var prefixed []string
	for _, n := range names {
		if len(typed) >= 2 && strings.HasPrefix(n, typed) {
			prefixed = append(prefixed, n)
		}
		d := levenshtein.ComputeDistance(strings.ToLower(typed), n)
		if best == "" || d < bestDist {
			best, bestDist = n, d
		}
	}
	limit := 2
	if len(typed) <= 3 {
		limit = 1
	}
	switch {
	case best != "" && bestDist <= limit:
		return best
	case len(prefixed) == 1:
		return prefixed[0]
	}
	return ""
}

// UnknownCommand is the one line a mistyped command gets: the nearest
// command when one is near, and where the list is.
func (c *CLI) UnknownCommand(prefix, typed string, names []string) string {
	if s := Suggest(typed, names); s != "" {
		return fmt.Sprintf("%s: unknown command %q; did you mean %q? (%s help lists the commands)\n", prefix, typed, s, prefix)
	}
	return fmt.Sprintf("%s: unknown command %q (%s help lists the commands)\n", prefix, typed, prefix)
}

// unknownFlag is the name in the flag package's "flag provided but not
// defined: -name" error, or "".
func unknownFlag(err error) string {
	if err == nil {
		return ""
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	return strings.TrimLeft(name, "-")
}

// flagNames are fs's flags that --help lists.
func (fs *FlagSet) flagNames() []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if !fs.hidden[f.Name] {
			names = append(names, f.Name)
		}
	})
	return names
}
