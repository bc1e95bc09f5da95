package analyze

import "testing"

// Synchronous copies, except host-to-device copies of 64000 bytes or less
// and copies within one device; the API must not be an Async one.
func TestCudaMemcpySync(t *testing.T) {
	f := memFixture().runtime(
		[5]any{10, 20, gtid(7, 7), 1, 2},
		[5]any{10, 20, gtid(7, 7), 2, 2},
		[5]any{10, 20, gtid(7, 7), 3, 2},
		[5]any{10, 20, gtid(7, 7), 4, 2},
		[5]any{10, 20, gtid(7, 7), 5, 1}, // async: not this rule
		[5]any{10, 20, gtid(7, 7), 6, 2},
		[5]any{10, 20, gtid(7, 7), 7, 2},
	).memcpys(
		[11]any{1000, 1100, 1, gpid(7), 64000, 1, 0, 2, nil, 0, 0},   // small HtoD: out
		[11]any{2000, 2200, 2, gpid(7), 64001, 1, 0, 2, nil, 0, 0},   // in
		[11]any{3000, 3300, 3, gpid(7), 100, 2, 2, 0, 0, nil, 0},     // srcDeviceId = NULL is NULL: out
		[11]any{7000, 7300, 7, gpid(7), 100, 2, 2, 0, 0, 1, 0},       // small DtoH: in
		[11]any{4000, 4400, 4, gpid(7), 1 << 20, 8, 2, 2, 0, 0, 0},   // same device: out
		[11]any{5000, 5500, 5, gpid(7), 1 << 20, 1, 0, 2, nil, 0, 0}, // async call
		[11]any{6000, 6600, 6, gpid(7), 1 << 20, 10, 2, 2, 0, 1, 0},  // peer: in
	)
	wantRows(t, analyzeRule(t, f.profile(t), "cuda-sync-memcpy"),
		"600,6000,Device,Device,1048576,7,0,1,,7,cudaMemcpy_v3020\n"+
			"300,7000,Device,Pageable,100,7,0,1,,7,cudaMemcpy_v3020\n"+
			"200,2000,Pageable,Device,64001,7,0,1,,7,cudaMemcpy_v3020\n")
}
