#!/usr/bin/env python3
"""Benchmark: `pith number` over 100,000 canonical records against a Python reference doing the
same work (parse JSON, canonical json.dumps, SHA-256, base32). Prints a table of medians.

Usage: python3 bench/number.py [--records N] [--runs R]
Builds pith in release mode first (cargo build --release); PITH_BIN=path uses that binary instead.
"""
import argparse, base64, hashlib, json, os, random, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

REFERENCE = r'''
import sys, json, hashlib, base64
out = []
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    b = json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    d = hashlib.sha256(b).digest()
    out.append("pith:%s:%s" % (r["metadata"]["submitted_at"][:4], base64.b32encode(d).decode()[:26]))
sys.stdout.write("\n".join(out) + "\n")
'''

def make_records(path, n):
    seeds = [v["canonical_record"] for v in json.load(open(os.path.join(ROOT, "tests/data/records.json")))]
    rnd = random.Random(42)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            r = json.loads(json.dumps(seeds[i % len(seeds)]))
            # Ids arXiv can issue: YYMM.NNNNN from January 2015, numbered from 00001.
            r["source"]["id"] = "%02d%02d.%05d" % (rnd.randint(15, 25), rnd.randint(1, 12), i % 99999 + 1)
            r["metadata"]["title_canon_sha256"] = hashlib.sha256(str(i).encode()).hexdigest()
            f.write(json.dumps(r, ensure_ascii=False) + "\n")

def timed(cmd, runs):
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True).stdout
        times.append(time.perf_counter() - t)
    return statistics.median(times), out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    pith = os.environ.get("PITH_BIN")
    if not pith:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        pith = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "pith")
    with tempfile.TemporaryDirectory() as d:
        recs = os.path.join(d, "records.jsonl")
        make_records(recs, a.records)
        ref = os.path.join(d, "ref.py")
        open(ref, "w").write(REFERENCE)
        t_pith, out_pith = timed([pith, "number", "--jsonl", recs], a.runs)
        t_py, out_py = timed([sys.executable, ref, recs], a.runs)
        if out_pith != out_py:
            sys.exit("outputs differ: the benchmark is invalid")
        print(f"pith number over {a.records:,} records, median of {a.runs} runs (outputs identical)\n")
        print("| tool | median s | records/s | ratio vs pith |")
        print("|---|---:|---:|---:|")
        for name, t in [("pith number --jsonl", t_pith), ("Python json.dumps + hashlib", t_py)]:
            print(f"| {name} | {t:.3f} | {a.records / t:,.0f} | {t / t_pith:.2f}x |")

if __name__ == "__main__":
    main()
