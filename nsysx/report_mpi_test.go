package nsysx_test

import "testing"

// The MPI reports' rows on the apis fixture: fixtureRows.
func TestMPIGolden(t *testing.T) {
	checkStatsGoldens(t, "mpi_event_sum", "mpi_event_trace", "mpi_msg_size_sum")
}
