package stats

import "github.com/nsysx/nsysx/nsysx/events"

func init() {
	register(&Report{Name: "osrt_sum", Title: "OS Runtime Summary", Aliases: []string{"osrtsum"},
		Help: "OS runtime library calls (pthread, file and socket I/O, sleeps, polls ...) grouped by function: " +
			"share of traced time, call counts and duration statistics.",
		Run: runEventClassSum(events.TableOSRTAPI, 27, " does not contain OS Runtime trace data.")})
	register(&Report{Name: "syscall_sum", Title: "Syscall Summary",
		Help: "Linux system calls grouped by name: share of traced time, call counts and duration statistics.",
		Run:  runEventClassSum(events.TableSyscall, 107, " does not contain syscall data.")})
}

// runEventClassSum summarises the rows of table with the given eventClass by
// nameId, as cuda_api_sum does but without stripping version suffixes
// (docs/stats.md §4.16).
func runEventClassSum(table string, class int64, missing string) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, err := prologueNeeding(c, table, missing); r != nil || err != nil {
			return r, err
		}
		return summaryByNameID(c, table, "Num Calls", func(v Value) Value { return v }, ValueSpec{Where: "eventClass", Is: class})
	}
}
