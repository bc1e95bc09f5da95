// Package suggest finds the closest of a list of names to a misspelt one,
// for the "did you mean" of every error about an unknown name (reports,
// columns, commands, flags).
package suggest

import (
	"fmt"
	"strings"
)

// Suggest returns " (did you mean X?)" for the closest names, or "".
func Suggest(name string, names []string) string {
	best, bd := "", 1<<30
	for _, n := range names {
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		if strings.Contains(n, name) && len(name) >= 3 {
			d = min(d, 2)
		}
		if d < bd {
			best, bd = n, d
		}
	}
	if best == "" || bd > max(2, len(name)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
