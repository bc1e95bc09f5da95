package nsysx_test

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

func TestCuDNNCuBLASFixture(t *testing.T) {
	p := openFixture(t, "apis")
	wantRows(t, p, "cudnn_api_sum", nil,
		"99.3|140|2|70.0|70.0|40|100|42.4|cudnnConvolutionForward",
		"0.7|1|1|1.0|1.0|1|1|0.0|cudnnCreate")
	// Names as recorded: no version-suffix stripping.
	wantRows(t, p, "cublas_api_sum", nil,
		"90.0|90|3|30.0|30.0|10|50|20.0|cublasSgemm_v2",
		"10.0|10|1|10.0|10.0|10|10|0.0|cublasCreate_v2")
	// Under a time filter, rows overlapping [20, 85): 20-70 and 80-90.
	f, err := nsysx.ParseTimeFilter("20/85")
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, p, "cublas_api_sum", f, "100.0|60|2|30.0|30.0|10|50|28.3|cublasSgemm_v2")
}

func TestCuDNNCuBLASSkipped(t *testing.T) {
	for _, prof := range testutil.Profiles {
		p, err := nsysx.Open(testutil.Profile(t, prof))
		if err != nil {
			t.Fatal(err)
		}
		wantSkip(t, p, "cudnn_api_sum", nil, "<f> does not contain cuDNN data.")
		wantSkip(t, p, "cublas_api_sum", nil, "<f> does not contain cuBLAS data.")
		p.Close()
	}
}
