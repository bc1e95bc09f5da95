package recipes

import (
	"context"
	"fmt"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// rawMem groups a profile's memcpy and memset rows, computed here from the
// raw tables: memcpy named by ENUM_CUDA_MEMCPY_OPER.name, memset
// CUDA_MEMSET; value = bytes (size) or end−start (time, positive only, start
// ≥ 0); byDev keys "name/device". label maps a name to nsys stats'
// "[CUDA memcpy <label>]" / "[CUDA memset]".
func rawMem(t *testing.T, p *nsysx.Profile, size bool) (groups, byDev map[string][]float64, zero map[string]int, label map[string]string) {
	t.Helper()
	enum, err := p.Load(context.Background(), "ENUM_CUDA_MEMCPY_OPER", "id", "name", "label")
	if err != nil {
		t.Fatal(err)
	}
	names, label := map[int64]string{}, map[string]string{composite.MemsetName: "[CUDA memset]"}
	for i := 0; i < enum.N; i++ {
		names[enum.Col("id").Int(i)] = enum.Col("name").Str(i)
		label[enum.Col("name").Str(i)] = "[CUDA memcpy " + enum.Col("label").Str(i) + "]"
	}
	groups, byDev, zero = map[string][]float64{}, map[string][]float64{}, map[string]int{}
	for _, table := range []string{composite.TableMemcpy, composite.TableMemset} {
		cols := []string{"start", "end", "bytes", "deviceId"}
		if table == composite.TableMemcpy {
			cols = append(cols, "copyKind")
		}
		tb, err := p.Load(context.Background(), table, cols...)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < tb.N; i++ {
			name := composite.MemsetName
			if table == composite.TableMemcpy {
				name = names[tb.Col("copyKind").Int(i)]
			}
			v := float64(tb.Col("bytes").Int(i))
			if !size {
				d := tb.Col("end").Int(i) - tb.Col("start").Int(i)
				if tb.Col("start").Int(i) < 0 || d <= 0 {
					zero[label[name]]++
					continue
				}
				v = float64(d)
			}
			groups[name] = append(groups[name], v)
			k := fmt.Sprintf("%s/%d", name, tb.Col("deviceId").Int(i))
			byDev[k] = append(byDev[k], v)
		}
	}
	return groups, byDev, zero, label
}

// devKeyed returns a copy of a by-device frame whose Name is "name/device".
func devKeyed(f *pyframe.Frame) *pyframe.Frame {
	out := *f
	name := f.Find("Name").Pick(pyframe.Seq(f.Rows()))
	for i := range name.Strs {
		name.Strs[i] = fmt.Sprintf("%s/%d", name.Strs[i], f.Find("Device ID").IntVals[i])
	}
	out.Cols = append([]*pyframe.Column(nil), f.Cols...)
	for i, c := range out.Cols {
		if c.Name == "Name" {
			out.Cols[i] = name
		}
	}
	return &out
}

func TestMemSizeSum(t *testing.T) {
	profs := []string{"rank0", "rank1"}
	res := runOn(t, "cuda_gpu_mem_size_sum", nil, profs...)
	f, dev := res.Output.Table("rank_stats"), res.Output.Table("rank_stats_by_device")
	if f.Find("Sum").Type != pyframe.Uint64 || dev.Find("Device ID").Type != pyframe.Uint32 {
		t.Errorf("Sum %v, Device ID %v; want uint64, uint32", f.Find("Sum").Type, dev.Find("Device ID").Type)
	}
	for rank, prof := range profs {
		groups, byDev, _, label := rawMem(t, openProfile(t, prof), true)
		checkRank(t, "mem_size_sum", f, int64(rank), "Name", groups)
		checkRank(t, "mem_size_sum by device", devKeyed(dev), int64(rank), "Name", byDev)
		// nsys stats' counts (its sizes are rounded MB).
		got := sumsBy(f, int64(rank), "Name", func(s string) string { return label[s] })
		for _, w := range statsGolden(t, prof, "cuda_gpu_mem_size_sum") {
			if g := got[w["Operation"]]; g == nil || g.count != atof(t, w["Count"]) {
				t.Errorf("%s %s: %+v, nsys stats count %s", prof, w["Operation"], g, w["Count"])
			}
		}
	}
	checkAllStats(t, res)
}

func TestMemTimeSum(t *testing.T) {
	profs := []string{"rank0", "rank1"}
	res := runOn(t, "cuda_gpu_mem_time_sum", nil, profs...)
	f, dev := res.Output.Table("rank_stats"), res.Output.Table("rank_stats_by_device")
	if f.Find("Sum").Type != pyframe.Int64 {
		t.Errorf("Sum %v, want int64", f.Find("Sum").Type)
	}
	for rank, prof := range profs {
		groups, byDev, zero, label := rawMem(t, openProfile(t, prof), false)
		checkRank(t, "mem_time_sum", f, int64(rank), "Name", groups)
		checkRank(t, "mem_time_sum by device", devKeyed(dev), int64(rank), "Name", byDev)
		got := sumsBy(f, int64(rank), "Name", func(s string) string { return label[s] })
		checkStatsGolden(t, statsGolden(t, prof, "cuda_gpu_mem_time_sum"), got, "Operation", "Count", zero)
	}
	checkAllStats(t, res)
}
