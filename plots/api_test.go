package plots

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// The bars are the totals nsys's cuda_api_sum printed.
func TestAPICallsMatchAPISum(t *testing.T) {
	for _, name := range testutil.Profiles {
		t.Run(name, func(t *testing.T) {
			rows, ok := goldenCSV(t, name, "cuda_api_sum.csv")
			c, err := APICalls(context.Background(), profile(t, name), 8)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				if c.Note == "" {
					t.Fatal("nsys found no CUDA API calls, the chart has no note")
				}
				return
			}
			checkBars(t, c.data.(*Bars), rows, "Name", "Total Time (ns)", "Num Calls", 1, 8)
		})
	}
}
