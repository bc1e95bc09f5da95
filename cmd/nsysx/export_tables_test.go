package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// `export -t parquet|arrow` says what it wrote, as pprof and perfetto do:
// the directory and its number of tables (counted here from the directory),
// on stderr; -q keeps it quiet.
func TestExportTablesSaysWhatItWrote(t *testing.T) {
	in := testutil.Profile(t, "sync")
	for _, typ := range []string{"parquet", "arrow"} {
		out := filepath.Join(t.TempDir(), "tables")
		stdout, stderr, code := runCLI(t, "export", "-t", typ, "--tables", "KERNEL|RUNTIME|StringIds", "-o", out, in)
		ents, err := os.ReadDir(out)
		if code != 0 || err != nil || len(ents) < 3 {
			t.Fatalf("%s: exit %d, stderr %q, %d files (%v)", typ, code, stderr, len(ents), err)
		}
		if want := fmt.Sprintf("wrote %s: %d tables (.%s, ", out, len(ents), typ); !strings.Contains(stderr, want) || stdout != "" {
			t.Errorf("%s: stdout %q, stderr %q; want %q on stderr", typ, stdout, stderr, want)
		}
		if _, stderr, _ := runCLI(t, "export", "-q", "-t", typ, "-o", filepath.Join(t.TempDir(), "q"), in); stderr != "" {
			t.Errorf("%s -q: stderr %q", typ, stderr)
		}
	}
}
