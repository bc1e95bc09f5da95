package analyze

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/load"
	"github.com/nsysx/nsysx/nsysx/model"
	"github.com/nsysx/nsysx/nsysx/report"
)

// TestMain removes the unpacked fixtures after the tests.
func TestMain(m *testing.M) { testutil.Main(m) }

// Open opens an export as nsysx.Open does (the facade imports this
// package, so its tests open through the loaders).
func Open(path string) (*model.Profile, error) {
	src, format, err := load.Open(context.Background(), path, load.Options{})
	if err != nil {
		return nil, err
	}
	return model.NewProfile(path, format, src)
}

// The report package's names the tests use.
var (
	WithCores       = report.WithCores
	ParseTimeFilter = report.ParseTimeFilter
	ParseNVTXFilter = report.ParseNVTXFilter
)
