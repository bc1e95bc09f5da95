package stats

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/report"
)

// The graphics, Windows, video and network reports of nsys. nsysx knows
// their names, titles and the checks nsys runs first, so on exports without
// their data (every Linux CUDA capture) they are SKIPPED with nsys's own
// messages; computing them is not implemented.

// ErrNotImplemented is returned for a report whose data is present but that
// nsysx does not compute.
var ErrNotImplemented = errors.New("report not implemented by nsysx")

// tableCheck is one SKIPPED check: the table (or any of several) and nsys's
// message, `<f>` standing for the input path.
type tableCheck struct {
	anyOf []string // table names; "A+B" needs both
	msg   string
}

const sidMsg = " file does not contain StringIds table."

func graphicsReport(name, title string, aliases []string, help string, checks ...tableCheck) *Report {
	return &Report{Name: name, Title: title, Aliases: aliases, Help: help + " (Windows/graphics data: SKIPPED unless present; not computed by nsysx.)",
		Run: func(c *Ctx) (*Result, error) {
			for _, ch := range checks {
				ok := false
				for _, alt := range ch.anyOf {
					all := true
					for _, t := range strings.Split(alt, "+") {
						all = all && c.Has(t)
					}
					ok = ok || all
				}
				if !ok {
					return c.Skip(c.Path() + ch.msg)
				}
			}
			if r, err := c.SetupFilter(); r != nil || err != nil {
				return r, err
			}
			return nil, fmt.Errorf("%w: %s on %s", ErrNotImplemented, name, c.Path())
		}}
}

func chk(msg string, tables ...string) tableCheck { return tableCheck{tables, msg} }

func init() {
	sid := chk(sidMsg, events.TableStringIds)
	for _, r := range []*Report{
		graphicsReport("opengl_khr_range_sum", "OpenGL KHR_debug Range Summary", []string{"khrdebugsum"},
			"OpenGL KHR_debug ranges on the CPU grouped by name", sid,
			chk(" does not contain KHR Extension (KHR_DEBUG) data.", events.TableKHRDebugEvents)),
		graphicsReport("opengl_khr_gpu_range_sum", "OpenGL KHR_debug GPU Range Summary", []string{"khrdebuggpusum"},
			"OpenGL KHR_debug ranges on the GPU grouped by name", sid,
			chk(" does not contain GPU KHR Extension (KHR_DEBUG) data.", events.TableKHRDebugEvents)),
		graphicsReport("vulkan_marker_sum", "Vulkan Range Summary", []string{"vulkanmarkerssum"},
			"Vulkan debug-util ranges on the CPU grouped by name", sid,
			chk(" does not contain Vulkan Debug Extension (Vulkan Debug Util) data.", events.TableVulkanDebugAPI)),
		graphicsReport("vulkan_gpu_marker_sum", "Vulkan GPU Range Summary", []string{"vulkangpumarkersum"},
			"Vulkan debug markers on the GPU grouped by name", sid,
			chk(" does not contain GPU Vulkan Debug Extension (GPU Vulkan Debug markers) data.", events.TableVulkanWorkload)),
		graphicsReport("vulkan_api_sum", "Vulkan API Summary", []string{"vulkanapisum"},
			"Vulkan API calls grouped by function", sid,
			chk(" does not contain Vulkan API trace data.", events.TableVulkanAPI)),
		graphicsReport("vulkan_api_trace", "Vulkan API Trace", []string{"vulkanapitrace"},
			"every Vulkan API call in start order", sid,
			chk(" file does not contain ThreadNames table.", events.TableThreadNames),
			chk(" does not contain Vulkan API trace data.", events.TableVulkanAPI)),
		graphicsReport("dx11_pix_sum", "DX11 PIX Range Summary", []string{"dx11pixsum"},
			"Direct3D 11 PIX ranges on the CPU grouped by name", sid,
			chk(" does not contain DX11 CPU debug markers.", events.TableD3D11PIXDebugAPI)),
		graphicsReport("dx12_gpu_marker_sum", "DX12 GPU Command List PIX Ranges Summary", []string{"dx12gpumarkersum"},
			"Direct3D 12 PIX ranges on GPU command lists grouped by name", sid,
			chk(" does not contain DX12 GPU debug markers.", events.TableDX12Workload)),
		graphicsReport("dx12_pix_sum", "DX12 PIX Range Summary", []string{"dx12pixsum"},
			"Direct3D 12 PIX ranges on the CPU grouped by name", sid,
			chk(" does not contain DX12 CPU debug markers.", events.TableD3D12PIXDebugAPI)),
		graphicsReport("wddm_queue_sum", "WDDM Queue Utilization Summary", []string{"wddmqueuesdetails"},
			"Windows display-driver (WDDM) queue utilisation per context",
			chk(" does not contain WDDM context data.", events.TableTargetInfoWDDMContexts),
			chk(" does not contain WDDM event data.", "WDDM_DMA_PACKET_START_EVENTS+WDDM_DMA_PACKET_STOP_EVENTS",
				"WDDM_QUEUE_PACKET_START_EVENTS+WDDM_QUEUE_PACKET_STOP_EVENTS")),
		graphicsReport("nvvideo_api_sum", "NvVideo API Summary", nil,
			"NVIDIA video encoder, decoder and JPEG API calls grouped by function", sid,
			chk(" does not contain NvVideo trace data.", events.TableNVVIDEOEncoderAPI, events.TableNVVIDEODecoderAPI, events.TableNVVIDEOJPEGAPI)),
		graphicsReport("network_congestion", "Network Devices Congestion", nil,
			"NIC and InfiniBand switch ports whose send-wait rate exceeds a threshold",
			chk(" does not contain NIC or IB switch metrics.", events.TableNetNICMetric, events.TableNetIBSwitchMetric)),
	} {
		register(r)
	}
	report.Registered("network_congestion").Options = []Option{{Name: "ticks_threshold", Default: "10000", Help: "send-wait ticks/ms above which a port is reported"}}
}
