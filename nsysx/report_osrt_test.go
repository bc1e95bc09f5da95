package nsysx_test

import "testing"

func TestOSRTGolden(t *testing.T) { checkStatsGoldens(t, "osrt_sum", "syscall_sum") }

func TestSyscallSumFixture(t *testing.T) {
	p := openFixture(t, "apis")
	// eventClass 107 rows only: read 10+30, write 1; the class-5 write is not a syscall.
	wantRows(t, p, "syscall_sum", nil,
		"97.6|40|2|20.0|20.0|10|30|14.1|read",
		"2.4|1|1|1.0|1.0|1|1|0.0|write")
	wantSkip(t, p, "osrtsum", nil, "<f> does not contain OS Runtime trace data.")
	wantSkip(t, openFixture(t, "nvtx_edge"), "syscall_sum", nil, "<f> does not contain syscall data.")
}
