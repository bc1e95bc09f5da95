"""Notebook 09: results as tables (the table API of *nsysx.Result)."""
from nbcells import P, exercises, go, md

TABLES = [
        md("# 09 · Results as tables\n\n"
           "Every report is a `*nsysx.Result`: typed columns that sort, filter, group and join like a data frame. "
           "Each method returns a new result (the receiver is unchanged), so calls chain; a mistake (an unknown "
           "column, operator or aggregation) is an error naming the closest valid name, shown in place of the table. "
           "Two ranks of a data-parallel job, `rank0` and `rank1`."),
        go("%open " + P + "rank0.sqlite.gz\n%open " + P + "rank1.sqlite.gz\n"
           'k, _ := rank0.Stats(ctx, "cuda_gpu_kern_sum")\nk.Columns()'),
        md("The columns, their nsys unit tags and types (`Schema`):"),
        go("k.Schema()"),
        md("`Sort` by one or more columns (`-` for descending), `Select` columns, `Head` and `Tail`:"),
        go('k.Sort("-Avg", "Name").Select("Name", "Instances", "Avg").Head(5)'),
        go('k.Sort("Instances").Select("Name", "Instances").Tail(3)'),
        md("`Where` with a column, an operator (`==` `!=` `<` `<=` `>` `>=` `contains` `startswith` `endswith` `matches`) "
           "and a value; `Filter` with any Go predicate over a `Row`:"),
        go('k.Where("Name", "startswith", "nccl").Where("Instances", ">=", 100).Select("Name", "Instances", "Total Time")'),
        go('k.Filter(func(row nsysx.Row) bool {\n\treturn row.Float("Max") > 4*row.Float("Med")\n}).Select("Name", "Med", "Max")'),
        md("`GroupBy` and `Agg` (`count`, `sum`, `mean`, `min`, `max`, `median`, `std`, `first`, `last`; "
           "`as` renames): the kernels of the GPU trace per stream. Durations keep their unit."),
        go('tr, _ := rank0.Stats(ctx, "cuda_gpu_trace")\n'
           'tr.Where("GrdX", "!=", nil).GroupBy("Strm").Agg("count(*) as Kernels", "sum(Duration) as Busy", "median(Duration)", "max(Duration)")'),
        md("`Join` two results on key columns: rank 0 against rank 1, kernel by kernel. Columns both sides have get the "
           "profile's name; `LeftJoin` and `OuterJoin` keep unmatched rows."),
        go('k1, _ := rank1.Stats(ctx, "cuda_gpu_kern_sum")\n'
           'k.Join(k1, "Name").Select("Name", "Total Time (rank0)", "Total Time (rank1)").Head(5)'),
        go('top := k1.Sort("-Total Time").Head(10)     // rank 1\'s ten longest kernels\n'
           'fmt.Println(k.Join(top, "Name").Len(), k.LeftJoin(top, "Name").Len(), top.OuterJoin(k.Head(5), "Name").Len())'),
        md("Typed access to cells and whole columns, and an Arrow record batch for Arrow tools:"),
        go('avg := k.Col("Avg")\n'
           'fmt.Println(avg.Float(0), k.Col("Instances").Int(0), k.Col("Name").String(0))\n'
           'fmt.Println(len(avg.Floats()), k.Col("Instances").Ints()[:3], len(k.Col("Name").Strings()))\n'
           "rec, _ := format.Record(k)\n"
           'fmt.Println(rec.NumRows(), "rows,", rec.NumCols(), "columns:", rec.ColumnName(1))'),
        md("Mistakes are errors, never `nil` or a panic:"),
        go('k.Sort("Avgg")'),
        go('_, err := k.Column("Totl Time")\nerr'),
        md("`%%sql` reads results by their variable names, beside the profile's own tables (read-only):"),
        go('%%sql\nSELECT "Name", "Instances", "Avg" FROM k WHERE "Instances" >= 200 ORDER BY "Avg" DESC LIMIT 5'),
        md("Outputs of several profiles say which profile each is:"),
        go("%nsys stats -r cuda_api_sum rank0 rank1"),
    exercises([
        ("Which three kernels of rank 1 have the largest maximum instance time, and what is their median?",
         'k1.Sort("-Max").Select("Name", "Med", "Max").Head(3)'),
        ("How many kernel names run on rank 0 but not on rank 1?",
         'fmt.Println(k.OuterJoin(k1, "Name").Where("Total Time (rank1)", "==", nil).Len())'),
    ], "**Next:** `10_what_to_fix_first.ipynb` puts the analyses together: one ranked answer to what to fix first."),
]
