package kernel

import (
	"regexp"
	"strings"
	"sync"

	"github.com/nsysx/nsysx/kernel/wire"
)

// historySession is the session number of this kernel's in-memory history.
const historySession = 1

type historyEntry struct {
	line          int
	input, output string
}

// history keeps the cells executed with store_history in memory.
type history struct {
	mu      sync.Mutex
	entries []historyEntry
}

func (h *history) add(line int, input string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, historyEntry{line: line, input: input})
}

func (h *history) setOutput(line int, output string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.entries) - 1; i >= 0; i-- {
		if h.entries[i].line == line {
			h.entries[i].output = output
			return
		}
	}
}

// query answers a history_request: a list of [session, line, input] or,
// with output, [session, line, [input, output]].
func (h *history) query(q wire.HistoryRequest) []wire.HistoryEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sel []historyEntry
	switch q.HistAccessType {
	case "tail":
		sel = tail(h.entries, q.N)
	case "range":
		if q.Session == 0 || q.Session == historySession {
			for _, e := range h.entries {
				if e.line >= q.Start && (q.Stop <= 0 || e.line < q.Stop) {
					sel = append(sel, e)
				}
			}
		}
	case "search":
		re := globRegexp(q.Pattern)
		seen := map[string]bool{}
		for _, e := range h.entries {
			if !re.MatchString(e.input) {
				continue
			}
			if q.Unique {
				if seen[e.input] {
					continue
				}
				seen[e.input] = true
			}
			sel = append(sel, e)
		}
		sel = tail(sel, q.N)
	}
	out := make([]wire.HistoryEntry, 0, len(sel))
	for _, e := range sel {
		he := wire.HistoryEntry{Session: historySession, Line: e.line, Input: e.input}
		if q.Output {
			he.Output = &e.output
		}
		out = append(out, he)
	}
	return out
}

func tail(es []historyEntry, n int) []historyEntry {
	if n > 0 && len(es) > n {
		return es[len(es)-n:]
	}
	return es
}

// globRegexp turns a glob (* and ?) into an anchored regexp matching
// across lines, like IPython's history search.
func globRegexp(glob string) *regexp.Regexp {
	if glob == "" {
		glob = "*"
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
