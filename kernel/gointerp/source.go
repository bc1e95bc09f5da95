package gointerp

import (
	"sort"
	"strings"
)

// source is what one evaluation gives yaegi: the group's cell-aligned text
// with edits (start marker, line markers, range rewrites, result display)
// applied. It maps the positions yaegi reports back to the cell.
type source struct {
	code    string // the whole cell
	text    string // given to yaegi
	wrapper string // what yaegi puts before text
	edits   []edit // sorted by start, in cell offsets
}

// edit replaces code[start:end] by text; inserts have start == end, come
// before a replacement starting at the same offset and keep their list
// order.
type edit struct {
	start, end int
	text       string
}

func newSource(code, groupSrc, wrapper string, edits []edit) *source {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		return a.start == a.end && b.start != b.end
	})
	var b strings.Builder
	prev := 0
	for _, e := range edits {
		b.WriteString(groupSrc[prev:e.start])
		b.WriteString(e.text)
		prev = e.end
	}
	b.WriteString(groupSrc[prev:])
	return &source{code: code, text: b.String(), wrapper: wrapper, edits: edits}
}

// cellOffset maps an offset of text to an offset of the cell; inserted
// reports an offset inside text an edit put there (mapped to its start).
func (s *source) cellOffset(off int) (cell int, inserted bool) {
	pos, prev := 0, 0
	for _, e := range s.edits {
		if seg := e.start - prev; off < pos+seg {
			return prev + off - pos, false
		} else {
			pos += seg
		}
		if off < pos+len(e.text) {
			return e.start, true
		}
		pos += len(e.text)
		prev = e.end
	}
	return prev + off - pos, false
}

// textOffset maps a line:col of wrapper+text to an offset of text.
func (s *source) textOffset(line, col int) int {
	full := s.wrapper + s.text
	off, l := 0, 1
	for l < line {
		i := strings.IndexByte(full[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		l++
	}
	return max(off+col-1-len(s.wrapper), 0)
}

// generated reports whether a line:col of wrapper+text is in code the
// engine wrote (a go statement's wrapper function, a marker).
func (s *source) generated(line, col int) bool {
	_, in := s.cellOffset(s.textOffset(line, col))
	return in
}

// cellPos maps a line:col of wrapper+text to a line:col of the cell.
func (s *source) cellPos(line, col int) (int, int) {
	c, _ := s.cellOffset(s.textOffset(line, col))
	c = min(c, len(s.code))
	if c == len(s.code) { // past the end (the wrapper's closing brace): point after the last character
		c = len(strings.TrimRight(s.code, " \t\n"))
	}
	before := s.code[:c]
	cl := strings.Count(before, "\n") + 1
	return cl, c - strings.LastIndexByte(before, '\n')
}
