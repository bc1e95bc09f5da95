package nsysx

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// The sample is the `sync` profile of the test data: sync.cu (synchronous
// copies, memsets, unified memory, three streams, a 700 ms host stall and an
// NVTX range in a named domain) captured on an H200 with Nsight Systems 2025.3.1.
//
//go:embed sampledata/sync.sqlite.gz
var sampleGz []byte

// SampleName is the Path of the profile OpenSample returns.
const SampleName = "sample:sync.sqlite"

// OpenSample opens the small real profile built into nsysx, so that every
// command and notebook can be tried with no file at hand.
func OpenSample() (*Profile, error) {
	z, err := gzip.NewReader(bytes.NewReader(sampleGz))
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	db, err := sqlite.FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	return newProfile(SampleName, "sqlite", newSQLiteSource(db))
}
