package timeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// exportFile writes the Perfetto trace of the file at path into dir.
func exportFile(t *testing.T, path, dir string) error {
	t.Helper()
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, _, err = ExportPerfetto(context.Background(), p, filepath.Join(dir, "trace"), false, nil)
	return err
}

// An auxiliary table that exists but cannot be read fails the export with
// an error naming it (it gave "Process (658)" and unnamed GPUs); one
// without names (StringIds dropped or empty) is SKIPPED with the reason.
func TestPerfettoAuxTables(t *testing.T) {
	dir := t.TempDir()
	for _, table := range []string{"PROCESSES", "TARGET_INFO_GPU", "ThreadNames", "ENUM_CUDA_MEMCPY_OPER"} {
		path, page := sqlitecopy.DamageTable(t, "sync", dir, table+".sqlite", table)
		if err := exportFile(t, path, dir); err == nil || !strings.Contains(err.Error(), table) {
			t.Errorf("%s (root page %d) unreadable: want an error naming it, got %v", table, page, err)
		}
	}
	for i, c := range []struct{ stmt, want string }{
		{"DROP TABLE StringIds", "file does not contain StringIds table."},
		{"DELETE FROM StringIds", "file has an empty StringIds table"},
	} {
		path := sqlitecopy.Profile(t, "sync", dir, fmt.Sprintf("names%d.sqlite", i), c.stmt)
		err := exportFile(t, path, dir)
		var skip *nsysx.SkipError
		if !errors.As(err, &skip) || !strings.Contains(skip.Msg, c.want) {
			t.Errorf("%s: want SKIPPED %q, got %v", c.stmt, c.want, err)
		}
	}
}
