package nsysxengine

import (
	"fmt"
	"sync"

	"github.com/nsysx/nsysx/kernel"
)

// progress is the progress line of a magic: one display, updated in
// place. Its bundles are strings, so a display fails only when the cell's
// output is gone; the first failure is said on the cell's stderr and the
// line is not updated again. Safe for concurrent use.
type progress struct {
	out   kernel.Output
	id    string
	quiet bool

	mu     sync.Mutex
	shown  bool
	failed bool
}

func (e *Engine) newProgress(out kernel.Output, quiet bool) *progress {
	return &progress{out: out, id: e.newDisplayID("progress"), quiet: quiet}
}

// show displays data, or replaces what the line shows.
func (p *progress) show(data map[string]any) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed {
		return
	}
	d := kernel.Display{Data: data, ID: p.id}
	var err error
	if p.shown {
		err = p.out.UpdateDisplay(d)
	} else {
		err = p.out.Display(d)
		p.shown = true
	}
	if err != nil {
		p.failed = true
		fmt.Fprintf(p.out.Stderr(), "progress not shown: %v\n", err)
	}
}
