package recipe

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// NSYSX_TIMES=1 (for developers) prints when each step of a run starts and
// ends, in milliseconds since the package was initialised (about the start
// of the process), on stderr: the opening, mapping and closing of every
// report, the reduce and the writes (described in docs/recipes.md §1.3: to see
// where a run's wall time goes).
var (
	timesOn    = os.Getenv("NSYSX_TIMES") != ""
	timesStart = time.Now()
	timesMu    sync.Mutex
)

// mark prints one step of NSYSX_TIMES.
func mark(format string, args ...any) {
	if !timesOn {
		return
	}
	timesMu.Lock()
	defer timesMu.Unlock()
	fmt.Fprintf(os.Stderr, "nsysx times: %8.1f ms  %s\n", float64(time.Since(timesStart).Microseconds())/1000, fmt.Sprintf(format, args...))
}
