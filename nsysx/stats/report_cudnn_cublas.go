package stats

import "github.com/nsysx/nsysx/nsysx/events"

// Two reports nsys lacks although its exports hold the data: cuDNN and
// cuBLAS API calls traced with `-t cudnn,cublas` land in CUDNN_EVENTS and
// CUBLAS_EVENTS (start, end, eventClass, globalTid, nameId).

func init() {
	register(&Report{Name: "cudnn_api_sum", Title: "cuDNN API Summary",
		Help: "cuDNN library calls grouped by function: share of cuDNN time, call counts and duration statistics " +
			"(an nsysx report; nsys has none for CUDNN_EVENTS).",
		Run: runLibAPISum(events.TableCUDNNEvents, "cuDNN")})
	register(&Report{Name: "cublas_api_sum", Title: "cuBLAS API Summary",
		Help: "cuBLAS library calls grouped by function: share of cuBLAS time, call counts and duration statistics " +
			"(an nsysx report; nsys has none for CUBLAS_EVENTS).",
		Run: runLibAPISum(events.TableCUBLASEvents, "cuBLAS")})
}

// runLibAPISum summarises a library's API table by nameId, as cuda_api_sum
// does for the CUDA runtime (names as recorded, no suffix stripping).
func runLibAPISum(table, lib string) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, err := prologueNeeding(c, table, " does not contain "+lib+" data."); r != nil || err != nil {
			return r, err
		}
		return summaryByNameID(c, table, "Num Calls", func(v Value) Value { return v }, ValueSpec{})
	}
}
