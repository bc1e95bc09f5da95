package recipes

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
