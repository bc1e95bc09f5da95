//go:build !linux

package nsysx

import "os"

// mapReadOnly is unavailable here: the NVTX reports use the generic reader.
func mapReadOnly(f *os.File) ([]byte, func(), func() error, error) {
	return nil, nil, nil, errNoFastPath
}
