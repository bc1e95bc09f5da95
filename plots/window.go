package plots

import (
	"context"
	"fmt"
	"math"

	"github.com/nsysx/nsysx/nsysx"
)

// window is a time window [s, e] in a profile's own time base.
type window struct {
	s, e  int64
	set   bool   // a window was asked for
	label string // how it was asked for, for subtitles
}

// resolveWindow turns --range, --start and --end into a window of p. An
// NVTX range that is not in p gives note (nsys's SKIPPED message); --start
// and --end override the range's bounds.
func resolveWindow(ctx context.Context, p *nsysx.Profile, o *Options) (w window, note string, err error) {
	w.s, w.e = math.MinInt64, math.MaxInt64
	if o.Range != "" {
		f, err := nsysx.ParseNVTXFilter(o.Range)
		if err != nil {
			return w, "", usagef("--range: %v", err)
		}
		msg, err := f.Resolve(ctx, p.Profile)
		if err != nil {
			return w, "", err
		}
		if msg != "" {
			return w, msg, nil
		}
		w.s, w.e = f.Window(ctx, p.Profile)
		w.set = true
		w.label = fmt.Sprintf("NVTX range %q", o.Range)
	}
	if o.Start != 0 {
		w.s, w.set = o.Start, true
	}
	if o.End != 0 {
		w.e, w.set = o.End, true
	}
	if w.set {
		if w.e <= w.s {
			return w, "", usagef("the window is empty: --end (%d) must be after --start (%d)", w.e, w.s)
		}
		span := ""
		if w.s > math.MinInt64 && w.e < math.MaxInt64 {
			span = fmtTime(w.s) + " – " + fmtTime(w.e) + " (" + fmtDur(float64(w.e-w.s)) + ")"
		} else if w.s > math.MinInt64 {
			span = "from " + fmtTime(w.s)
		} else {
			span = "until " + fmtTime(w.e)
		}
		if w.label != "" {
			w.label += ": " + span
		} else {
			w.label = span
		}
	}
	return w, "", nil
}

// fmtTime formats a timestamp (ns since the session start) in seconds.
func fmtTime(ns int64) string {
	return fmt.Sprintf("%.6g s", float64(ns)/1e9)
}
