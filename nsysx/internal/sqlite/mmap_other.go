//go:build !unix

package sqlite

import "os"

// mapFile reads a file into memory (mapped is always false here).
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, mapped bool, err error) {
	data = make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, nil, false, err
	}
	return data, func() error { return nil }, false, nil
}
