package recipes

import (
	"strconv"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

func init() {
	registerRule("gpu_gaps", "GPU Gaps",
		"Periods longer than --gap ms in which a GPU of a process ran no kernel, memcpy or memset (nsys analyze gpu_gaps).",
		[]string{"gap"}, func(o *recipe.Options) []nsysx.KV {
			return []nsysx.KV{{Key: "gap", Value: strconv.Itoa(o.Gap)}}
		}, nil)
}
