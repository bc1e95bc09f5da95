package load

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// TestArrowSchemaCheck damages the field count of an IPC schema: arrow-go
// would allocate for two billion fields; the loader must refuse the file.
func TestArrowSchemaCheck(t *testing.T) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if err := checkMessage(bytes.NewReader(data), 0, int64(len(data))); err != nil {
		t.Fatalf("valid schema: %v", err)
	}
	n := int(le.Uint32(data[4:]))
	fb := data[8 : 8+n]
	m, err := fbTableAt(fb, int(le.Uint32(fb)))
	if err != nil {
		t.Fatal(err)
	}
	sc, ok, err := m.table(2)
	if err != nil || !ok {
		t.Fatal("no schema in message", err)
	}
	at, err := sc.ref(sc.field(1))
	if err != nil || le.Uint32(fb[at:]) != 2 {
		t.Fatalf("fields vector: %v", err)
	}
	le.PutUint32(fb[at:], 0x7fffffff)
	if err := checkMessage(bytes.NewReader(data), 0, int64(len(data))); !errors.Is(err, errCorruptSchema) {
		t.Errorf("damaged schema: %v", err)
	}
	path := filepath.Join(t.TempDir(), "bad.arrows")
	os.WriteFile(path, data, 0o644)
	if _, _, err := Open(t.Context(), path, Options{}); err == nil || !strings.Contains(err.Error(), "corrupt Arrow schema") {
		t.Errorf("Open: %v", err)
	}
}
