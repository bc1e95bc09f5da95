package frontend

import (
	"time"

	"github.com/nsysx/nsysx/nsysx"
)

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
		return Usagef("-t must be parquet, arrow, perfetto or pprof, not %q%s", typ, nsysx.Suggest(typ, []string{"parquet", "arrow", "perfetto", "pprof"}))
	}
	return nil
}

// ExportTimeout reads --export-timeout (see ParseTimeout); 0 when not
// given, which leaves the library's default ($NSYSX_EXPORT_TIMEOUT, whose
// bad value is refused here as a bad flag is).
func ExportTimeout(p *Parsed) (time.Duration, error) {
	if !p.Has("--export-timeout") {
		if _, err := nsysx.ExportTimeoutEnv(); err != nil {
			return 0, Usagef("%v", err)
		}
		return 0, nil
	}
	return ParseTimeout(p.Last("--export-timeout"))
}

// ParseTimeout reads the value of --export-timeout: a Go duration such as
// 90s or 1h; 0 means no limit.
func ParseTimeout(val string) (time.Duration, error) {
	d, err := time.ParseDuration(val)
	if err != nil || d < 0 {
		return 0, Usagef("--export-timeout: %q is not a duration such as 90s, 10m or 1h", val)
	}
	return d, nil
}
