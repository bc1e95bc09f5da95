package nsysxengine

import (
	"github.com/nsysx/nsysx/kernel"
)

// RegisterMagics implements kernel.MagicRegistrar: %nsys, %open, %%sql and
// %plot.
func (e *Engine) RegisterMagics(m *kernel.Magics) error {
	magics := []kernel.Magic{
		{Name: "nsys", Usage: nsysUsage, Help: nsysHelp, Run: e.magicNsys, Complete: e.completeNsys},
		{Name: "open", Usage: openUsage, Help: openHelp, Run: e.magicOpen, Complete: e.completeOpen},
		{Name: "sql", Cell: true, Usage: sqlUsage, Help: sqlHelp, Run: e.magicSQL, Complete: e.completeSQL},
		{Name: "plot", Usage: plotUsage, Help: plotHelp(), Run: e.magicPlot, Complete: e.completePlot},
	}
	for _, mg := range magics {
		if err := m.Register(mg); err != nil {
			return err
		}
	}
	return nil
}
