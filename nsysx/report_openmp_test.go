package nsysx_test

import "testing"

// TestOpenMPGolden compares the OpenMP and OpenACC reports with nsys's
// goldens; their rows on the hand-made apis fixture are in fixtureRows.
func TestOpenMPGolden(t *testing.T) { checkStatsGoldens(t, "openmp_sum", "openacc_sum") }
