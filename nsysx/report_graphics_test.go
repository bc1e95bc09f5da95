package nsysx_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

func TestGraphicsSkipped(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	for name, msg := range map[string]string{
		"opengl_khr_range_sum":                 "<f> does not contain KHR Extension (KHR_DEBUG) data.",
		"khrdebuggpusum":                       "<f> does not contain GPU KHR Extension (KHR_DEBUG) data.",
		"vulkan_marker_sum":                    "<f> does not contain Vulkan Debug Extension (Vulkan Debug Util) data.",
		"vulkan_gpu_marker_sum":                "<f> does not contain GPU Vulkan Debug Extension (GPU Vulkan Debug markers) data.",
		"vulkan_api_sum":                       "<f> does not contain Vulkan API trace data.",
		"vulkan_api_trace":                     "<f> file does not contain ThreadNames table.",
		"dx11_pix_sum":                         "<f> does not contain DX11 CPU debug markers.",
		"dx12_gpu_marker_sum":                  "<f> does not contain DX12 GPU debug markers.",
		"dx12_pix_sum":                         "<f> does not contain DX12 CPU debug markers.",
		"wddm_queue_sum":                       "<f> does not contain WDDM context data.",
		"nvvideo_api_sum":                      "<f> does not contain NvVideo trace data.",
		"network_congestion":                   "<f> does not contain NIC or IB switch metrics.",
		"network_congestion:ticks_threshold=5": "<f> does not contain NIC or IB switch metrics.",
	} {
		wantSkip(t, p, name, nil, msg)
	}
	wantSkip(t, openFixture(t, "nostrings"), "vulkan_api_sum", nil, "<f> file does not contain StringIds table.")
}

func TestGraphicsNotImplemented(t *testing.T) {
	// apis holds an (empty) VULKAN_API table: the report must fail clearly
	// rather than print nothing.
	p := openFixture(t, "apis")
	_, err := p.Stats(context.Background(), "vulkan_api_sum")
	if !errors.Is(err, nsysx.ErrNotImplemented) {
		t.Fatalf("vulkan_api_sum with VULKAN_API present: err %v, want ErrNotImplemented", err)
	}
}
