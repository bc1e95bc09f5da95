package nsysx_test

import "testing"

// TestMPIGolden compares the MPI reports with nsys's goldens; their rows on
// the hand-made apis fixture are in fixtureRows.
func TestMPIGolden(t *testing.T) {
	checkStatsGoldens(t, "mpi_event_sum", "mpi_event_trace", "mpi_msg_size_sum")
}
