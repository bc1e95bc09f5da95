package recipe

import (
	"os"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testutil.Cleanup()
	os.Exit(code)
}
