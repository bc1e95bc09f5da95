package stats

import (
	"fmt"
	"slices"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Loading the NVTX ranges: one pass over NVTX_EVENTS (report_nvtx_scan.go
// reads SQLite exports directly; the generic Scanner serves other exports), rows
// handed in batches to a builder that interns texts, resolves domains and
// keeps the selected ranges in columns.

// nvtxRow is one NVTX_EVENTS row as the loader reads it.
type nvtxRow struct {
	rowid, start, end, typ, gtid, textID, domainID int64
	null                                           uint8 // nvNull* bits
	// hashed says that hash is text's hash in the builder's text table
	// (nvtxBuilder.addRows)
	hashed bool
	hash   uint32
	text   []byte
}

// NULL bits of an nvtxRow.
const (
	nvNullEnd uint8 = 1 << iota
	nvNullTid
	nvNullTextID
	nvNullText
	nvNullDomain
	nvNullEndTid
)

// nvtxBatch carries rows from the scanning goroutine to the one building
// the ranges; text bytes are copied into buf, which never grows.
type nvtxBatch struct {
	rows []nvtxRow
	buf  []byte
	hint int // in the first batch: the table's estimated row count, or 0
	// gated, in the last batch, when not nil: the maxima (all rows,
	// push/pop, start/end) of the rows the scan's gate left out.
	gated *[3]nvMax
	// maxLater, in the last batch, when not nil: the scan skipped the rows
	// its gate refused without their maxima, which it computes (nvtxData's
	// maxLater).
	maxLater func() ([3]nvMax, error)
}

const (
	nvtxBatchRows  = 4096
	nvtxBatchBytes = 256 << 10
)

// newNVTXBatch is an empty batch of full capacity.
func newNVTXBatch() *nvtxBatch {
	return &nvtxBatch{rows: make([]nvtxRow, 0, nvtxBatchRows), buf: make([]byte, 0, nvtxBatchBytes)}
}

// nvtxFastPath enables the direct NVTX_EVENTS reader of SQLite exports
// (report_nvtx_scan.go); tests turn it off to compare with the generic reader.
var nvtxFastPath = true

// scanNVTX streams NVTX_EVENTS in batches to fn: the scan (decoding the
// file) runs on its own goroutine while fn works on the previous batch. It
// stops with ctx.Err() soon after ctx is cancelled.
func scanNVTX(sc *Scanner, fn func(*nvtxBatch)) error { return scanNVTXTypes(sc, nil, fn) }

// scanNVTXTypes is scanNVTX where, when keep is not nil, the rows of the
// event types it refuses may be left out of the batches, their maxima
// passed in the last batch's gated instead (only the SQLite reader does,
// and only without a filter).
func scanNVTXTypes(sc *Scanner, keep func(int64) bool, fn func(*nvtxBatch)) error {
	full := make(chan *nvtxBatch, 4)
	free := make(chan *nvtxBatch, 6)
	newBatch := func() *nvtxBatch {
		select {
		case b := <-free:
			b.rows, b.buf, b.hint, b.gated = b.rows[:0], b.buf[:0], 0, nil
			return b
		default:
			return newNVTXBatch()
		}
	}
	var scanErr error
	go func() {
		defer close(full)
		defer func() {
			if e := recover(); e != nil {
				scanErr = fmt.Errorf("%w: reading %s: %v", load.ErrDamaged, sc.Table, e)
			}
		}()
		bt := &nvtxBatcher{newBatch: newBatch, send: func(b *nvtxBatch) { full <- b }, cur: newBatch(), keep: keep}
		defer bt.flush()
		if nvtxFastPath {
			if scanErr = scanSQLiteNVTX(sc, bt); scanErr != errNoFastPath {
				return
			}
		}
		scanErr = scanGenericNVTX(sc, bt)
	}()
	for b := range full {
		if sc.Ctx.Err() != nil {
			continue // drain without building
		}
		fn(b)
		select {
		case free <- b:
		default:
		}
	}
	if err := sc.Ctx.Err(); err != nil && scanErr == nil { // batches were dropped
		return err
	}
	return scanErr
}

// scanGenericNVTX feeds every row to bt through the generic table Scanner.
// That Scanner cannot be stopped: once sc.Ctx is cancelled (it is checked at the
// first row and every 65536), the rows left are skipped.
func scanGenericNVTX(sc *Scanner, bt *nvtxBatcher) error {
	n, stop, f := 0, false, new(model.Fields)
	return sc.Run(func(rowid int64, v RowVals) {
		if n++; n&0xFFFF == 1 && !stop {
			stop = sc.Ctx.Err() != nil
		}
		if stop {
			return
		}
		for k, p := range v.Pos {
			if p < 0 {
				f.Set(k, model.RecValue{})
			} else {
				f.Set(k, v.V[p])
			}
		}
		_ = bt.add(rowid, f)
	})
}

// loadNVTX scans NVTX_EVENTS once and returns the selected ranges.
func loadNVTX(c *Ctx, sel nvtxSel) (*nvtxData, error) {
	sc, err := c.FilteredScanner(tNVTX, sel.raw, nvtxScanCols(c.P)...)
	if err != nil {
		return nil, err
	}
	b := &nvtxBuilder{c: c, sel: sel, d: &nvtxData{}, domRows: map[nvGroupKey]*nvDomRow{},
		dkeys: map[nvDomKey]int32{}, byTextID: map[int64]int32{}, lastDK: nvDomKey{-1, -1}}
	if err := scanNVTXTypes(sc, sel.keepType, func(batch *nvtxBatch) {
		if batch.hint > 0 && b.d.start == nil {
			b.reserve(batch.hint)
		}
		if g := batch.gated; g != nil {
			d := b.d
			d.maxAll, d.maxPP, d.maxSE = d.maxAll.merge(g[0]), d.maxPP.merge(g[1]), d.maxSE.merge(g[2])
		}
		if batch.maxLater != nil {
			b.d.maxLater = batch.maxLater
		}
		b.addRows(batch.rows)
	}); err != nil {
		return nil, err
	}
	b.finish()
	if b.d.maxLater != nil && slices.ContainsFunc(b.d.flags, func(fl uint8) bool { return fl&nvOpen != 0 }) {
		if err := b.d.maxima(); err != nil {
			return nil, err
		}
	}
	return b.d, nil
}

// keepType reports whether the builder keeps more of a row of event type
// typ than its maxima: the selected ranges and the domain creations.
func (sel nvtxSel) keepType(typ int64) bool {
	switch typ {
	case nvtxPushPop, nvtxTPushPop:
		return sel.pushPop
	case nvtxStartEnd, nvtxTStartEnd:
		return sel.startEnd
	}
	return typ == nvtxDomainCreate
}
