package nsysx

import (
	"fmt"
	"strings"
)

// openDir opens a `nsys export -t parquetdir` or `-t arrowdir` directory.
func openDir(path string) (source, string, error) {
	return nil, "", fmt.Errorf("%w: directory holds no Parquet or Arrow tables", ErrNotExport)
}

func isArrowFile(path string) bool {
	l := strings.ToLower(path)
	return strings.HasSuffix(l, ".arrow") || strings.HasSuffix(l, ".arrows")
}

func openArrowFile(path string) (source, string, error) {
	return nil, "", fmt.Errorf("%w: single Arrow files are not supported yet", ErrNotExport)
}
