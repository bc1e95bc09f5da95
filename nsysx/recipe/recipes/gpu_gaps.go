package recipes

import (
	"github.com/nsysx/nsysx/nsysx/recipe"
	"strconv"

	"github.com/nsysx/nsysx/nsysx"
)

func init() {
	registerRule("gpu_gaps", "GPU Gaps",
		"Periods longer than --gap ms in which a GPU of a process ran no kernel, memcpy or memset (nsys analyze gpu_gaps).",
		[]string{"gap"}, func(o *recipe.Options) []nsysx.KV {
			return []nsysx.KV{{Key: "gap", Value: strconv.Itoa(o.Gap)}}
		}, nil)
}
