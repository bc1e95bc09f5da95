package nsysx_test

import "testing"

func TestMPIGolden(t *testing.T) {
	checkStatsGoldens(t, "mpi_event_sum", "mpi_event_trace", "mpi_msg_size_sum")
}

// The apis fixture: rank 0 is PID 10 / TID 11, rank 1 PID 20 / TID 21.
func TestMPIFixture(t *testing.T) {
	p := openFixture(t, "apis")
	// Grand total 455.
	wantRows(t, p, "mpi_event_sum", nil,
		"33.0|150|2|75.0|75.0|60|90|21.2|other|MPI_Init",
		"24.2|110|2|55.0|55.0|50|60|7.1|collectives|MPI_Allreduce",
		"19.8|90|2|45.0|45.0|10|80|49.5|p2p|MPI_Recv",
		"13.2|60|2|30.0|30.0|10|50|28.3|p2p|MPI_Send",
		"8.8|40|1|40.0|40.0|40|40|0.0|start-wait|MPI_Wait",
		"1.1|5|1|5.0|5.0|5|5|0.0|collectives|MPI_Barrier")
	// Start order; ties keep the union order p2p, start-wait, other, collectives.
	wantRows(t, p, "mpi_event_trace", nil,
		"0|90|90|MPI_Init|10|11||0|||||",
		"0|60|60|MPI_Init|20|21||1|||||",
		"100|150|50|MPI_Send|10|11|7|0|1||4096||",
		"100|180|80|MPI_Recv|20|21|7|1|0||4096||",
		"160|170|10|MPI_Send|10|11|7|0|1||1024||",
		"200|260|60|MPI_Allreduce|10|11||0||||800|800",
		"200|250|50|MPI_Allreduce|20|21||1||||800|800",
		"300|310|10|MPI_Recv|20|21|8|1|0||||",
		"400|405|5|MPI_Barrier|10|11||0|||||",
		"500|540|40|MPI_Wait|10|11||0|||||")
	// A NULL p2p size counts as an instance; collectives without sizes do not.
	wantRows(t, p, "mpi_msg_size_sum", nil,
		"1600|2|800.0|800.0|800|800|0.0|coll_recv|MPI_Allreduce",
		"1600|2|800.0|800.0|800|800|0.0|coll_send|MPI_Allreduce",
		"5120|2|2560.0|2560.0|1024|4096|2172.2|p2p|MPI_Send",
		"4096|2|4096.0|4096.0|4096|4096|0.0|p2p|MPI_Recv")
	e := openFixture(t, "nvtx_edge")
	wantSkip(t, e, "mpi_event_sum", nil, "<f> does not contain MPI event data.")
	wantSkip(t, e, "mpi_msg_size_sum", nil, "<f> does not contain MPI event data.")
	wantSkip(t, e, "mpi_event_trace", nil, "<f> does not contain MPI rank data.")
}
