package sqlite

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestMain removes the profiles the tests unpacked.
func TestMain(m *testing.M) { testutil.Main(m) }
