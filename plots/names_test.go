package plots

import "testing"

func TestRangeLabel(t *testing.T) {
	for in, want := range map[string]string{
		":iteration 12":                      "iteration 12",
		"aten::to, seq = 985, op_id = 15431": "aten::to",
		"autograd::engine::evaluate_function: MmBackward0, op_id = 7": "autograd::engine::evaluate_function: MmBackward0",
		"plain": "plain",
	} {
		if got := rangeLabel(in); got != want {
			t.Errorf("rangeLabel(%q) = %q, want %q", in, got, want)
		}
	}
}
