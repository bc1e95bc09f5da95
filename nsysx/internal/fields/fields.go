// Package fields holds the types of one decoded export record: a row's
// fields as a streaming scan produces them (Fields) and one field as a
// value (Value). The SQLite page reader fills them; the model and the
// reports read them. It imports nothing of the library.
package fields

// Type is the storage class of a decoded value.
type Type uint8

// Storage classes, as in SQLite.
const (
	Null Type = iota
	Integer
	Float
	Text
	Blob
)

// Value is one decoded field. For Text and Blob, B aliases the file mapping
// and is only valid during the row callback: copy it to keep it.
type Value struct {
	Type Type
	I    int64
	F    float64
	B    []byte
}

// MaxFields is the most columns a Fields holds.
const MaxFields = 32

// Fields is one row as a scan decodes it: bit k of the masks and index k
// of the arrays are the k-th column asked for. It is reused between rows.
type Fields struct {
	Null uint32 // NULL (or past the end of the record)
	Text uint32 // TEXT, its bytes in B
	Blob uint32 // BLOB, its bytes in B
	Real uint32 // REAL, its value in F

	// I holds INTEGER values and REAL ones truncated toward zero (Go's
	// int64 conversion); it is 0 for the other classes.
	I [MaxFields]int64
	// F holds REAL values; it is only set for a column whose Real bit is.
	F [MaxFields]float64
	// B holds TEXT and BLOB bytes; it is only set for a column whose Text or
	// Blob bit is. They alias the file or a scratch buffer: copy to keep.
	B [MaxFields][]byte
	// Gated is set when ScanOptions.Gate refused the row: the fields of
	// the table's columns after the gated one's are NULL, not decoded.
	Gated bool
}

// Set stores v as field k.
func (f *Fields) Set(k int, v Value) {
	bit := uint32(1) << k
	f.Null, f.Text, f.Blob, f.Real = f.Null&^bit, f.Text&^bit, f.Blob&^bit, f.Real&^bit
	f.I[k] = 0
	switch v.Type {
	case Null:
		f.Null |= bit
	case Integer:
		f.I[k] = v.I
	case Float:
		f.I[k], f.F[k], f.Real = int64(v.F), v.F, f.Real|bit
	case Text:
		f.B[k], f.Text = v.B, f.Text|bit
	case Blob:
		f.B[k], f.Blob = v.B, f.Blob|bit
	}
}
