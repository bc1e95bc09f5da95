package load

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// arrow-go trusts the vector lengths inside an Arrow schema (a flatbuffer):
// a damaged file can make it allocate gigabytes for "fields" that are not
// there and the process dies of it, which no recover catches. These checks
// walk the schema first and bound every vector that arrow-go allocates by
// the bytes actually present.

var errCorruptSchema = errors.New("corrupt Arrow schema")

// maxSchemaDepth bounds the nesting of fields (struct of list of ...).
const maxSchemaDepth = 64

var le = binary.LittleEndian

// fbTable is a validated flatbuffer table: its vtable lies inside the buffer.
type fbTable struct {
	b            []byte
	pos, vt, vtn int
}

func fbTableAt(b []byte, pos int) (fbTable, error) {
	if pos < 0 || pos+4 > len(b) {
		return fbTable{}, errCorruptSchema
	}
	vt := pos - int(int32(le.Uint32(b[pos:])))
	if vt < 0 || vt+4 > len(b) {
		return fbTable{}, errCorruptSchema
	}
	vtn := int(le.Uint16(b[vt:]))
	if vtn < 4 || vt+vtn > len(b) {
		return fbTable{}, errCorruptSchema
	}
	return fbTable{b: b, pos: pos, vt: vt, vtn: vtn}, nil
}

// field returns where the value of a slot is, or 0 when the slot is absent.
func (t fbTable) field(slot int) int {
	vo := 4 + 2*slot
	if vo+2 > t.vtn {
		return 0
	}
	o := int(le.Uint16(t.b[t.vt+vo:]))
	if o == 0 {
		return 0
	}
	return t.pos + o
}

// ref follows the offset stored at p.
func (t fbTable) ref(p int) (int, error) {
	if p < 0 || p+4 > len(t.b) {
		return 0, errCorruptSchema
	}
	return p + int(le.Uint32(t.b[p:])), nil
}

// table returns the table a slot refers to; ok is false when absent.
func (t fbTable) table(slot int) (fbTable, bool, error) {
	p := t.field(slot)
	if p == 0 {
		return fbTable{}, false, nil
	}
	at, err := t.ref(p)
	if err != nil {
		return fbTable{}, false, err
	}
	c, err := fbTableAt(t.b, at)
	return c, err == nil, err
}

// vector returns the start and length of the vector in a slot, checking
// that its n elements of size bytes fit in the buffer.
func (t fbTable) vector(slot, size int) (start, n int, err error) {
	p := t.field(slot)
	if p == 0 {
		return 0, 0, nil
	}
	at, err := t.ref(p)
	if err != nil || at+4 > len(t.b) {
		return 0, 0, errCorruptSchema
	}
	n = int(le.Uint32(t.b[at:]))
	start = at + 4
	if int64(start)+int64(n)*int64(size) > int64(len(t.b)) {
		return 0, 0, errCorruptSchema
	}
	return start, n, nil
}

// tables validates each table of a vector of tables with check.
func (t fbTable) tables(slot int, check func(fbTable) error) error {
	start, n, err := t.vector(slot, 4)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		at, err := t.ref(start + 4*i)
		if err != nil {
			return err
		}
		c, err := fbTableAt(t.b, at)
		if err != nil {
			return err
		}
		if err := check(c); err != nil {
			return err
		}
	}
	return nil
}

// checkSchema validates a Schema table: fields (slot 1), custom_metadata (2).
func checkSchema(t fbTable) error {
	if _, _, err := t.vector(2, 4); err != nil {
		return err
	}
	return t.tables(1, func(f fbTable) error { return checkField(f, 1) })
}

// checkField validates a Field: type_type (slot 2) and type (3) for union
// type ids, children (5), custom_metadata (6).
func checkField(t fbTable, depth int) error {
	if depth > maxSchemaDepth {
		return errCorruptSchema
	}
	if _, _, err := t.vector(6, 4); err != nil {
		return err
	}
	if p := t.field(2); p != 0 && p < len(t.b) && t.b[p] == 14 { // Type.Union
		u, ok, err := t.table(3)
		if err != nil {
			return err
		}
		if ok {
			if _, _, err := u.vector(1, 4); err != nil { // typeIds
				return err
			}
		}
	}
	return t.tables(5, func(c fbTable) error { return checkField(c, depth+1) })
}

// checkRoot validates the root table of a flatbuffer with check.
func checkRoot(b []byte, check func(fbTable) error) error {
	if len(b) < 4 {
		return errCorruptSchema
	}
	t, err := fbTableAt(b, int(le.Uint32(b)))
	if err != nil {
		return err
	}
	return check(t)
}

// checkMessage validates an encapsulated IPC message (continuation marker,
// length, flatbuffer Message) read from r at off; a schema message's schema
// is checked in full.
func checkMessage(r io.ReaderAt, off, size int64) error {
	var head [8]byte
	if _, err := r.ReadAt(head[:], off); err != nil {
		return errCorruptSchema
	}
	n, skip := int64(le.Uint32(head[:])), int64(4)
	if n == 0xFFFFFFFF {
		n, skip = int64(le.Uint32(head[4:])), 8
	}
	if n < 4 || off+skip+n > size {
		return errCorruptSchema
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, off+skip); err != nil {
		return errCorruptSchema
	}
	return checkRoot(b, func(m fbTable) error {
		if _, _, err := m.vector(4, 4); err != nil {
			return err
		}
		if p := m.field(1); p == 0 || p >= len(b) || b[p] != 1 { // MessageHeader.Schema
			return nil
		}
		s, ok, err := m.table(2)
		if err != nil || !ok {
			return err
		}
		return checkSchema(s)
	})
}

// checkIPCFile validates the footer of an Arrow IPC file: its schema and the
// lengths of its block vectors (24-byte structs).
func checkIPCFile(r io.ReaderAt, size int64) error {
	var tail [10]byte
	if size < int64(len(tail))+8 {
		return errCorruptSchema
	}
	if _, err := r.ReadAt(tail[:], size-10); err != nil {
		return errCorruptSchema
	}
	n := int64(int32(le.Uint32(tail[:])))
	if n < 4 || n > size-10-8 {
		return errCorruptSchema
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, size-10-n); err != nil {
		return errCorruptSchema
	}
	return checkRoot(b, func(f fbTable) error {
		for _, slot := range []int{2, 3} {
			if _, _, err := f.vector(slot, 24); err != nil {
				return err
			}
		}
		s, ok, err := f.table(1)
		if err != nil || !ok {
			return err
		}
		return checkSchema(s)
	})
}

// checkStoredSchema validates the Arrow schema that Parquet writers keep,
// base64-encoded, under the key "ARROW:schema".
func checkStoredSchema(encoded string) error {
	b, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(b) == 0 {
		if b, err = base64.RawStdEncoding.DecodeString(encoded); err != nil {
			return fmt.Errorf("stored Arrow schema: %w", err)
		}
	}
	return checkMessage(bytesReaderAt(b), 0, int64(len(b)))
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
