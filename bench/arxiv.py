#!/usr/bin/env python3
"""Benchmark: numbering arXiv bulk metadata, and batch matching by arXiv id.

    cargo build --release && python3 bench/arxiv.py [--sizes 10000,100000,1000000] [--pdfs 1000]

Part 1, snapshot throughput. Generates realistic snapshot lines (bench/arxiv_gen.py) and runs,
side by side on the same file: `wc -l` and `cat > /dev/null` (the ceiling: reading the file),
`pith number --arxiv-snapshot` (plain and gzip input) and the straightforward Python reference
(bench/arxiv_reference.py: json + hashlib, one core). Reports seconds, records/s, MB/s and peak
RSS (GNU time), median of --runs runs; checks that pith's output equals the reference's.

Part 2, batch. --pdfs PDFs from the shared corpus named as arXiv names them after ids of the
100k-line file; `pith batch --dir` with NAME.pith sidecars (numbers given) against
`pith batch --dir --arxiv-metadata snapshot` (numbers from the metadata pass), both --out-dir.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PITH = Path(os.environ.get("PITH_BIN", ROOT / "target/release/pith"))


def timed(cmd, stdout=subprocess.DEVNULL, stdin=None):
    """(wall seconds, CPU seconds (user + system), peak RSS MB) of one run under GNU time."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + cmd, stdout=stdout, stdin=stdin,
                       stderr=subprocess.PIPE, text=True)
    last = r.stderr.strip().splitlines()[-1]
    secs, user, system, kb = last.split()
    if r.returncode not in (0,):
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(map(str, cmd)), r.stderr[-2000:]))
    return float(secs), float(user) + float(system), int(kb) / 1024


def median_run(cmd, runs):
    res = [timed(cmd) for _ in range(runs)]
    return (statistics.median(r[0] for r in res), statistics.median(r[1] for r in res),
            max(r[2] for r in res))


def gen(path, n):
    if path.exists():
        return
    with open(path, "w") as f:
        subprocess.run([sys.executable, str(ROOT / "bench/arxiv_gen.py"), str(n)], stdout=f, check=True)


def part1(work, sizes, runs, python_max):
    print("## Snapshot throughput\n")
    print("| lines | MB | tool | median s | records/s | MB/s | CPU s | peak RSS MB | vs Python (wall) | vs Python (CPU) |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        snap = work / ("snap-%d.jsonl" % n)
        gen(snap, n)
        gz = work / ("snap-%d.jsonl.gz" % n)
        if not gz.exists():
            with open(gz, "wb") as f:
                subprocess.run(["gzip", "-c", "-6", str(snap)], stdout=f, check=True)
        mb = snap.stat().st_size / 1e6
        # Correctness first: pith's lines equal the reference's (checked up to 100k lines, to
        # keep the run short; tests/arxiv.rs checks the same property on every CI run).
        if n <= 100000:
            a = subprocess.run([str(PITH), "number", "--arxiv-snapshot", str(snap)], capture_output=True, check=True).stdout
            b = subprocess.run([sys.executable, str(ROOT / "bench/arxiv_reference.py"), str(snap)], capture_output=True, check=True).stdout
            assert a == b, "pith and the Python reference differ on %s" % snap
        rows = [
            ("wc -l", ["wc", "-l", str(snap)]),
            ("cat > /dev/null", ["cat", str(snap)]),
            ("pith number --arxiv-snapshot", [str(PITH), "number", "--arxiv-snapshot", str(snap)]),
            ("pith number, gzip input", [str(PITH), "number", "--arxiv-snapshot", str(gz)]),
            ("Python reference (json + hashlib)", [sys.executable, str(ROOT / "bench/arxiv_reference.py"), str(snap)]),
        ]
        if n > python_max:
            rows = rows[:-1]  # the reference alone would take most of the run
        results = [(name, *median_run(cmd, runs)) for name, cmd in rows]
        py, pycpu = (results[-1][1], results[-1][2]) if n <= python_max else (float("nan"), float("nan"))
        for name, secs, cpu, rss in results:
            rate = n / secs if secs > 0 else float("inf")
            print("| %d | %.0f | %s | %.3f | %s | %s | %.2f | %.0f | %s | %s |" % (
                n, mb, name, secs, "%.0f" % rate if secs > 0 else "-", "%.0f" % (mb / secs) if secs > 0 else "-",
                cpu, rss, "%.1fx" % (py / secs) if secs > 0 and py == py else "-",
                "%.1fx" % (pycpu / cpu) if cpu > 0 and pycpu == pycpu else "-"))
    print()


def part2(work, npdfs, runs, meta_sizes):
    print("## Batch: %d PDFs, numbers from sidecars vs from --arxiv-metadata\n" % npdfs)
    corpus = ROOT / "../shared/corpus"
    pdfs = sorted(corpus.rglob("*.pdf"))[:npdfs]
    if len(pdfs) < npdfs:
        sys.exit("the shared corpus has only %d PDFs" % len(pdfs))
    # The papers: every tenth line of the 10,000-line file, which is also the start of the
    # larger files (same generator, same seed), so every metadata file holds all of them.
    small = work / "snap-10000.jsonl"
    gen(small, 10000)
    numbers = subprocess.run([str(PITH), "number", "--arxiv-snapshot", str(small)],
                             capture_output=True, check=True).stdout.decode().splitlines()
    import json
    step = max(1, len(numbers) // npdfs)
    chosen = [json.loads(l) for l in numbers][::step][:npdfs]
    side, meta = work / "batch-sidecars", work / "batch-arxiv"
    for d in (side, meta):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
    total = 0
    for src, rec in zip(pdfs, chosen):
        # Old-style ids go in their archive's directory: hep-th/9901001v1.pdf.
        name = "%sv%d" % (rec["id"], rec["version"])
        for d in (side, meta):
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, d / (name + ".pdf"))
        (side / (name + ".pith")).write_text(rec["number"] + "\n")
        total += src.stat().st_size
    print("%d PDFs from the shared corpus, %.0f MB in all\n" % (len(chosen), total / 1e6))
    print("| run | metadata | median s | CPU s | peak RSS MB | vs sidecars |")
    print("|---|---|---:|---:|---:|---:|")
    configs = [("pith batch --dir, NAME.pith sidecars", side, None)]
    for n in meta_sizes:
        f = work / ("snap-%d.jsonl" % n)
        gen(f, n)
        configs.append(("pith batch --dir --arxiv-metadata", meta, f))
    res, lines = [], []
    for name, src, f in configs:
        times, cpus, rss = [], [], 0
        for _ in range(runs):
            out = work / "batch-out"
            shutil.rmtree(out, ignore_errors=True)
            cmd = [str(PITH), "batch", "--dir", str(src), "--out-dir", str(out),
                   "--report", str(work / "report.jsonl")]
            if f is not None:
                cmd += ["--arxiv-metadata", str(f)]
            r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + cmd, stderr=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, text=True)
            secs, user, system, kb = r.stderr.strip().splitlines()[-1].split()
            times.append(float(secs))
            cpus.append(float(user) + float(system))
            rss = max(rss, int(kb) / 1024)
            lines = [l for l in r.stderr.splitlines() if "arXiv metadata:" in l] or lines
        what = "-" if f is None else "%s (%.0f MB)" % (f.name, f.stat().st_size / 1e6)
        res.append((name, what, statistics.median(times), statistics.median(cpus), rss, lines[-1:] if f else []))
    base = res[0][2]
    for name, what, secs, cpu, rss, _ in res:
        print("| %s | %s | %.3f | %.2f | %.0f | %+.1f%% |" % (name, what, secs, cpu, rss, 100 * (secs - base) / base))
    print()
    for r in res:
        for l in r[5]:
            print("    " + l)
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--pdfs", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "pith-bench-arxiv"))
    ap.add_argument("--skip-batch", action="store_true")
    ap.add_argument("--skip-snapshot", action="store_true")
    ap.add_argument("--batch-metadata", default="10000,100000,1000000",
                    help="metadata files (lines) to run the batch with")
    ap.add_argument("--python-max", type=int, default=100000,
                    help="largest input the Python reference runs on")
    a = ap.parse_args()
    if not PITH.exists():
        sys.exit("build first: cargo build --release")
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    print("# pith arXiv bulk metadata benchmark (%d cores)\n" % os.cpu_count())
    if not a.skip_snapshot:
        part1(work, [int(x) for x in a.sizes.split(",")], a.runs, a.python_max)
    if not a.skip_batch:
        part2(work, a.pdfs, a.runs, [int(x) for x in a.batch_metadata.split(",")])


if __name__ == "__main__":
    main()
