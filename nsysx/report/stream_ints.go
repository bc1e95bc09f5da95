package report

import (
	"context"
	"math/bits"
	"strconv"

	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
)

// ScanInts streams the columns cols of table, each of them INTEGER in the
// schema (an Int column once loaded), from a SQLite export, in rowid order
// and without loading them: fn gets each row's values as Load gives them
// (v[i], 0 for NULL; a REAL truncated, a BLOB 0, a TEXT parsed or NULL when
// it is not an integer) and its NULL bits (bit i for column i). v is reused
// from row to row. The leaf pages are released from memory as the scan
// leaves them. ok is false, and nothing is read, when the scan does not
// apply: the profile is not a SQLite export, it lacks the table or one of
// the columns, a column is not INTEGER, or there are more than 32 columns.
// fn's error stops the scan and is returned, as is ctx's.
func ScanInts(ctx context.Context, p *model.Profile, table string, cols []string, fn func(v []int64, null uint32) error) (ok bool, err error) {
	if ctx == nil {
		return false, ErrNilContext
	}
	ts := p.Schema(table)
	if ts == nil || len(cols) > model.MaxFields {
		return false, nil
	}
	for _, col := range cols {
		isInt := false
		for j, name := range ts.Columns {
			if lower(name) == lower(col) {
				isInt = ts.Types[j] == Int
			}
		}
		if !isInt {
			return false, nil
		}
	}
	d, isSQLite := DirectOf(p, ts.Name, load.ReleaseEvery)
	if !isSQLite || !d.Has {
		return false, nil
	}
	if parts := coresOf(ctx, 1); parts > 1 {
		return true, scanIntsParts(ctx, d, cols, parts, fn)
	}
	v := make([]int64, len(cols))
	return true, d.Run(ctx, cols, func(_ int64, f *model.Fields) error {
		return fn(v, intFields(f, v))
	})
}

// intFields sets v to the fields of f as Load gives them and returns their
// NULL bits.
func intFields(f *model.Fields, v []int64) uint32 {
	copy(v, f.I[:len(v)]) // 0 for NULL and BLOB, REAL truncated
	null := f.Null
	for t := f.Text; t != 0; t &= t - 1 {
		k := bits.TrailingZeros32(t)
		if n, err := strconv.ParseInt(string(f.B[k]), 10, 64); err == nil {
			v[k] = n
		} else {
			null |= 1 << k
		}
	}
	return null
}

// scanIntsParts is ScanInts over up to parts ranges of the table at once
// (spare cores, WithCores): the first range's rows go to fn as they are
// read, the later ranges' are kept (their values and NULL bits) and given
// to fn after it, range by range, so that fn sees every row in rowid order,
// one call at a time.
func scanIntsParts(ctx context.Context, d DirectScan, cols []string, parts int, fn func(v []int64, null uint32) error) error {
	// a range's row and kept rows, written for every row: padded to cache
	// lines of their own (see partRow)
	type kept struct {
		_    [64]byte
		v    [model.MaxFields]int64
		rows intRows
		_    [64]byte
	}
	var later []*kept
	n := len(cols)
	d.Pread = true // the values are copied (intFields): no page of the file need stay valid
	_, err := d.RunParts(ctx, cols, parts, func(i int) func(int64, *model.Fields) error {
		k := &kept{}
		v := k.v[:n]
		if i == 0 {
			return func(_ int64, f *model.Fields) error { return fn(v, intFields(f, v)) }
		}
		later = append(later, k)
		return func(_ int64, f *model.Fields) error {
			k.rows.add(v, intFields(f, v))
			return nil
		}
	})
	if err != nil {
		return err
	}
	for _, k := range later {
		if err := k.rows.each(n, fn); err != nil {
			return err
		}
	}
	return nil
}

// intRows are the rows a later range of scanIntsParts keeps, in blocks
// twice as long as the one before, up to intBlock rows: a slice grown by
// append would copy the rows kept so far at each doubling, into fresh
// memory (a tenth of cuda_gpu_time_util_map's CPU time on the GPU machine,
// most of it page faults).
type intRows struct {
	vals  [][]int64
	nulls [][]uint32
}

// intBlock is the most rows of a block of intRows (a variable for the
// tests); the first holds 256.
var intBlock = 16384

// add keeps a row's values v and NULL bits.
func (k *intRows) add(v []int64, null uint32) {
	last := len(k.nulls) - 1
	if last < 0 || len(k.nulls[last]) == cap(k.nulls[last]) {
		n := min(intBlock, 256)
		if last >= 0 {
			n = min(intBlock, 2*cap(k.nulls[last]))
		}
		k.nulls = append(k.nulls, make([]uint32, 0, n))
		k.vals = append(k.vals, make([]int64, 0, n*len(v)))
		last++
	}
	k.nulls[last] = append(k.nulls[last], null)
	k.vals[last] = append(k.vals[last], v...)
}

// each calls fn with every row kept, in order (n values a row).
func (k *intRows) each(n int, fn func(v []int64, null uint32) error) error {
	for b, nulls := range k.nulls {
		vals := k.vals[b]
		for r, null := range nulls {
			if err := fn(vals[r*n:(r+1)*n:(r+1)*n], null); err != nil {
				return err
			}
		}
	}
	return nil
}
