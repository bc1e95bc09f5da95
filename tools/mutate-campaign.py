#!/usr/bin/env python3
"""Adversarial input campaign: mutate real exports, run nsysx on each, classify.

    python3 tools/mutate-campaign.py BIN N OUTDIR [PROFILE.sqlite.gz ...]

Makes N mutated copies of the given profiles (default: testdata/profiles/*.sqlite.gz):
bit flips, page swaps (interior <-> leaf included), a page zeroed, a page copied over
another, truncation, header edits (page size, text encoding). Each copy goes through
stats, analyze, recipe, export -t parquet and plot, each under a timeout. Every run is
classified:

  ok          exit 0
  clean       non-zero exit, one line on stderr, no panic text
  messy       non-zero exit with more than one line on stderr (not a crash)
  crash       a Go panic / fatal error / killed by a signal
  hang        still running at the timeout
  modified    the input's bytes changed (never allowed)

Answers are checked against SQLite itself (python's sqlite3): for a stats run that
exits 0, the kernel count nsysx prints (cuda_gpu_kern_sum's Instances summed) must
equal SQLite's COUNT(*) of CUPTI_ACTIVITY_KIND_KERNEL when SQLite can read that table,
and where PRAGMA integrity_check fails, an exit 0 whose count differs from the
undamaged profile's is reported as a silent wrong answer.

A development tool (python's sqlite3 is the independent reference); the Go tests and
fuzzers are what CI runs.
"""
import csv
import glob
import gzip
import hashlib
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TIMEOUT = 60


def page_size(b):
    ps = int.from_bytes(b[16:18], "big")
    return 65536 if ps == 1 else ps


def mutate(base, rng):
    b = bytearray(base)
    ps = page_size(b)
    npages = len(b) // ps
    kind = rng.choice(["flip", "flip", "flip", "swap", "swap", "zero", "copy", "trunc", "header"])
    desc = kind
    if kind == "flip":
        k = rng.randint(1, 8)
        offs = [rng.randrange(100, len(b)) for _ in range(k)]
        for o in offs:
            b[o] ^= 1 << rng.randrange(8)
        desc = "flip@" + ",".join(map(str, offs[:3]))
    elif kind in ("swap", "copy"):
        p, q = rng.sample(range(2, npages + 1), 2)
        P, Q = (p - 1) * ps, (q - 1) * ps
        a, c = bytes(b[P:P + ps]), bytes(b[Q:Q + ps])
        b[Q:Q + ps] = a
        if kind == "swap":
            b[P:P + ps] = c
        desc = f"{kind}{p}-{q}"
    elif kind == "zero":
        p = rng.randrange(2, npages + 1)
        b[(p - 1) * ps:p * ps] = bytes(ps)
        desc = f"zero{p}"
    elif kind == "trunc":
        n = rng.randrange(100, len(b))
        del b[n:]
        desc = f"trunc{n}"
    else:
        field = rng.choice(["pagesize", "encoding", "pagecount", "freelist"])
        if field == "pagesize":
            b[16:18] = rng.choice([0, 3, 512, 1000, 65535]).to_bytes(2, "big")
        elif field == "encoding":
            b[56:60] = rng.choice([2, 3, 7]).to_bytes(4, "big")
        elif field == "pagecount":
            b[28:32] = rng.randrange(0, 1 << 31).to_bytes(4, "big")
        else:
            b[32:36] = rng.randrange(0, npages * 2).to_bytes(4, "big")
        desc = "header-" + field
    return bytes(b), desc


def sqlite_kernels(path):
    """(integrity ok?, kernel count or None) as SQLite itself sees the file."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            ok = con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        except sqlite3.DatabaseError:
            ok = False
        try:
            n = con.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
        except sqlite3.DatabaseError:
            n = None
        names = []
        for col in ("shortName", "demangledName"):
            try:
                names.append(dict(con.execute(
                    f"SELECT s.value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                    f"JOIN StringIds s ON k.{col} = s.id GROUP BY 1").fetchall()))
            except sqlite3.DatabaseError:
                pass
        con.close()
        return ok, n, names
    except sqlite3.DatabaseError:
        return False, None, []


def kern_count(csv_text):
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    n = sum(int(r["Instances"]) for r in rows if r.get("Instances", "").isdigit())
    names = {}
    for r in rows:
        if r.get("Instances", "").isdigit():
            names[r.get("Name", "")] = names.get(r.get("Name", ""), 0) + int(r["Instances"])
    return n, names


def run(bin_, args, cwd):
    try:
        p = subprocess.run([bin_] + args, cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT, errors="replace")
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = p.stderr.strip()
    if p.returncode < 0 or "panic:" in err or "fatal error:" in err or "goroutine " in err:
        return "crash", err[:400]
    if p.returncode == 0:
        return "ok", p.stdout
    lines = [l for l in err.splitlines() if l.strip()]
    return ("clean" if len(lines) == 1 else "messy"), err[:400]


def one(job):
    bin_, i, path, desc, good_count, work = job
    d = os.path.join(work, f"m{i}")
    os.makedirs(d)
    inp = os.path.join(d, "in.sqlite")
    shutil.copy(path, inp)
    h0 = hashlib.sha256(open(inp, "rb").read()).hexdigest()
    integ, sq_n, sq_names = sqlite_kernels(inp)
    cmds = {
        "stats": ["stats", "-q", "-f", "csv", "-r", "cuda_gpu_kern_sum", inp],
        "analyze": ["analyze", "-q", "-r", "all", inp],
        "recipe": ["recipe", "cuda_gpu_kern_sum", "--input", inp, "--output", os.path.join(d, "rec")],
        "export": ["export", "-t", "parquet", "-o", os.path.join(d, "pq"), inp],
        "plot": ["plot", "gpu-util", "-o", os.path.join(d, "u.png"), inp],
    }
    res = {"i": i, "mutation": desc, "integrity_ok": integ, "sqlite_kernels": sq_n}
    for name, a in cmds.items():
        cls, out = run(bin_, a, d)
        res[name] = cls
        if cls in ("crash", "hang", "messy"):
            res[name + "_detail"] = out
        if name == "stats" and cls == "ok":
            n, names = kern_count(out)
            res["nsysx_kernels"] = n
            if sq_names and names not in sq_names:
                res["silent_wrong"] = "kernel names or per-name counts differ from SQLite's join with StringIds"
            if sq_n is not None and n != sq_n:
                res["silent_wrong"] = f"nsysx {n} kernels, SQLite {sq_n}"
            elif sq_n is None and not integ and n != good_count:
                res["silent_wrong"] = f"nsysx {n} kernels where SQLite cannot read the table (undamaged: {good_count})"
            elif not integ and n != good_count and sq_n == n:
                # SQLite's own query agrees with us but the file is damaged: a shrunk table
                res["silent_wrong"] = f"damaged file (integrity_check), {n} kernels like SQLite's query, undamaged {good_count}"
    if hashlib.sha256(open(inp, "rb").read()).hexdigest() != h0:
        res["modified"] = True
    shutil.rmtree(d, ignore_errors=True)
    return res


def main():
    bin_, n, outdir = os.path.abspath(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    profs = sys.argv[4:] or sorted(glob.glob("testdata/profiles/*.sqlite.gz"))
    os.makedirs(outdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="nsysx-mut-")
    rng = random.Random(int(os.environ.get("SEED", "29")))
    bases = []
    for p in profs:
        data = gzip.open(p).read() if p.endswith(".gz") else open(p, "rb").read()
        base = os.path.join(work, os.path.basename(p).replace(".gz", ""))
        open(base, "wb").write(data)
        bases.append((base, data, sqlite_kernels(base)[1]))
        assert sqlite_kernels(base)[2], "no kernel names from SQLite for " + p
    jobs = []
    for i in range(n):
        base, data, good = bases[i % len(bases)]
        m, desc = mutate(data, rng)
        path = os.path.join(work, f"in{i}.sqlite")
        open(path, "wb").write(m)
        jobs.append((bin_, i, path, os.path.basename(base) + ":" + desc, good, work))
    results = []
    with ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as ex:
        for r in ex.map(one, jobs):
            results.append(r)
            os.remove(jobs[r["i"]][2])
            if len(results) % 25 == 0:
                print(f"{len(results)}/{n}", file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(outdir, "results.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    tally = {}
    for r in results:
        for c in ("stats", "analyze", "recipe", "export", "plot"):
            tally.setdefault(c, {}).setdefault(r[c], 0)
            tally[c][r[c]] += 1
    print(f"{n} mutated inputs x 5 commands = {5 * n} runs")
    for c, t in tally.items():
        print(f"  {c:8s} " + ", ".join(f"{k} {v}" for k, v in sorted(t.items())))
    bad = [r for r in results if r.get("modified") or r.get("silent_wrong") or
           any(r[c] in ("crash", "hang") for c in ("stats", "analyze", "recipe", "export", "plot"))]
    print(f"crashes/hangs/modified inputs/silent wrong answers: {len(bad)}")
    for r in bad:
        print("  ", json.dumps(r)[:600])


if __name__ == "__main__":
    main()
