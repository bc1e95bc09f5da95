package frontend

// The flag sets of `nsysx stats`, `nsysx analyze` and `nsysx export`, which
// the kernel's %nsys magics take too (with notebook wording for a few helps,
// see WithHelp). Each call returns a fresh copy.

// Stats is the flags of `nsysx stats`.
func Stats() []Flag { return runFlags(false) }

// Analyze is the flags of `nsysx analyze`: nsys spells the rule flag
// -r/--rule; --report is accepted too.
func Analyze() []Flag { return runFlags(true) }

// runFlags is the flags of stats (rules false) or analyze (rules true), one
// frame in one order with each command's wording; --filter-time and
// --filter-nvtx are stats's alone.
func runFlags(rules bool) []Flag {
	// say picks stats's wording or analyze's.
	say := func(stats, analyze string) string {
		if rules {
			return analyze
		}
		return stats
	}
	what, run := "report", []string{"-r", "--report"}
	if rules {
		what, run = "rule", append(run, "--rule")
	}
	flags := []Flag{
		{Names: run, Value: true, Help: say("report[:option...][,...]: reports to run (default: nsys's default set)",
			"rule[:option...][,...]: rules to run, or all (default)")},
		{Names: []string{"-f", "--format"}, Value: true, Help: say(
			"format[:option...][,...]: column (console default), table, csv (file default), tsv, json, hdoc, htable, arrow, parquet",
			"format[:option...][,...]: column (console default, with advice text), table, csv, tsv, json, hdoc, htable, arrow, parquet")},
		{Names: []string{"-o", "--output"}, Value: true, Help: say(
			"output[,...]: - for the console (default), BASE for files BASE_<report>.<ext>, . for the input's name, @CMD to pipe",
			"output[,...]: - for the console (default), BASE for files BASE_<rule>.<ext>, . for the input's name")},
		{Names: []string{"-q", "--quiet"}, Help: say("print only report output (no Processing lines, nothing for SKIPPED reports)",
			"print only rule output")},
		forceExportFlag(),
		exportTimeoutFlag(),
		overwriteFlag(),
		{Names: []string{"--timeunit"}, Value: true, Help: say("nsec|usec|msec|seconds (a prefix is enough): time unit in every format",
			"nsec|usec|msec|seconds: time unit in every format")},
	}
	if !rules {
		flags = append(flags,
			Flag{Names: []string{"--filter-time"}, Value: true, Help: "[start]/[end]: keep events overlapping this window (units ns, us, ms, s, m, h)"},
			Flag{Names: []string{"--filter-nvtx"}, Value: true, Help: "range[@domain][/index]: keep events inside the index-th (0-based) NVTX range of that name"})
	}
	return append(flags,
		Flag{Names: []string{"--help-" + what + "s"}, Optional: true, Help: "[name|ALL]: list " + what + "s, or describe one"},
		helpFormatsFlag(),
		Flag{Names: []string{"--sample"}, Help: say("run on the sample profile built into nsysx (a real H200 capture of sync.cu)",
			"run on the sample profile built into nsysx")},
		helpFlag())
}

// Export is the flags of `nsysx export`.
func Export() []Flag {
	return []Flag{
		{Names: []string{"-t", "--type"}, Value: true, Help: "parquet or arrow (raw tables, one file per table), perfetto (the timeline as one Chrome/Perfetto JSON trace) or pprof (GPU kernel time by launching call stack, BASE.pb.gz)"},
		{Names: []string{"--tables"}, Value: true, Help: "REGEX: parquet/arrow: export only tables whose names match (default: all)"},
		{Names: []string{"-o", "--output"}, Value: true, Help: "DIR for parquet/arrow (created if missing); BASE for perfetto (writes BASE.json, or BASE.json.gz) and pprof (writes BASE.pb.gz)"},
		{Names: []string{"--gzip"}, Help: "perfetto: write BASE.json.gz (also when BASE ends in .gz)"},
		{Names: []string{"--filter-time"}, Value: true, Help: "[start]/[end]: perfetto: keep events overlapping this window (units ns, us, ms, s, m, h)"},
		{Names: []string{"--filter-nvtx"}, Value: true, Help: "range[@domain][/index]: perfetto: keep the events nsys stats keeps for that NVTX range"},
		forceExportFlag(),
		exportTimeoutFlag(),
		{Names: []string{"--force-overwrite"}, Help: "parquet/arrow: replace a DIR that is not empty (one nsysx or nsys wrote); perfetto/pprof: replace an existing file"},
		{Names: []string{"-q", "--quiet"}, Help: "no progress display or summary line"},
		{Names: []string{"--sample"}, Help: "export the sample profile built into nsysx"},
		helpFlag(),
	}
}

// WithHelp returns defs with the help of the flag spelled name replaced.
func WithHelp(defs []Flag, name, help string) []Flag {
	if d := find(defs, name); d != nil {
		d.Help = help
	}
	return defs
}

// The flags several sets share, each spelled and explained once.

func forceExportFlag() Flag {
	return Flag{Names: []string{"--force-export"}, Help: "re-export a .nsys-rep even if a fresh .sqlite exists"}
}

func exportTimeoutFlag() Flag {
	return Flag{Names: []string{"--export-timeout"}, Value: true, Help: ExportTimeoutHelp}
}

func overwriteFlag() Flag {
	return Flag{Names: []string{"--force-overwrite"}, Help: "overwrite existing output files"}
}

func helpFormatsFlag() Flag {
	return Flag{Names: []string{"--help-formats"}, Optional: true, Help: "[name|ALL]: list formats, or describe one"}
}

func helpFlag() Flag { return Flag{Names: []string{"-h", "--help"}, Help: "show this help"} }

// ExportTimeoutHelp is the help of --export-timeout.
const ExportTimeoutHelp = "DURATION (90s, 10m, 1h): stop `nsys export` of a .nsys-rep after this long (default: $NSYSX_EXPORT_TIMEOUT, else no limit)"
