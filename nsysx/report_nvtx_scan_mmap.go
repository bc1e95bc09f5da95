//go:build linux

package nsysx

import (
	"os"
	"syscall"
)

// mapReadOnly maps a whole file read-only. release drops the pages read so
// far from the process's resident set (they stay in the page cache); unmap
// releases the mapping.
func mapReadOnly(f *os.File) (data []byte, release func(), unmap func() error, err error) {
	st, err := f.Stat()
	if err != nil || st.Size() < 100 || st.Size() != int64(int(st.Size())) {
		return nil, nil, nil, errNoFastPath
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, err
	}
	release = func() { _ = syscall.Madvise(data, syscall.MADV_DONTNEED) }
	return data, release, func() error { return syscall.Munmap(data) }, nil
}
