#!/usr/bin/env python3
"""pqdiff.py WANT_DIR GOT_DIR: the same Parquet files with equal schemas,
pandas metadata (but the writer's name) and values, read with pyarrow (the
library nsys's recipes write with). Used by scripts/bench-recipes.sh where
pyarrow is installed; nsysx's own tests use internal/pqcompare."""
import glob, json, os, sys
import pyarrow.parquet as pq

def names(d):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.parquet")))

def meta(t):
    m = json.loads(t.schema.metadata[b"pandas"])
    m.pop("creator", None)
    return m

want, got = sys.argv[1], sys.argv[2]
if names(want) != names(got) or not names(want):
    sys.exit("files differ: %s vs %s" % (names(want), names(got)))
for n in names(want):
    a, b = pq.read_table(os.path.join(want, n)), pq.read_table(os.path.join(got, n))
    if a.schema.remove_metadata() != b.schema.remove_metadata():
        sys.exit("%s: schema %s vs %s" % (n, a.schema.remove_metadata(), b.schema.remove_metadata()))
    if meta(a) != meta(b):
        sys.exit("%s: pandas metadata differs" % n)
    if not a.equals(b):
        sys.exit("%s: values differ" % n)
