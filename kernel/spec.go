package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
)

// InstallSpec writes a kernelspec into dir (the kernel's own directory,
// e.g. ~/.local/share/jupyter/kernels/nsysx): kernel.json with argv, which
// must contain "{connection_file}", and two generated logos.
func InstallSpec(dir string, argv []string) error {
	if !slices.Contains(argv, "{connection_file}") {
		return fmt.Errorf("kernelspec argv %q must contain {connection_file}", argv)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	spec := map[string]any{
		"argv":                    argv,
		"display_name":            "nsysx (Go)",
		"language":                "go",
		"interrupt_mode":          "message",
		"kernel_protocol_version": "5.4",
		"name":                    "nsysx",
		"metadata":                map[string]any{},
		"env":                     map[string]any{},
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	for _, size := range []int{32, 64} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, Logo(size)); err != nil {
			return err
		}
		name := filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", size, size))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Logo draws the kernel icon at size×size pixels: bars on timeline rows,
// like an Nsight Systems trace, on a dark rounded square.
func Logo(size int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := color.NRGBA{0x1e, 0x29, 0x3b, 0xff}
	green := color.NRGBA{0x76, 0xb9, 0x00, 0xff}
	bars := []struct {
		row, from, to int // in eighths of the size
		c             color.NRGBA
	}{
		{1, 1, 5, green},
		{3, 2, 7, color.NRGBA{0x00, 0xad, 0xd8, 0xff}},
		{5, 1, 3, color.NRGBA{0xf5, 0xa6, 0x23, 0xff}},
		{5, 4, 7, green},
	}
	r := size / 6
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if !insideRounded(x, y, size, r) {
				continue
			}
			img.SetNRGBA(x, y, bg)
			for _, b := range bars {
				y0, y1 := b.row*size/8, (b.row+1)*size/8+size/16
				if y >= y0 && y < y1 && x >= b.from*size/8 && x < b.to*size/8 {
					img.SetNRGBA(x, y, b.c)
				}
			}
		}
	}
	return img
}

func insideRounded(x, y, size, r int) bool {
	cx := min(max(x, r), size-1-r)
	cy := min(max(y, r), size-1-r)
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}
