package cliflags

import "github.com/nsysx/nsysx/nsysx"

// Filter builds the filter of --filter-time and --filter-nvtx (nil when
// neither is given); when both are, the NVTX filter wins, as in nsys.
func Filter(p *Parsed) (*nsysx.Filter, error) {
	switch {
	case p.Has("--filter-nvtx"):
		f, err := nsysx.ParseNVTXFilter(p.Last("--filter-nvtx"))
		if err != nil {
			return nil, Usagef("--filter-nvtx: %v", err)
		}
		return f, nil
	case p.Has("--filter-time"):
		f, err := nsysx.ParseTimeFilter(p.Last("--filter-time"))
		if err != nil {
			return nil, Usagef("--filter-time: %v", err)
		}
		return f, nil
	}
	return nil, nil
}

// CheckExport checks that the flags given suit the export type: --tables
// only for parquet/arrow, --gzip and the filters only for perfetto.
func CheckExport(p *Parsed) error {
	typ := p.Last("--type")
	switch typ {
	case "parquet", "arrow":
		for _, f := range []string{"--gzip", "--filter-time", "--filter-nvtx"} {
			if p.Has(f) {
				return Usagef("%s applies to -t perfetto only", f)
			}
		}
	case "perfetto":
		if p.Has("--tables") {
			return Usagef("--tables applies to -t parquet and -t arrow only")
		}
	default:
		return Usagef("-t must be parquet, arrow or perfetto, not %q%s", typ, nsysx.Suggest(typ, []string{"parquet", "arrow", "perfetto"}))
	}
	return nil
}
