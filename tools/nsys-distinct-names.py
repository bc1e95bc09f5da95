#!/usr/bin/env python3
"""Give a tiled Nsight Systems SQLite export the NVTX name cardinality of a real capture.

usage: nsys-distinct-names.py FILE.sqlite

PyTorch's autograd annotation (`--pytorch=autograd-nvtx`) names every operator call
apart: `aten::select, seq = 985, op_id = 15424`, where op_id counts the calls of the
whole run. A profile tiled with nsys-tile.py repeats its input's op_ids in every
copy, so a long capture's million distinct names become a few thousand. This rewrites,
in place, the op_id of every NVTX range whose inline text carries one to a number of its
own (a count over the table in rowid order, after the input's largest op_id), so that
every such range has a name no other range has, as in a capture of that length. Other
texts (`forward`, `iteration 5`, registered strings) are left as they are.
"""
import re, sqlite3, sys


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    db = sqlite3.connect(sys.argv[1])
    op = re.compile(r"^(.*op_id = )(\d+)$")
    rows = db.execute("select rowid, text from NVTX_EVENTS where text like '%op_id = %' order by rowid")
    base = 0
    matched = []
    for rowid, text in rows:
        m = op.match(text)
        if m:
            matched.append((rowid, m.group(1)))
            base = max(base, int(m.group(2)))
    db.executemany(
        "update NVTX_EVENTS set text = ? where rowid = ?",
        ((f"{prefix}{base + 1 + k}", rowid) for k, (rowid, prefix) in enumerate(matched)),
    )
    db.commit()
    n, d = db.execute("select count(*), count(distinct text) from NVTX_EVENTS").fetchone()
    print(f"{sys.argv[1]}: {len(matched)} op_ids renumbered; {n} NVTX rows, {d} distinct texts", file=sys.stderr)


if __name__ == "__main__":
    main()
