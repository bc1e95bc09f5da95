package analyze

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestMain removes the unpacked fixtures after the tests.
func TestMain(m *testing.M) { testutil.Main(m) }
