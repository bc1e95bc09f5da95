package testutil

import (
	"encoding/csv"
	"strings"
	"testing"
)

// GoldenCSV reads the CSV golden testdata/golden/<profile>/<name> (see
// Golden), header first; a missing golden or bad CSV is fatal, an empty
// golden (nsys wrote nothing) gives no records.
func GoldenCSV(t testing.TB, profile, name string) [][]string {
	t.Helper()
	text, ok := Golden(t, profile, name)
	if !ok {
		t.Fatalf("no golden %s/%s", profile, name)
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatalf("golden %s/%s: %v", profile, name, err)
	}
	return recs
}
