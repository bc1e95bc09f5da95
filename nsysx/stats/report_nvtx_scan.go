package stats

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/nsysx/nsysx/nsysx/model"
)

// The reading side of the NVTX loader. NVTX_EVENTS is the one big table of
// NVTX-heavy profiles (2.7 M rows in train x50, 220 MB of pages) and the
// NVTX reports need eight of its columns once. For a SQLite export the table
// is read straight through the profile's sqlite.DB, with its leaf pages
// released from the resident set as the scan leaves them behind, so that the
// pages do not stay in the process's memory while the reports build their
// results, and with the report's context checked every 65536 rows. Other
// exports go through the generic Scanner. Either way, rows are cut into
// nvtxBatches for the goroutine that builds the ranges.

// nvtxReleaseEvery is the bytes of pages the scan reads between releases
// (0: sqlite's default, 16 MB); tests lower it.
var nvtxReleaseEvery = 0

// errNoFastPath says the direct reader does not apply (not a SQLite export):
// the generic Scanner is used instead.
var errNoFastPath = errors.New("no NVTX fast path")

// nvtxBatcher fills nvtxBatches and hands the full ones over.
type nvtxBatcher struct {
	newBatch func() *nvtxBatch
	send     func(*nvtxBatch) // hands a full batch over
	cur      *nvtxBatch
	rf       *RowFilter // applied by add when not nil
	g        int        // the field the filter's thread test reads
	// keep, when not nil, gates the SQLite scan on eventType (without a
	// filter): the rows it refuses only count in gated's maxima.
	keep  func(int64) bool
	gated *[3]nvMax
	// est, when not 0, is the table's estimated rows, for the first batch's
	// hint scaled by the share of the rows seen (seen) that the gate kept.
	est, seen int
}

// The fields of an NVTX_EVENTS row as add reads them: the nvtxScanCols
// columns, then globalPid when the filter needs it.
const (
	nvStart = iota
	nvEnd
	nvType
	nvGtid
	nvTextID
	nvText
	nvDomain
	nvEndGtid
	nvGpid
)

// add appends one row to the current batch, first handing the batch over
// when it is full. A REAL reads as an integer, a TEXT in an integer column
// as the number it spells and a number in the text column as its digits, as
// in RowVals.
func (b *nvtxBatcher) add(rowid int64, f *model.Fields) error {
	null := f.Null
	isNull := func(k int) bool { return null&(1<<k) != 0 }
	if t := f.Text &^ (1 << nvText); t != 0 {
		for k := range nvGpid + 1 {
			if t&(1<<k) != 0 {
				f.I[k], _ = strconv.ParseInt(string(f.B[k]), 10, 64)
			}
		}
	}
	if b.rf != nil && !b.rf.Keep(f.I[nvStart], isNull(nvStart), f.I[nvEnd], isNull(nvEnd), f.I[b.g], isNull(b.g)) {
		return nil
	}
	if f.Gated {
		b.seen++
		b.addGated(f)
		return nil
	}
	text := f.B[nvText]
	switch {
	case isNull(nvText):
		text = nil
	case f.Real&(1<<nvText) != 0:
		text = []byte(PyFloat(f.F[nvText]))
	case (f.Text|f.Blob)&(1<<nvText) == 0:
		text = strconv.AppendInt(nil, f.I[nvText], 10)
	}
	if len(b.cur.rows) > 0 && (len(b.cur.rows) == nvtxBatchRows || len(b.cur.buf)+len(text) > cap(b.cur.buf)) {
		b.hand()
		b.cur = b.newBatch()
	}
	b.seen++ // after hand: the hint's share is of the rows handed over
	r := nvtxRow{rowid: rowid, start: f.I[nvStart], end: f.I[nvEnd], typ: f.I[nvType], gtid: f.I[nvGtid],
		textID: f.I[nvTextID], domainID: f.I[nvDomain], null: nvtxNullBits(null)}
	if !isNull(nvText) {
		r.text = b.cur.addText(text)
	}
	b.cur.rows = append(b.cur.rows, r)
	return nil
}

// nvtxNullBits turns the NULL bits of the fields (bit k: field k) into the
// nvNull* bits of an nvtxRow: end is field 1, and globalTid, textId, text,
// domainId and endGlobalTid, fields 3 to 7, map to the next five bits.
func nvtxNullBits(null uint32) uint8 {
	return uint8(null>>nvEnd&1 | null>>(nvGtid-1)&0x3E)
}

// addGated counts a row the gate left out (start, end and eventType
// decoded) in the maxima of its kind, as the builder would.
func (b *nvtxBatcher) addGated(f *model.Fields) {
	if b.gated == nil {
		b.gated = new([3]nvMax)
	}
	s, e, eNull := f.I[nvStart], f.I[nvEnd], f.Null&(1<<nvEnd) != 0
	b.gated[0].add(s, e, eNull)
	switch f.I[nvType] {
	case nvtxPushPop, nvtxTPushPop:
		b.gated[1].add(s, e, eNull)
	case nvtxStartEnd, nvtxTStartEnd:
		b.gated[2].add(s, e, eNull)
	}
}

// flush hands over the last, partly filled batch, with the gated maxima.
func (b *nvtxBatcher) flush() {
	b.cur.gated = b.gated
	if len(b.cur.rows) > 0 || b.gated != nil {
		b.hand()
	}
	b.cur = nil
}

// hand hands the current batch over, the first one with the size hint.
func (b *nvtxBatcher) hand() {
	if b.est > 0 {
		kept, seen := int64(len(b.cur.rows)), int64(max(b.seen, 1))
		b.cur.hint = int(int64(b.est) * kept / seen)
		if kept < seen { // a share: 2 % more, as growing the arrays past it copies them all
			b.cur.hint += b.cur.hint / 50
		}
		b.est = 0
	}
	b.send(b.cur)
}

// addText copies a text into the batch buffer (or its own slice when it is
// longer than the buffer).
func (b *nvtxBatch) addText(t []byte) []byte {
	if len(t) > cap(b.buf)-len(b.buf) {
		return append([]byte(nil), t...)
	}
	o := len(b.buf)
	b.buf = append(b.buf, t...)
	return b.buf[o:len(b.buf):len(b.buf)]
}

// scanSQLiteNVTX reads NVTX_EVENTS of a SQLite export through its
// sqlite.DB into bt, in rowid order, keeping the rows that pass the filter.
// Absent columns read as NULL.
func scanSQLiteNVTX(sc *Scanner, bt *nvtxBatcher) error {
	d, ok := scannerDirect(sc, nvtxReleaseEvery)
	if !ok {
		return errNoFastPath
	}
	if !d.Has {
		return &MissingTableError{Table: sc.Table}
	}
	names := slices.Clone(sc.Cols)
	bt.rf, bt.g = sc.RF, nvGtid
	if sc.RF != nil && !sc.RF.UseTid && sc.RF.UsePid {
		names = append(names, "globalPid")
		bt.g = nvGpid
	}
	if bt.keep != nil && sc.RF == nil {
		d.Keep, d.Gate = bt.keep, nvType
		if done, err := scanNVTXKeptParts(sc, d, names, bt); done {
			return err
		}
	}
	if done, err := scanNVTXStreamParts(sc, d, names, bt); done {
		return err
	}
	bt.hintFrom(d)
	return d.Run(sc.Ctx, names, bt.add)
}

// hintFrom sizes the builder's arrays from the table of d: its estimated
// rows, or, when the gate may keep few of them, that estimate scaled by the
// share the first batch kept.
func (b *nvtxBatcher) hintFrom(d DirectScan) {
	if b.keep != nil && b.rf == nil {
		b.est = d.EstimateRows()
	} else {
		b.cur.hint = d.EstimateRows()
	}
}

// nvtxStreamPartsMax is the most ranges scanNVTXStreamParts reads at once:
// one goroutine builds the ranges from the batches, and past four ranges it
// is what bounds the load.
const nvtxStreamPartsMax = 4

// scanNVTXStreamParts is the scan d of scanSQLiteNVTX over up to
// nvtxStreamPartsMax ranges of the table at once (GatedCores), for a load
// that keeps many of the rows: each range batches its rows with a batcher
// of its own (bt's gate, filter and batch pool) on its goroutine, and the
// batches reach bt's builder in range order, each range running at most
// two batches ahead of it; a range's last batch carries the maxima of the
// rows its gate left out. The builder sees the rows in rowid order, as from
// one scan (a table too small to cut is one range). done is false, and
// nothing read, with fewer than two cores.
func scanNVTXStreamParts(sc *Scanner, d DirectScan, names []string, bt *nvtxBatcher) (done bool, err error) {
	cores := min(GatedCores(sc.Ctx), nvtxStreamPartsMax)
	if cores < 2 {
		return false, nil
	}
	ctx, cancel := context.WithCancel(sc.Ctx)
	defer cancel()
	order := make(chan chan *nvtxBatch, cores) // each range's batches, in range order
	var parts []*nvtxBatcher                   // filled before any range is read
	var chans []chan *nvtxBatch
	scanned := make(chan error, 1)
	go func() {
		_, err := d.RunPartsDone(ctx, names, cores, func(i int) func(int64, *model.Fields) error {
			ch := make(chan *nvtxBatch, 2)
			b := &nvtxBatcher{newBatch: bt.newBatch, cur: bt.newBatch(), keep: bt.keep, rf: bt.rf, g: bt.g,
				send: func(b *nvtxBatch) {
					select {
					case ch <- b:
					case <-ctx.Done(): // the load stops: its batches are dropped
					}
				}}
			if i == 0 {
				b.hintFrom(d)
			}
			parts, chans = append(parts, b), append(chans, ch)
			order <- ch
			return b.add
		}, func(i int, err error) {
			if err != nil {
				cancel()
			} else {
				parts[i].flush()
			}
			close(chans[i])
		})
		close(order)
		scanned <- err
	}()
	for ch := range order {
		for b := range ch {
			bt.send(b)
		}
	}
	return true, <-scanned
}

// scanNVTXKeptParts is the gated scan d of scanSQLiteNVTX over ranges of the
// table read at once (GatedCores), for reports that keep few of the rows
// (nvtx_startend_sum on a profile of push/pop ranges): each range has a
// batcher of its own, which keeps its batches; once all are read the
// batches go to bt's builder in range order. The rows the gate refuses are
// skipped before any field is decoded (GateFirst), so their maxima are not
// taken: the last batch carries nvtxMaxima instead, which the load calls
// only if a range it kept is open (the only use of the maxima;
// docs/performance.md, "NVTX maxima taken late"). done is false, and
// the serial gated scan reads the table instead, with one core, when the
// gate keeps push/pop ranges (most profiles' ranges), or when the ranges
// keep more than nvtxKeptPartsMax rows between them: the batches would
// then hold much of the table, which the serial scan streams to the
// builder as it reads.
func scanNVTXKeptParts(sc *Scanner, d DirectScan, names []string, bt *nvtxBatcher) (done bool, err error) {
	cores := GatedCores(sc.Ctx)
	if cores < 2 || bt.keep(nvtxPushPop) { // push/pop ranges, the common kind, are kept: many rows
		return false, nil
	}
	ctx, cancel := context.WithCancel(sc.Ctx)
	defer cancel()
	type part struct {
		b       *nvtxBatcher
		batches []*nvtxBatch // written by the range's goroutine only
	}
	var parts []*part
	var kept atomic.Int64
	d.First = true
	_, err = d.RunParts(ctx, names, cores, func(int) func(int64, *model.Fields) error {
		pt := &part{}
		pt.b = &nvtxBatcher{newBatch: newNVTXBatch, send: func(b *nvtxBatch) { pt.batches = append(pt.batches, b) }, cur: newNVTXBatch(), keep: bt.keep}
		parts = append(parts, pt)
		return func(rowid int64, f *model.Fields) error {
			if !f.Gated && kept.Add(1) > nvtxKeptPartsMax {
				cancel() // the other ranges stop at their next check
				return errNVTXKeptMany
			}
			return pt.b.add(rowid, f)
		}
	})
	for _, pt := range parts {
		if len(pt.b.cur.rows) > 0 {
			pt.b.send(pt.b.cur)
		}
	}
	switch {
	case sc.Ctx.Err() != nil:
		return true, sc.Ctx.Err()
	case errors.Is(err, errNVTXKeptMany) || errors.Is(err, context.Canceled):
		return false, nil
	case err != nil:
		return true, err
	}
	var all []*nvtxBatch
	for _, pt := range parts {
		all = append(all, pt.batches...)
	}
	if len(all) == 0 {
		all = append(all, newNVTXBatch())
	}
	all[0].hint = int(kept.Load())
	all[len(all)-1].maxLater = func() ([3]nvMax, error) { return nvtxMaxima(sc, d, names) }
	for _, b := range all {
		bt.send(b)
	}
	return true, nil
}

// nvtxMaxima reads start, end and eventType (names' first three columns)
// of every row of d's table, in ranges on every core the context gives a
// gated scan, and returns the maxima of every row, the push/pop rows and
// the start/end rows, as the builder would take them.
func nvtxMaxima(sc *Scanner, d DirectScan, names []string) ([3]nvMax, error) {
	d.Keep, d.First = nil, false
	var parts []*nvtxBatcher
	_, err := d.RunParts(sc.Ctx, names[:nvType+1], GatedCores(sc.Ctx), func(int) func(int64, *model.Fields) error {
		b := &nvtxBatcher{}
		parts = append(parts, b)
		return func(rowid int64, f *model.Fields) error {
			f.Gated = true // add reads its fields as it does a row's the gate refused: into the maxima
			return b.add(rowid, f)
		}
	})
	var m [3]nvMax
	for _, b := range parts {
		if g := b.gated; g != nil {
			for k := range m {
				m[k] = m[k].merge(g[k])
			}
		}
	}
	return m, err
}

// nvtxKeptPartsMax is the most rows scanNVTXKeptParts collects before it
// leaves the table to the serial scan (a variable for the tests).
var nvtxKeptPartsMax int64 = 1 << 14

var errNVTXKeptMany = errors.New("NVTX scan: more rows kept than the parallel gated scan holds")
