package nsysx_test

import (
	"maps"
	"slices"
	"testing"
)

// fixtureRows is what the NVTX, MPI and OpenMP reports give on the
// hand-made fixtures of testdata/fixtures/make_fixtures.py, worked out by
// hand from the fixtures' rows: fixture -> report spec -> rows (rowsOf).
var fixtureRows = map[string]map[string][]string{
	// The apis fixture: rank 0 is PID 10 / TID 11, rank 1 PID 20 / TID 21.
	"apis": {
		// Grand total 455.
		"mpi_event_sum": {
			"33.0|150|2|75.0|75.0|60|90|21.2|other|MPI_Init",
			"24.2|110|2|55.0|55.0|50|60|7.1|collectives|MPI_Allreduce",
			"19.8|90|2|45.0|45.0|10|80|49.5|p2p|MPI_Recv",
			"13.2|60|2|30.0|30.0|10|50|28.3|p2p|MPI_Send",
			"8.8|40|1|40.0|40.0|40|40|0.0|start-wait|MPI_Wait",
			"1.1|5|1|5.0|5.0|5|5|0.0|collectives|MPI_Barrier",
		},
		// Start order; ties keep the union order p2p, start-wait, other, collectives.
		"mpi_event_trace": {
			"0|90|90|MPI_Init|10|11||0|||||",
			"0|60|60|MPI_Init|20|21||1|||||",
			"100|150|50|MPI_Send|10|11|7|0|1||4096||",
			"100|180|80|MPI_Recv|20|21|7|1|0||4096||",
			"160|170|10|MPI_Send|10|11|7|0|1||1024||",
			"200|260|60|MPI_Allreduce|10|11||0||||800|800",
			"200|250|50|MPI_Allreduce|20|21||1||||800|800",
			"300|310|10|MPI_Recv|20|21|8|1|0||||",
			"400|405|5|MPI_Barrier|10|11||0|||||",
			"500|540|40|MPI_Wait|10|11||0|||||",
		},
		// A NULL p2p size counts as an instance; collectives without sizes do not.
		"mpi_msg_size_sum": {
			"1600|2|800.0|800.0|800|800|0.0|coll_recv|MPI_Allreduce",
			"1600|2|800.0|800.0|800|800|0.0|coll_send|MPI_Allreduce",
			"5120|2|2560.0|2560.0|1024|4096|2172.2|p2p|MPI_Send",
			"4096|2|4096.0|4096.0|4096|4096|0.0|p2p|MPI_Recv",
		},
		// Each OPENMP_EVENT_KIND_* table is grouped on its own: omp_parallel
		// appears for PARALLEL (100+60) and for TASK (1). Grand total 181.
		"openmp_sum": {
			"88.4|160|2|80.0|80.0|60|100|28.3|omp_parallel",
			"11.0|20|1|20.0|20.0|20|20|0.0|omp_task",
			"0.6|1|1|1.0|1.0|1|1|0.0|omp_parallel",
		},
		// name@file:line, the plain name without a file, NULL when the file id
		// is unknown. Grand total 115.
		"openaccsum": {
			"60.9|70|2|35.0|35.0|20|50|21.2|acc_enqueue_launch@main.c:12",
			"26.1|30|1|30.0|30.0|30|30|0.0|acc_wait@main.c:40",
			"8.7|10|1|10.0|10.0|10|10|0.0|",
			"4.3|5|1|5.0|5.0|5|5|0.0|acc_enqueue_launch",
		},
	},
	// The nvtx_edge fixture: process 100, worker thread 101, main thread
	// 100. The latest timestamp of any NVTX row is 20000 (a mark), of the
	// push/pop rows 15500, of all range rows 15500.
	"nvtx_edge": {
		// Durations: open 20000-10000; the cross-thread range counts; marks
		// and the domain row do not. Grand total 49100.
		"nvtx_sum": {
			"20.4|10000|1|10000.0|10000.0|10000|10000|0.0|PushPop|:open",
			"18.3|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se",
			"18.3|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se2",
			"16.3|8000|1|8000.0|8000.0|8000|8000|0.0|PushPop|:outer",
			"11.2|5500|1|5500.0|5500.0|5500|5500|0.0|StartEnd|:cross",
			"6.1|3000|1|3000.0|3000.0|3000|3000|0.0|PushPop|MyDom:inner",
			"4.1|2000|1|2000.0|2000.0|2000|2000|0.0|PushPop|:reg",
			"3.1|1500|3|500.0|500.0|500|500|0.0|PushPop|:step",
			"1.0|500|1|500.0|500.0|500|500|0.0|PushPop|:twinA",
			"1.0|500|1|500.0|500.0|500|500|0.0|PushPop|:twinB",
			"0.2|100|1|100.0|100.0|100|100|0.0|PushPop|:twinkid",
		},
		// Push/pop only: grand total 25600 (31.25 rounds away from zero).
		"nvtx_pushpop_sum": {
			"39.1|10000|1|10000.0|10000.0|10000|10000|0.0|:open",
			"31.3|8000|1|8000.0|8000.0|8000|8000|0.0|:outer",
			"11.7|3000|1|3000.0|3000.0|3000|3000|0.0|MyDom:inner",
			"7.8|2000|1|2000.0|2000.0|2000|2000|0.0|:reg",
			"5.9|1500|3|500.0|500.0|500|500|0.0|:step",
			"2.0|500|1|500.0|500.0|500|500|0.0|:twinA",
			"2.0|500|1|500.0|500.0|500|500|0.0|:twinB",
			"0.4|100|1|100.0|100.0|100|100|0.0|:twinkid",
		},
		"nvtxsesum": {
			"38.3|9000|1|9000.0|9000.0|9000|9000|0.0|:se",
			"38.3|9000|1|9000.0|9000.0|9000|9000|0.0|:se2",
			"23.4|5500|1|5500.0|5500.0|5500|5500|0.0|:cross",
		},
		// The open range ends at 15500 and holds the three steps. The twins
		// are each other's parents: they and twinkid vanish.
		"nvtx_pushpop_trace": {
			"1000|9000|8000|5000|3000|:outer|100|101|0|2|2||:2|:outer",
			"2000|5000|3000|0|3000|MyDom:inner|100|101|1|0|3|2|:2:3|--MyDom:inner",
			"6000|8000|2000|0|2000|:reg|100|101|1|0|4|2|:2:4|--:reg",
			"10000|15500|5500|1500|4000|:open|100|101|0|3|9||:9|:open",
			"13000|13500|500|0|500|:step|100|101|1|0|13|9|:9:13|--:step",
			"14000|14500|500|0|500|:step|100|101|1|0|14|9|:9:14|--:step",
			"15000|15500|500|0|500|:step|100|101|1|0|15|9|:9:15|--:step",
		},
		// k1 and k1b share one graph launch (correlation 1) inside outer and
		// inner; k2 is inside outer and reg; k3 on the main thread inside the
		// crossing start/end ranges se and se2; k4 inside the open range
		// (ends at 15500 here); k5 has no call. The cross-thread range is not
		// a candidate.
		"nvtx_kern_sum": {
			"||||0|1|100|100.0|100.0|100|100|0.0|kA",
			":open|PushPop|100|101|1|1|200|200.0|200.0|200|200|0.0|kA",
			":outer|PushPop|100|101|1|2|500|250.0|250.0|100|400|212.1|kA",
			":outer|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kB",
			":reg|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kA",
			":se|StartEnd|100|100|1|1|300|300.0|300.0|300|300|0.0|kC",
			":se2|StartEnd|100|100|1|1|300|300.0|300.0|300|300|0.0|kC",
			"MyDom:inner|PushPop|100|101|1|1|400|400.0|400.0|400|400|0.0|kA",
			"MyDom:inner|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kB",
		},
		// outer projects c1 (kernels 3000-3400, 3500-3600) and c2
		// (7000-7100); se and se2 project c3 (memcpy 4200-4300, kernel
		// 4500-4800); they cross, so neither is the other's parent.
		"nvtx_gpu_proj_trace": {
			":outer|3000|4100|1000|8000|PushPop|100|101|2|0|2|2||:2",
			"MyDom:inner|3000|600|2000|3000|PushPop|100|101|1|1|0|3|2|:2:3",
			":reg|7000|100|6000|2000|PushPop|100|101|1|1|0|4|2|:2:4",
			":se|4200|600|500|9000|StartEnd|100|100|1|0|0|7||:7",
			":se2|4200|600|3000|9000|StartEnd|100|100|1|0|0|8||:8",
			":open|10700|200|10000|5500|PushPop|100|101|1|0|0|9||:9",
		},
		"nvtx_gpu_proj_sum": {
			":outer|PushPop|4100|8000|1|4100.0|4100.0|4100|4100|0.0|2|2.0|0.0|2.0",
			":se|StartEnd|600|9000|1|600.0|600.0|600|600|0.0|1|1.0|0.0|0.0",
			":se2|StartEnd|600|9000|1|600.0|600.0|600|600|0.0|1|1.0|0.0|0.0",
			"MyDom:inner|PushPop|600|3000|1|600.0|600.0|600|600|0.0|1|1.0|1.0|0.0",
			":open|PushPop|200|5500|1|200.0|200.0|200|200|0.0|1|1.0|0.0|0.0",
			":reg|PushPop|100|2000|1|100.0|100.0|100|100|0.0|1|1.0|1.0|0.0",
		},
	},
}

// fixtureSkips are the SKIPPED messages (<f> is the path) of the reports
// of fixtureRows on fixtures without their data: fixture -> message ->
// report specs.
var fixtureSkips = map[string]map[string][]string{
	"apis": {
		"<f> does not contain NV Tools Extension (NVTX) data.": {"nvtx_sum", "nvtx_pushpop_sum",
			"nvtx_startend_sum", "nvtx_pushpop_trace", "nvtx_kern_sum", "nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace"},
	},
	"nostrings": {
		"<f> file does not contain StringIds table.": {"nvtx_sum", "nvtx_pushpop_trace", "nvtx_kern_sum",
			"nvtx_gpu_proj_trace", "openmp_sum"},
	},
	"nvtx_dupdomain": {
		"<f> does not contain CUDA kernel data.": {"nvtx_kern_sum"},
		"<f> does not contain CUDA API data.":    {"nvtx_gpu_proj_trace"},
	},
	"nvtx_edge": {
		"<f> does not contain MPI event data.":     {"mpi_event_sum", "mpi_msg_size_sum"},
		"<f> does not contain MPI rank data.":      {"mpi_event_trace"},
		"<f> does not contain OpenMP event data.":  {"openmp_sum"},
		"<f> does not contain OpenACC event data.": {"openacc_sum"},
	},
}

// TestFixtureReports runs every report of fixtureRows and fixtureSkips on
// its fixture (each opened once).
func TestFixtureReports(t *testing.T) {
	for _, fx := range slices.Sorted(maps.Keys(fixtureRows)) {
		p := openFixture(t, fx)
		for _, spec := range slices.Sorted(maps.Keys(fixtureRows[fx])) {
			wantRows(t, p, spec, nil, fixtureRows[fx][spec]...)
		}
	}
	for _, fx := range slices.Sorted(maps.Keys(fixtureSkips)) {
		p := openFixture(t, fx)
		for _, msg := range slices.Sorted(maps.Keys(fixtureSkips[fx])) {
			for _, spec := range fixtureSkips[fx][msg] {
				wantSkip(t, p, spec, nil, msg)
			}
		}
	}
}
