//go:build linux

package sqlite

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// mappedRSS is the resident kilobytes of the mapping that starts at data,
// from /proc/self/smaps.
func mappedRSS(t *testing.T, data []byte) int {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	sc := bufio.NewScanner(f)
	for in := false; sc.Scan(); {
		l := sc.Text()
		if strings.HasPrefix(l, start) {
			in = true
		} else if in && strings.HasPrefix(l, "Rss:") {
			var kb int
			if _, err := fmt.Sscanf(strings.TrimPrefix(l, "Rss:"), "%d", &kb); err != nil {
				t.Fatal(l, err)
			}
			return kb
		}
	}
	t.Fatal("mapping not in /proc/self/smaps")
	return 0
}

// TestReleaseInterleaved scans two tables of a real export, whose leaf
// pages lie among other tables' (the KERNEL table's 106 in 56 runs over
// the 5.6 MB file), releasing behind: what stays mapped must be far less
// than what a scan without release leaves (the pages a fault maps around
// each leaf, 4.8 MB when only the leaves were released).
func TestReleaseInterleaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "train.sqlite")
	gunzipTo(t, filepath.Join("..", "..", "..", "testdata", "profiles", "train.sqlite.gz"), path)
	rss := map[bool]int{}
	for _, release := range []bool{false, true} {
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"} {
			tb := db.Table(name)
			opt := ScanOptions{Release: release, ReleaseEvery: 1 << 20}
			if err := db.ScanFields(tb, []string{"start", "end"}, opt, func(int64, *Fields) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
		rss[release] = mappedRSS(t, db.data)
		db.Close()
	}
	if rss[false] < 3000 || rss[true] > 1024 {
		t.Errorf("resident after the scans: %d KB without release, %d KB with; want >= 3000 and <= 1024", rss[false], rss[true])
	}
}

// TestReleaseEveryMapped checks that ReleaseEvery bounds what a scan keeps
// mapped, not the leaves it reads: releasing every 256 KB of the mapping,
// the CUDA runtime table's scan (105 leaves in 104 runs, among other
// tables' pages) never has more than the schema's pages and a few blocks
// resident; counting leaves (64 a window) it reached 3 MB more.
func TestReleaseEveryMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "train.sqlite")
	gunzipTo(t, filepath.Join("..", "..", "..", "testdata", "profiles", "train.sqlite.gz"), path)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	base, peak, rows := mappedRSS(t, db.data), 0, 0
	opt := ScanOptions{Release: true, ReleaseEvery: 256 << 10}
	err = db.ScanFields(db.Table("CUPTI_ACTIVITY_KIND_RUNTIME"), []string{"start"}, opt, func(int64, *Fields) error {
		if rows++; rows%100 == 0 {
			peak = max(peak, mappedRSS(t, db.data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows != 12084 || peak > base+1024 {
		t.Errorf("%d rows, resident at most %d KB during the scan (%d KB before); want < %d", rows, peak, base, base+1024)
	}
}

func gunzipTo(t *testing.T, gz, path string) {
	in, err := os.Open(gz)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	z, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, z); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
