package stats

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// fixture returns the path of the unpacked profile testdata/profiles/<name>.sqlite.gz
// (testutil.Profile).
func fixture(t testing.TB, name string) string { return testutil.Profile(t, name) }

// TestMain removes the unpacked fixtures after the tests.
func TestMain(m *testing.M) { testutil.Main(m) }

// Open opens an export as nsysx.Open does (the facade imports this
// package: its tests open through the loaders).
func Open(path string) (*model.Profile, error) {
	return load.OpenProfile(context.Background(), path, load.Options{})
}

// The report package's names the tests use.
var (
	WithCores       = report.WithCores
	ParseTimeFilter = report.ParseTimeFilter
)
