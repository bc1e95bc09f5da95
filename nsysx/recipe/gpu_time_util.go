package recipe

import (
	"strconv"

	"github.com/nsysx/nsysx/nsysx"
)

func init() {
	registerRule("gpu_time_util", "GPU Time Utilization",
		"Chunks of each GPU's activity span whose utilization is below --threshold, merged into runs (nsys analyze gpu_time_util).",
		[]string{"threshold", "chunks"}, func(o *Options) []nsysx.KV {
			return []nsysx.KV{{Key: "threshold", Value: strconv.Itoa(o.Threshold)}, {Key: "chunks", Value: strconv.Itoa(o.Chunks)}}
		})
}
