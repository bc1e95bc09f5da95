package main

import (
	"fmt"
	"io"
)

func runKernel(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "nsysx kernel: not built yet")
	return 1
}
