package nsysx_test

import "testing"

func TestOpenMPGolden(t *testing.T) { checkStatsGoldens(t, "openmp_sum", "openacc_sum") }

func TestOpenMPFixture(t *testing.T) {
	p := openFixture(t, "apis")
	// Each OPENMP_EVENT_KIND_* table is grouped on its own: omp_parallel
	// appears for PARALLEL (100+60) and for TASK (1). Grand total 181.
	wantRows(t, p, "openmp_sum", nil,
		"88.4|160|2|80.0|80.0|60|100|28.3|omp_parallel",
		"11.0|20|1|20.0|20.0|20|20|0.0|omp_task",
		"0.6|1|1|1.0|1.0|1|1|0.0|omp_parallel")
	// name@file:line, the plain name without a file, NULL when the file id
	// is unknown. Grand total 115.
	wantRows(t, p, "openaccsum", nil,
		"60.9|70|2|35.0|35.0|20|50|21.2|acc_enqueue_launch@main.c:12",
		"26.1|30|1|30.0|30.0|30|30|0.0|acc_wait@main.c:40",
		"8.7|10|1|10.0|10.0|10|10|0.0|",
		"4.3|5|1|5.0|5.0|5|5|0.0|acc_enqueue_launch")
	e := openFixture(t, "nvtx_edge")
	wantSkip(t, e, "openmp_sum", nil, "<f> does not contain OpenMP event data.")
	wantSkip(t, e, "openacc_sum", nil, "<f> does not contain OpenACC event data.")
	wantSkip(t, openFixture(t, "nostrings"), "openmp_sum", nil, "<f> file does not contain StringIds table.")
}
