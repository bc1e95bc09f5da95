package nsysxengine

import (
	"github.com/nsysx/nsysx/kernel"
)

// RegisterMagics implements kernel.MagicRegistrar: %nsys, %open, %%sql and,
// when the plots package is compiled in, %plot.
func (e *Engine) RegisterMagics(m *kernel.Magics) error {
	magics := []kernel.Magic{
		{Name: "nsys", Usage: nsysUsage, Help: nsysHelp, Run: e.magicNsys, Complete: e.completeNsys},
		{Name: "open", Usage: openUsage, Help: openHelp, Run: e.magicOpen, Complete: e.completeOpen},
		{Name: "sql", Cell: true, Usage: sqlUsage, Help: sqlHelp, Run: e.magicSQL, Complete: e.completeSQL},
	}
	for _, f := range optional.magics {
		magics = append(magics, f(e))
	}
	for _, mg := range magics {
		if err := m.Register(mg); err != nil {
			return err
		}
	}
	return nil
}
