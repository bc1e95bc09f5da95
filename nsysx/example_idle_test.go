package nsysx_test

import (
	"context"
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
)

// Why is the GPU idle? The sample (the sync workload) sleeps 700 ms in
// usleep inside the NVTX range host_stall.
func ExampleProfile_IdleBreakdown() {
	p, err := nsysx.OpenSample()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	idle, err := p.IdleBreakdown(context.Background(), nsysx.IdleOptions{Range: "host_stall"})
	if err != nil {
		fmt.Println(err)
		return
	}
	stall := idle.Devices[0].Spans[1] // Spans[0] is the whole window
	top := stall.Evidence()[0]
	fmt.Printf("%s: GPU idle %.1f ms; %s (%s) %.1f ms\n", stall.Iteration, float64(stall.Idle)/1e6, top.Cat, top.Detail, float64(top.Total)/1e6)
	// Output:
	// host_stall: GPU idle 700.1 ms; OS runtime call (usleep) 700.1 ms
}
