//go:build unix

package sqlite

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only, or reads it when it cannot be mapped;
// mapped says which.
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, mapped bool, err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		data, unmap, err = readAll(f, size)
		return data, unmap, false, err
	}
	return data, func() error { return syscall.Munmap(data) }, true, nil
}

func readAll(f *os.File, size int64) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
