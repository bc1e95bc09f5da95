package format

import "testing"

func TestPlanColumnHeader(t *testing.T) {
	tests := []struct {
		name string
		u    Units
		want string
	}{
		{"Total Time:dur_ns", Units{}, "Total Time (ns)"},
		{"Total Time:DUR_NS", Units{}, "Total Time (ns)"},
		{"Start:ts", Units{TS: "ms"}, "Start (ms)"},
		{"Bytes:mem_b", Units{}, "Bytes (MB)"},
		{"Rate:thru_B", Units{Thru: "KiB"}, "Rate (KiB/s)"},
		{"Rate:thru_B", Units{NoConv: true}, "Rate (B/s)"},
		{"Size:mem_KB", Units{NoConv: true}, "Size (KB)"},
		{"Time:ratio_%", Units{}, "Time (%)"},
		{"Addr:addr_uint", Units{}, "Addr"},
		{"GID:gid", Units{GID: "gidhex"}, "GID"},
		{"X:B", Units{}, "X"},
		{"X:foo", Units{}, "X"},
		{"X: dur_ns", Units{}, "X"},
		{"X:dur_s", Units{}, "X"},
		{"X:dur_", Units{}, "X"},
		{"X:dur_ns:ignored", Units{}, "X (ns)"},
		{":r", Units{}, ""},
		{"Name", Units{}, "Name"},
		{"D:dur_ns", Units{NoHdrUnit: true}, "D"},
		{"D:dur_ns", Units{Dur: "bogus"}, "D (ns)"},
	}
	for _, tt := range tests {
		if got := planColumn(tt.name, tt.u).header; got != tt.want {
			t.Errorf("header of %q with %+v = %q, want %q", tt.name, tt.u, got, tt.want)
		}
	}
}

func TestConversion(t *testing.T) {
	tests := []struct {
		name string
		u    Units
		in   string
		want string
	}{
		{"D:dur_ns", Units{Dur: "us"}, "6609.65", "6.610"},
		{"D:dur_ns", Units{Dur: "ms"}, "2643864", "2.6439"},
		{"D:dur_ns", Units{Dur: "ms"}, "50", "0.0000"}, // multiplied by 1e-6, not divided
		{"D:dur_ns", Units{Dur: "us"}, "1000.5", "1.000"},
		{"D:dur_ns", Units{}, "1000.5", "1000.5"}, // same unit: text kept
		{"D:dur_ns", Units{Dur: "us"}, "-50", "-0.050"},
		{"D:dur_ns", Units{Dur: "us"}, "1e+20", "100000000000000000.000"},
		{"D:dur_ns", Units{Dur: "us"}, "abc", "abc"},
		{"D:dur_ns", Units{Dur: "us"}, "", ""},
		{"D:dur_ns", Units{Dur: "us"}, "00", "00"},
		{"D:dur_us", Units{}, "1234567", "1234567000"},                      // to a smaller unit: int64
		{"D:dur_us", Units{}, "1.5", "1500.0"},                              // float: %.1f in ns
		{"D:dur_us", Units{}, "123456789012345678", "-5670419503621183312"}, // wraps like C
		{"M:mem_B", Units{}, "1234567", "1.235"},
		{"M:mem_B", Units{Mem: "KiB"}, "1234567", "1205.63"},
		{"M:mem_B", Units{Mem: "KB"}, "-1", "-0.00"},
		{"M:mem_KB", Units{Mem: "B"}, "1234567", "1234567000.0"},
		{"M:mem_GiB", Units{}, "0.4", "429.497"},
		{"A:addr_uint", Units{}, "1234567", "0x12D687"},
		{"A:addr_uint", Units{}, "-5", "-5"},
		{"A:addr_uint", Units{}, "12.5", "12.5"},
		{"A:addr_hex", Units{Addr: "uint"}, "255", "597"},
		{"G:gid", Units{GID: "gidhex"}, "-5", "0xFFFFFFFFFFFFFFFB"},
		{"G:gid", Units{GID: "gidsubint"}, "72620544041680900", "001:002:00000003:00000004"},
		{"G:gid", Units{GID: "gidsubhex"}, "-1", "FF:FF:FFFFFF:FFFFFF"},
		{"G:gid", Units{GID: "gidhex"}, "12.5", "12.5"},
		{"D:dur_ns", Units{Dur: "us", NoConv: true}, "1234567", "1234567"},
	}
	for _, tt := range tests {
		got := tt.in
		if conv := planColumn(tt.name, tt.u).conv; conv != nil {
			got = conv(tt.in)
		}
		if got != tt.want {
			t.Errorf("%q with %+v: %q -> %q, want %q", tt.name, tt.u, tt.in, got, tt.want)
		}
	}
}
