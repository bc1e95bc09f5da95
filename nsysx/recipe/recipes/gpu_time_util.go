package recipes

import (
	"strconv"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

func init() {
	registerRule("gpu_time_util", "GPU Time Utilization",
		"Chunks of each GPU's activity span whose utilization is below --threshold, merged into runs (nsys analyze gpu_time_util).",
		[]string{"threshold", "chunks"}, func(o *recipe.Options) []nsysx.KV {
			return []nsysx.KV{{Key: "threshold", Value: strconv.Itoa(o.Threshold)}, {Key: "chunks", Value: strconv.Itoa(o.Chunks)}}
		},
		func(o *recipe.Options) error {
			if o.Chunks < 1 || o.Chunks > 1000 {
				return recipe.Usagef("gpu_time_util: --chunks must be between 1 and 1000, not %d", o.Chunks)
			}
			return nil
		})
}
