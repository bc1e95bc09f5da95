package parquetio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"slices"
)

// The footer's page encoding statistics. Each column chunk's metadata
// lists, per page type, how many pages of each encoding it holds; pyarrow
// (Arrow C++) writes them from ordered maps, by page type (dictionary then
// data) and encoding, while arrow-go writes them from Go maps, in random
// order: a chunk whose dictionary overflowed (data pages in RLE_DICTIONARY
// then PLAIN) came out either way from one run to the next. footerWriter
// holds the footer back and sorts every such list by encoding within its
// page type, so the file is pyarrow's and the same every time. Reordering
// whole elements of a Thrift compact list keeps the footer's length, so
// nothing else in the file moves.

// footerWriter passes writes through until hold is set, then keeps them for
// finish (the footer, the last thing the Parquet writer writes).
type footerWriter struct {
	w    io.Writer
	hold bool
	tail bytes.Buffer
}

func (f *footerWriter) Write(p []byte) (int, error) {
	if f.hold {
		return f.tail.Write(p)
	}
	return f.w.Write(p)
}

// finish sorts the encoding statistics of the held footer (metadata, its
// length and "PAR1") and writes it.
func (f *footerWriter) finish() error {
	b := f.tail.Bytes()
	if n := len(b); n >= 8 && string(b[n-4:]) == "PAR1" {
		if m := int(binary.LittleEndian.Uint32(b[n-8:])); m <= n-8 {
			if err := sortEncodingStats(b[n-8-m : n-8]); err != nil {
				return err
			}
		}
	}
	_, err := f.w.Write(b)
	return err
}

// Thrift compact protocol types.
const (
	tBoolTrue, tBoolFalse, tByte, tI16, tI32, tI64, tDouble, tBinary = 1, 2, 3, 4, 5, 6, 7, 8
	tList, tSet, tMap, tStruct, tUUID                                = 9, 10, 11, 12, 13
)

var errThrift = errors.New("parquet footer: malformed Thrift metadata")

// thriftReader walks Thrift compact bytes.
type thriftReader struct {
	b   []byte
	pos int
}

func (r *thriftReader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errThrift
	}
	r.pos++
	return r.b[r.pos-1], nil
}

func (r *thriftReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[min(r.pos, len(r.b)):])
	if n <= 0 {
		return 0, errThrift
	}
	r.pos += n
	return v, nil
}

// field reads a field header: its id and type (type 0: the struct's end).
func (r *thriftReader) field(last int) (id int, typ byte, err error) {
	h, err := r.byte()
	if err != nil || h == 0 {
		return 0, 0, err
	}
	typ = h & 0x0f
	if d := int(h >> 4); d != 0 {
		return last + d, typ, nil
	}
	v, err := r.uvarint()
	return int(int64(v>>1) ^ -int64(v&1)), typ, err
}

// list reads a list or set header: its size and element type.
func (r *thriftReader) list() (n int, typ byte, err error) {
	h, err := r.byte()
	if err != nil {
		return 0, 0, err
	}
	n, typ = int(h>>4), h&0x0f
	if n == 15 {
		v, err := r.uvarint()
		if err != nil || v > uint64(len(r.b)) {
			return 0, 0, errThrift
		}
		n = int(v)
	}
	return n, typ, nil
}

// skip passes over a value of type typ.
func (r *thriftReader) skip(typ byte) error {
	var err error
	switch typ {
	case tBoolTrue, tBoolFalse, tByte:
		_, err = r.byte()
	case tI16, tI32, tI64:
		_, err = r.uvarint()
	case tDouble, tUUID:
		r.pos += map[byte]int{tDouble: 8, tUUID: 16}[typ]
	case tBinary:
		var n uint64
		if n, err = r.uvarint(); err == nil {
			r.pos += int(n)
		}
	case tList, tSet:
		err = r.skipList()
	case tMap:
		err = r.skipMap()
	case tStruct:
		err = r.structFields(func(int, byte) (bool, error) { return false, nil })
	default:
		err = errThrift
	}
	if err == nil && r.pos > len(r.b) {
		err = errThrift
	}
	return err
}

func (r *thriftReader) skipList() error {
	n, typ, err := r.list()
	for ; err == nil && n > 0; n-- {
		err = r.skip(typ)
	}
	return err
}

func (r *thriftReader) skipMap() error {
	n, err := r.uvarint()
	if err != nil || n == 0 {
		return err
	}
	kv, err := r.byte()
	for ; err == nil && n > 0; n-- {
		if err = r.skip(kv >> 4); err == nil {
			err = r.skip(kv & 0x0f)
		}
	}
	return err
}

// structFields reads a struct's fields, handing each to visit, which
// returns true when it read the value itself; the others are skipped.
func (r *thriftReader) structFields(visit func(id int, typ byte) (bool, error)) error {
	last := 0
	for {
		id, typ, err := r.field(last)
		if err != nil || typ == 0 {
			return err
		}
		last = id
		if typ == tBoolTrue || typ == tBoolFalse {
			continue // a bool field's value is its type
		}
		done, err := visit(id, typ)
		if err == nil && !done {
			err = r.skip(typ)
		}
		if err != nil {
			return err
		}
	}
}

// structList reads a list of structs, calling each for every element.
func (r *thriftReader) structList(each func() error) error {
	n, typ, err := r.list()
	if err == nil && typ != tStruct {
		return errThrift
	}
	for ; err == nil && n > 0; n-- {
		err = each()
	}
	return err
}

// sortEncodingStats sorts, in place, the encoding_stats (field 13) of every
// column chunk's meta_data (ColumnChunk field 3) of every row group
// (FileMetaData field 4, RowGroup field 1) of the metadata md.
func sortEncodingStats(md []byte) error {
	r := &thriftReader{b: md}
	return r.structFields(func(id int, typ byte) (bool, error) {
		if id != 4 || typ != tList {
			return false, nil
		}
		return true, r.structList(func() error {
			return r.structFields(func(id int, typ byte) (bool, error) {
				if id != 1 || typ != tList {
					return false, nil
				}
				return true, r.structList(r.chunkStats)
			})
		})
	})
}

// chunkStats reads a ColumnChunk, sorting its meta_data's encoding_stats.
func (r *thriftReader) chunkStats() error {
	return r.structFields(func(id int, typ byte) (bool, error) {
		if id != 3 || typ != tStruct {
			return false, nil
		}
		return true, r.structFields(func(id int, typ byte) (bool, error) {
			if id != 13 || typ != tList {
				return false, nil
			}
			return true, r.sortStatsList()
		})
	})
}

// pageStats is one PageEncodingStats element: its bytes and sort key.
type pageStats struct {
	raw                []byte
	pageType, encoding int64
}

// sortStatsList reads a list of PageEncodingStats and rewrites it with the
// entries of each page type ordered by encoding, the page types' runs
// left where they are.
func (r *thriftReader) sortStatsList() error {
	var els []pageStats
	err := r.structList(func() error {
		e := pageStats{}
		start := r.pos
		err := r.structFields(func(id int, typ byte) (bool, error) {
			if (id != 1 && id != 2) || typ != tI32 {
				return false, nil
			}
			v, err := r.uvarint()
			if id == 1 {
				e.pageType = int64(v>>1) ^ -int64(v&1)
			} else {
				e.encoding = int64(v>>1) ^ -int64(v&1)
			}
			return true, err
		})
		e.raw = r.b[start:r.pos]
		els = append(els, e)
		return err
	})
	if err != nil || len(els) < 2 {
		return err
	}
	start := r.pos - sumLen(els)
	sorted := slices.Clone(els)
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].pageType == sorted[i].pageType {
			j++
		}
		slices.SortStableFunc(sorted[i:j], func(a, b pageStats) int { return int(a.encoding - b.encoding) })
		i = j
	}
	var out []byte
	for _, e := range sorted {
		out = append(out, e.raw...)
	}
	copy(r.b[start:r.pos], out)
	return nil
}

// sumLen is the bytes of the elements.
func sumLen(els []pageStats) int {
	n := 0
	for _, e := range els {
		n += len(e.raw)
	}
	return n
}
