package nsysx_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// walView is what a profile reads of StringIds and the kernels, in the
// format of testdata/fixtures/wal_edge.expected.txt.
func walView(t *testing.T, path string) string {
	t.Helper()
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var b strings.Builder
	s, err := p.Load(context.Background(), "StringIds", "id", "value")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < s.N; i++ {
		fmt.Fprintf(&b, "StringIds %d %s\n", s.Col("id").Int(i), s.Col("value").Str(i))
	}
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "shortName")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < k.N; i++ {
		fmt.Fprintf(&b, "kernel %d %d %d\n", k.Col("start").Int(i), k.Col("end").Int(i), k.Col("shortName").Int(i))
	}
	return b.String()
}

// A WAL-mode database whose last two transactions are only in its -wal
// file reads as SQLite reads it (make_wal_fixture.py wrote what sqlite3
// saw), without writing the WAL or creating a -shm; the file alone reads
// otherwise, so the WAL is what makes the difference.
func TestWALCommittedFrames(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join("..", "testdata", "fixtures")
	wal, err := os.ReadFile(filepath.Join(fx, "wal_edge.sqlite-wal"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := os.ReadFile(filepath.Join(fx, "wal_edge.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(fx, "wal_edge.expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "w.sqlite")
	os.WriteFile(path, db, 0o444)
	alone := walView(t, path)
	os.WriteFile(path+"-wal", wal, 0o444)
	if got := walView(t, path); got != string(want) {
		t.Errorf("with its WAL:\n%s\nwant (sqlite3):\n%s", got, want)
	}
	if alone == string(want) {
		t.Error("the file alone reads as with its WAL: the fixture tests nothing")
	}
	if _, err := os.Stat(path + "-shm"); err == nil {
		t.Error("a -shm file was created")
	}
	if after, _ := os.ReadFile(path + "-wal"); string(after) != string(wal) {
		t.Error("the WAL file changed")
	}
}
