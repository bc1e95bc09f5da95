package nsysx

import (
	_ "embed"
	"fmt"

	"github.com/nsysx/nsysx/nsysx/load"
)

// The sample is the `sync` profile of the test data: sync.cu (synchronous
// copies, memsets, unified memory, three streams, a 700 ms host stall and an
// NVTX range in a named domain) captured on an H200 with Nsight Systems 2025.3.1.
//
// It is stored uncompressed: the reader then touches only the pages a report
// needs, straight from the binary, where decompressing it took most of a
// one-report run's time.
//
//go:embed sampledata/sync.sqlite
var sampleDB []byte

// SampleName is the Path of the profile OpenSample returns.
const SampleName = "sample:sync.sqlite"

// OpenSample opens the small real profile built into nsysx, so that every
// command and notebook can be tried with no file at hand.
func OpenSample() (*Profile, error) {
	src, err := load.SQLiteFromBytes(sampleDB)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	return newProfile(SampleName, "sqlite", src)
}
