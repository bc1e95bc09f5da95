package model

import (
	"context"
	"testing"
)

// TestWithReleaseEvery: the budget a context was given is the one read
// back, a context without one (or with none positive) gives none.
func TestWithReleaseEvery(t *testing.T) {
	ctx := context.Background()
	if n, ok := ReleaseEveryGiven(ctx); ok {
		t.Errorf("no budget given: got %d", n)
	}
	if n, ok := ReleaseEveryGiven(WithReleaseEvery(ctx, 32<<20)); !ok || n != 32<<20 {
		t.Errorf("given 32 MB: got %d, %v", n, ok)
	}
	if n, ok := ReleaseEveryGiven(WithReleaseEvery(ctx, 0)); ok {
		t.Errorf("given 0: got %d, want none", n)
	}
}
