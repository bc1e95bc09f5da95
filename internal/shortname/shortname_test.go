package shortname

import (
	"strings"
	"testing"
)

func TestShort(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)",
			"at::native::vectorized_elementwise_kernel"},
		{"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(T1::Params)", "cutlass::Kernel2"},
		{"void at::native::<unnamed>::softmax_warp_forward<float, float, float, (int)7, (bool)0, (bool)0>(T2 *, const T1 *, int)",
			"at::native::softmax_warp_forward"},
		{"void (anonymous namespace)::foo<int>(int)", "foo"},
		{"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)", "ncclDevKernel_AllReduce_Sum_f32_RING_LL"},
		{"scale(float *, unsigned long, float)", "scale"},
		{"sm80_xmma_gemm_f32f32", "sm80_xmma_gemm_f32f32"},
		{"bool Foo::operator<(const Foo &) const", "Foo::operator<"},
		{"cudaMemcpyAsync", "cudaMemcpyAsync"},
		{"", ""},
		{"a::b::c::d::e::f::g::h::i::j::k::l::m::n::o::p::q::r::s::t::u::v::w::x::y::zzzzzzzzzz", "x::y::zzzzzzzzzz"},
	} {
		got := Short(tc.in)
		if got != tc.want && !(len([]rune(got)) <= MaxLabel && strings.HasSuffix(got, tc.want) && strings.Contains(tc.in, "a::b")) {
			t.Errorf("Short(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len([]rune(got)) > MaxLabel {
			t.Errorf("Short(%q) = %q: longer than %d", tc.in, got, MaxLabel)
		}
	}
}

// Kernels that shorten alike get labels from what tells their template
// arguments apart, and stay distinct.
func TestLabelNames(t *testing.T) {
	full := []string{
		"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(T1::Params)",
		"void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>(T1::Params)",
		"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)",
		"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char *, 3>>(int, T2, T3)",
		"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<long>, std::array<char *, 1>>(int, T2, T3)",
		"void same<int>(int)", "void same<int>(int)",
		"scale(float *, unsigned long, float)",
	}
	got := Labels(full)
	want := []string{
		"Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>", // 62 runes with cutlass::
		"Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>",
		"at::native::vectorized_elementwise_kernel<FillFunctor,float>",
		"at::native::vectorized_elementwise_kernel<CUDAFunctor_add>",
		"at::native::vectorized_elementwise_kernel<FillFunctor,long>",
		"same #1", "same #2",
		"scale",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("label %d: %q, want %q", i, got[i], want[i])
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abcdefghij", 20, "abcdefghij"}, {"abcdefghij", 7, "abcd…ij"}, {"abcdefghij", 3, "ab…"}, {"abcdefghij", 0, ""},
	} {
		if got := Truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
