package kernel

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Magic is a line magic (%name args) or a cell magic (%%name args, then
// the rest of the cell as body). Arguments are split like shell words
// (SplitArgs) and never passed to a shell.
type Magic struct {
	Name  string // without % or %%
	Cell  bool   // a cell magic (%%name)
	Usage string // one line, e.g. "%cd DIR"
	Help  string // longer description shown by %help NAME
	Flags []string
	// Raw, when set, passes the magic's argument text unsplit, quotes
	// intact, as the only element of args (%timeit's Go statement).
	Raw bool
	// Run executes the magic. body is empty for line magics.
	Run func(ctx context.Context, args []string, body string, out Output) error
	// Complete, when set, completes an argument (or, in the body of a cell
	// magic, the word before the cursor). It returns the candidates and
	// how many bytes before the cursor they replace (at most len(c.Word)).
	// Flags are completed by the kernel.
	Complete func(c MagicCursor) (matches []string, replace int)
}

// MagicCursor is where completion was asked in a magic's line or body.
type MagicCursor struct {
	Args   []string // the complete words between the magic name and Word
	Word   string   // the partial word ending at the cursor ("" after a space)
	InBody bool     // the cursor is in the body of a cell magic
	Body   string   // the body up to the cursor (cell magics)
	Full   string   // the whole body (cell magics)
	Line   string   // the magic's argument text up to the cursor
}

// Magics is a registry of line and cell magics, safe for concurrent use.
type Magics struct {
	mu   sync.RWMutex
	line map[string]Magic
	cell map[string]Magic
}

// NewMagics returns an empty registry.
func NewMagics() *Magics {
	return &Magics{line: map[string]Magic{}, cell: map[string]Magic{}}
}

// Register adds a magic; the name must be a Go-like identifier (letters,
// digits, _ and -) and not registered yet for the same kind.
func (m *Magics) Register(mg Magic) error {
	if !validMagicName(mg.Name) {
		return fmt.Errorf("magic name %q: use letters, digits, _ and -", mg.Name)
	}
	if mg.Run == nil {
		return fmt.Errorf("magic %s: nil Run", mg.Name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	tab := m.table(mg.Cell)
	if _, dup := tab[mg.Name]; dup {
		return fmt.Errorf("magic %s%s registered twice", prefix(mg.Cell), mg.Name)
	}
	tab[mg.Name] = mg
	return nil
}

func (m *Magics) table(cell bool) map[string]Magic {
	if cell {
		return m.cell
	}
	return m.line
}

func prefix(cell bool) string {
	if cell {
		return "%%"
	}
	return "%"
}

func validMagicName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// Lookup finds a line (cell false) or cell magic.
func (m *Magics) Lookup(name string, cell bool) (Magic, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	mg, ok := m.table(cell)[name]
	return mg, ok
}

// List returns all magics, line magics first, each kind sorted by name.
func (m *Magics) List() []Magic {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []Magic
	for _, tab := range []map[string]Magic{m.line, m.cell} {
		start := len(out)
		for _, mg := range tab {
			out = append(out, mg)
		}
		sort.Slice(out[start:], func(i, j int) bool { return out[start+i].Name < out[start+j].Name })
	}
	return out
}

// SplitArgs splits s into words like a POSIX shell does, without any
// expansion: single quotes keep everything literally, double quotes allow
// \" \\ \$ and \` escapes, and a backslash outside quotes escapes the next
// character.
func SplitArgs(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		inW   bool
		quote rune
		esc   bool
	)
	for _, r := range s {
		switch {
		case esc:
			if quote == '"' && !strings.ContainsRune("\"\\$`\n", r) {
				cur.WriteRune('\\')
			}
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, inW = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inW = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inW {
				words = append(words, cur.String())
				cur.Reset()
				inW = false
			}
		default:
			cur.WriteRune(r)
			inW = true
		}
	}
	if esc {
		return nil, errors.New("trailing backslash")
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if inW {
		words = append(words, cur.String())
	}
	return words, nil
}

// segment is a piece of a cell: Go code, a line magic or a cell magic.
type segment struct {
	magic string // "" for code
	cell  bool
	args  string
	body  string // code, or the body of a cell magic
	line  int    // 1-based line of the cell where it starts
}

// splitCell cuts a cell into code and magic segments. A cell whose first
// non-blank line starts with %% is one cell magic. Otherwise lines whose
// first non-blank character is % (outside strings and comments) are line
// magics; the code between them keeps its line numbers (it is preceded by
// blank lines), so that engines report positions of the whole cell.
func splitCell(code string) []segment {
	lines := strings.SplitAfter(code, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first < len(lines) {
		if t := strings.TrimSpace(lines[first]); strings.HasPrefix(t, "%%") {
			name, args := cutMagic(t[2:])
			return []segment{{magic: name, cell: true, args: args, body: strings.Join(lines[first+1:], ""), line: first + 1}}
		}
	}
	var segs []segment
	var cur strings.Builder
	start := 0
	inside := topLevelMask(lines)
	flush := func(next int) {
		if strings.TrimSpace(cur.String()) != "" {
			segs = append(segs, segment{body: strings.Repeat("\n", start) + cur.String(), line: start + 1})
		}
		cur.Reset()
		start = next
	}
	for i, l := range lines {
		if t := strings.TrimSpace(l); !inside[i] && strings.HasPrefix(t, "%") && !strings.HasPrefix(t, "%%") {
			flush(i + 1)
			name, args := cutMagic(t[1:])
			segs = append(segs, segment{magic: name, args: args, line: i + 1})
			continue
		}
		cur.WriteString(l)
	}
	flush(len(lines))
	return segs
}

func cutMagic(s string) (name, args string) {
	name, args, _ = strings.Cut(s, " ")
	if i := strings.IndexAny(name, "\t"); i >= 0 {
		name, args = name[:i], name[i+1:]+" "+args
	}
	return name, strings.TrimSpace(args)
}

// topLevelMask reports, per line, whether the line starts inside a raw
// string or a block comment, where a leading % is not a magic.
func topLevelMask(lines []string) []bool {
	mask := make([]bool, len(lines))
	var state byte // 0 code, '`' raw string, '*' block comment
	for i, l := range lines {
		mask[i] = state != 0
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch state {
			case '`':
				if c == '`' {
					state = 0
				}
			case '*':
				if c == '*' && j+1 < len(l) && l[j+1] == '/' {
					state, j = 0, j+1
				}
			default:
				switch {
				case c == '`':
					state = '`'
				case c == '/' && j+1 < len(l) && l[j+1] == '*':
					state, j = '*', j+1
				case c == '/' && j+1 < len(l) && l[j+1] == '/':
					j = len(l)
				case c == '"' || c == '\'':
					j = skipQuoted(l, j)
				}
			}
		}
	}
	return mask
}

func skipQuoted(l string, j int) int {
	q := l[j]
	for j++; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case q, '\n':
			return j
		}
	}
	return j
}
