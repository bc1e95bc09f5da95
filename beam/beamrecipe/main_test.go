package beamrecipe

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// memChildEnv makes the test binary a memory probe (see memory_test.go):
// it runs cuda_gpu_kern_sum over that many copies of rank0 named in
// memChildDir, then prints its peak RSS.
const (
	memChildEnv = "NSYSX_BEAM_MEM_CHILD"
	memChildDir = "NSYSX_BEAM_MEM_DIR"
)

func TestMain(m *testing.M) {
	flag.Parse()
	log.LogLevel = "error" // before beam.Init: Prism logs each step at info
	beam.Init()
	if n := os.Getenv(memChildEnv); n != "" {
		os.Exit(memChild(n, os.Getenv(memChildDir)))
	}
	testutil.MainTemp(m) // the unpacked profiles and Beam's own temporary files removed at the end
}

// memChild runs one pipeline over the n copies in dir and prints VmHWM.
func memChild(n, dir string) int {
	r, _ := recipe.Lookup("cuda_gpu_kern_sum")
	o, err := recipe.ParseArgsWith(r, []string{"--input", dir, "--output", filepath.Join(dir, "out-"+n)}, ExpandInputs)
	if err == nil && strconv.Itoa(len(o.Input)) != n {
		err = fmt.Errorf("%d inputs, want %s", len(o.Input), n)
	}
	if err == nil {
		var out *Outcome
		out, err = Run(context.Background(), r, o, "")
		if err == nil && out.Dir == "" {
			err = fmt.Errorf("no output: %+v", out)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hwm, err := peakRSS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("VmHWM %d\n", hwm)
	return 0
}
