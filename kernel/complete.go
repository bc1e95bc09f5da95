package kernel

import (
	"slices"
	"strings"
)

// magicSpot is the magic the cursor is in: the line magic on the cursor's
// line, or the cell magic whose first line or body holds the cursor.
type magicSpot struct {
	name   string
	cell   bool
	start  int    // byte offset of the "%" or "%%"
	args   string // argument text up to the cursor
	inBody bool
	body   string // body up to the cursor
	full   string // the whole body
	onName bool   // the cursor is still in the name
}

// findMagic returns the magic at pos, if any.
func findMagic(code string, pos int) (magicSpot, bool) {
	pos = max(0, min(pos, len(code)))
	lineStart := strings.LastIndexByte(code[:pos], '\n') + 1
	if segs := splitCell(code); len(segs) == 1 && segs[0].cell {
		first := strings.Index(code, "%%")
		nl := strings.IndexByte(code[first:], '\n')
		if nl >= 0 && pos > first+nl { // in the body
			sp, _ := spotOnLine(code[first:first+nl], first, true)
			sp.inBody, sp.onName = true, false
			sp.body, sp.full = code[first+nl+1:pos], code[first+nl+1:]
			return sp, true
		}
		return spotOnLine(code[first:pos], first, true)
	}
	line := code[lineStart:pos]
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "%") || strings.HasPrefix(t, "%%") {
		return magicSpot{}, false
	}
	lines := strings.SplitAfter(code, "\n")
	n := strings.Count(code[:lineStart], "\n")
	if topLevelMask(lines)[n] { // inside a raw string or comment
		return magicSpot{}, false
	}
	return spotOnLine(t, pos-len(t), false)
}

// spotOnLine parses "%name args" (or "%%name args") up to the cursor.
func spotOnLine(text string, start int, cell bool) (magicSpot, bool) {
	p := prefix(cell)
	rest := strings.TrimPrefix(text, p)
	name, args, hasArgs := strings.Cut(rest, " ")
	if i := strings.IndexByte(name, '\t'); i >= 0 {
		name, args, hasArgs = name[:i], name[i+1:]+" "+args, true
	}
	return magicSpot{name: name, cell: cell, start: start, args: args, onName: !hasArgs}, true
}

// completeMagic completes magic names, their flags and, through the
// magic's Complete, their arguments and bodies.
func (k *Kernel) completeMagic(code string, pos int) (Completion, bool) {
	sp, ok := findMagic(code, pos)
	if !ok {
		return Completion{}, false
	}
	if sp.onName {
		word := code[sp.start:pos] // "%na" offers line and cell magics, "%%na" cell magics
		var matches []string
		for _, mg := range k.magics.List() {
			if (mg.Cell || !strings.HasPrefix(word, "%%")) && strings.HasPrefix(mg.Name, strings.TrimLeft(word, "%")) {
				matches = append(matches, prefix(mg.Cell)+mg.Name)
			}
		}
		return Completion{Matches: matches, Start: pos - len(word), End: pos}, true
	}
	mg, ok := k.magics.Lookup(sp.name, sp.cell)
	if !ok {
		return Completion{Start: pos, End: pos}, true
	}
	c := MagicCursor{InBody: sp.inBody, Body: sp.body, Full: sp.full, Line: sp.args}
	if sp.inBody {
		i := len(sp.body)
		for i > 0 && isWordByte(sp.body[i-1]) {
			i--
		}
		c.Word = sp.body[i:]
	} else {
		c.Args, c.Word = lastWord(sp.args)
	}
	var matches []string
	replace := len(c.Word)
	if !sp.inBody && strings.HasPrefix(c.Word, "-") {
		for _, f := range mg.Flags {
			if strings.HasPrefix(f, c.Word) {
				matches = append(matches, f)
			}
		}
	}
	if mg.Complete != nil {
		more, r := mg.Complete(c)
		if len(more) > 0 {
			if len(matches) > 0 && r != replace {
				more = nil // keep the flags: the ranges differ
			} else {
				replace = max(0, min(r, pos))
			}
		}
		matches = append(matches, more...)
	}
	slices.Sort(matches)
	matches = slices.Compact(matches)
	return Completion{Matches: matches, Start: pos - replace, End: pos}, true
}

// lastWord splits an argument text into its complete words and the
// partial last one ("" when the text ends with a space). Unterminated
// quotes are tolerated.
func lastWord(s string) ([]string, string) {
	words, err := SplitArgs(s)
	if err != nil {
		// an open quote: complete what follows it
		i := strings.LastIndexAny(s, `'"`)
		words, _ = SplitArgs(s[:i])
		return words, s[i+1:]
	}
	if s == "" || strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") || len(words) == 0 {
		return words, ""
	}
	return words[:len(words)-1], words[len(words)-1]
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// inspectMagic shows the help of the magic whose name is under the cursor.
func (k *Kernel) inspectMagic(code string, pos int) (Inspection, bool) {
	end := pos
	for end < len(code) && (isWordByte(code[end]) || code[end] == '-') {
		end++
	}
	sp, ok := findMagic(code, end)
	if !ok || !sp.onName || sp.inBody {
		return Inspection{}, false
	}
	mg, ok := k.magics.Lookup(sp.name, sp.cell)
	if !ok {
		return Inspection{}, false
	}
	text := mg.Usage + "\n\n" + mg.Help
	return Inspection{Found: true, Data: map[string]any{"text/plain": text}}, true
}
