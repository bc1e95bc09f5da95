package nsysx_test

import "testing"

// The OpenMP and OpenACC reports' rows on the apis fixture: fixtureRows.
func TestOpenMPGolden(t *testing.T) { checkStatsGoldens(t, "openmp_sum", "openacc_sum") }
