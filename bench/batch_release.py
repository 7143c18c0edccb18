#!/usr/bin/env python3
"""`pith batch` against the previous release and against `cp -r` + `sync`, side by side.

Builds the previous release (a git ref, default 14dff7b) in a temporary `git worktree` with
`cargo build --release`, and this tree's release binary. Takes COUNT real PDFs (a fixed
selection: every file's path sorted, then evenly spaced), copies them into a source tree with
a `NAME.pith` sidecar beside each, and times, in alternating order over several rounds:

- `pith batch --dir SRC --out-dir OUT --report R` of the old binary and of the new one (the
  README's usage, with no flag the old release lacks, so both do the same work);
- `cp -r SRC OUT && sync`, the floor for writing the same bytes as new files, durably (pith
  syncs each output before it renames it into place).

Each run writes into a fresh directory, after a sync, so no run pays for another's writeback.
Prints the median wall time of each, the ratios new/old and new/(cp -r + sync), and the peak
RSS (GNU time). Then checks that both binaries report the same status (injected, unchanged,
refused...) for every file, in every round, and names the files where they differ.

PDFs come from --corpus, else $PITH_CORPUS, else the shared corpus (/work/shared/corpus), else
the TeX Live documentation (/usr/share/doc/texlive-doc, /usr/share/texlive/texmf-dist/doc).
PITH_OLD_BIN and PITH_BIN use already built binaries instead of building.

Leave a minute between runs, and delete nothing on the same file system meanwhile: ext4
without a journal (this project's development machines) passes over every inode freed in the
last minute (five, while unsynced) each time it creates a file, at a cost per inode passed, and
this bench frees its outputs as it ends. Right after a deletion `cp -r` + `sync` took 35-55 ms
here instead of 15-18 ms (it creates twice as many files as pith: it copies the sidecars too).

Requirements: git, cargo, GNU time (/usr/bin/time). Not a timed test; run by hand:
    python3 bench/batch_release.py [REF] [--count 200] [--runs 5] [--corpus DIR] [--work DIR]
"""
import argparse, collections, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
TEXLIVE_DOCS = ["/usr/share/doc/texlive-doc", "/usr/share/texlive/texmf-dist/doc"]


def target_dir():
    return os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


def new_bin():
    if os.environ.get("PITH_BIN"):
        return os.environ["PITH_BIN"]
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "pith"], cwd=ROOT, check=True)
    return os.path.join(target_dir(), "release", "pith")


def old_bin(ref):
    """The release binary of `ref`, built once in a temporary worktree and kept under
    target/bench-release/ (its own target directory, so this tree's build is left alone)."""
    if os.environ.get("PITH_OLD_BIN"):
        return os.environ["PITH_OLD_BIN"]
    commit = subprocess.run(["git", "rev-parse", "--verify", ref + "^{commit}"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.strip()
    keep = os.path.join(ROOT, "target", "bench-release")
    binary = os.path.join(keep, "pith-" + commit[:12])
    if os.path.exists(binary):
        return binary
    os.makedirs(keep, exist_ok=True)
    tree = tempfile.mkdtemp(prefix="pith-release-")
    os.rmdir(tree)
    subprocess.run(["git", "worktree", "add", "--detach", tree, commit], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    try:
        env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(keep, "target"))
        print("bench: building %s (release) in %s" % (commit[:12], tree), file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "pith"], cwd=tree,
                       env=env, check=True)
        shutil.copy(os.path.join(keep, "target", "release", "pith"), binary)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT, check=False)
    return binary


def corpus_pdfs(corpus):
    roots = [corpus] if corpus else []
    if not roots and os.environ.get("PITH_CORPUS"):
        roots = [os.environ["PITH_CORPUS"]]
    if not roots and os.path.isdir("/work/shared/corpus"):
        roots = ["/work/shared/corpus"]
    if not roots:
        roots = [d for d in TEXLIVE_DOCS if os.path.isdir(d)]
    pdfs = []
    for r in roots:
        for d, _, fs in os.walk(r):
            pdfs += [os.path.join(d, f) for f in fs if f.lower().endswith(".pdf")
                     and os.path.isfile(os.path.join(d, f))]
    return roots, sorted(pdfs)


def make_source(pdfs, count, src):
    """COUNT files evenly spaced over the sorted list, in directories of 50, each with its
    NAME.pith sidecar. The same corpus always gives the same selection."""
    if len(pdfs) < count:
        raise SystemExit("bench: only %d PDFs found, %d wanted" % (len(pdfs), count))
    chosen = [pdfs[i * len(pdfs) // count] for i in range(count)]
    shutil.rmtree(src, ignore_errors=True)
    for i, p in enumerate(chosen):
        d = os.path.join(src, "%02d" % (i // 50))
        os.makedirs(d, exist_ok=True)
        shutil.copy(p, os.path.join(d, "f%03d.pdf" % i))
        with open(os.path.join(d, "f%03d.pith" % i), "w") as f:
            f.write(NUMBER + "\n")
    return chosen, sum(os.path.getsize(p) for p in chosen)


def statuses(report):
    """{pdf: status} of a batch report (JSON Lines; the summary line left out)."""
    out = {}
    with open(report) as f:
        for line in f:
            row = json.loads(line)
            if "pdf" in row:
                out[os.path.relpath(row["pdf"], os.path.dirname(os.path.dirname(report)))] = row["status"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", nargs="?", default="14dff7b", help="the previous release (a git ref)")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5, help="rounds; the median is reported")
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        raise SystemExit("bench: GNU time (/usr/bin/time) is required")

    old, new = old_bin(a.ref), new_bin()
    roots, pdfs = corpus_pdfs(a.corpus)
    work = a.work or tempfile.mkdtemp(prefix="pith-batch-release-", dir=os.environ.get("TMPDIR", "/var/tmp"))
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "src")
    chosen, total = make_source(pdfs, a.count, src)
    for name, b in (("old", old), ("new", new)):
        if "--dir" not in subprocess.run([b, "batch", "--help"], capture_output=True, text=True).stdout:
            raise SystemExit("bench: %s binary %s has no `batch --dir`" % (name, b))

    trash = os.path.join(work, "trash")
    shutil.rmtree(trash, ignore_errors=True)
    os.makedirs(trash)
    reports = os.path.join(work, "reports")
    shutil.rmtree(reports, ignore_errors=True)
    os.makedirs(reports)

    def fresh(name):
        # A new output directory per run; earlier outputs are set aside (renamed), not deleted,
        # until all runs are done: on ext4 without a journal, creating files right after
        # deleting many makes each creation scan past the freed inodes (see archive.py). The
        # sync keeps one run's writeback out of the next.
        out = os.path.join(work, "out")
        if os.path.exists(out):
            os.rename(out, os.path.join(trash, "%d-%s" % (len(os.listdir(trash)), name)))
        os.makedirs(out)
        os.sync()
        return out

    tools = {"old": "pith batch, %s" % a.ref, "new": "pith batch, this tree", "cp": "cp -r + sync"}
    binary = {"old": old, "new": new}
    times = {k: [] for k in tools}
    rss = {k: 0.0 for k in tools}
    order = list(tools)
    for r in range(a.runs):
        # Alternating order: each tool runs first, second and third in turn.
        for k in order[r % 3:] + order[:r % 3]:
            out = fresh(k)
            if k == "cp":
                cmd = ["sh", "-c", 'cp -r "$0" "$1/src" && sync', src, out]
            else:
                report = os.path.join(reports, "%s-%d.jsonl" % (k, r))
                cmd = [binary[k], "batch", "--dir", src, "--out-dir", out, "--report", report]
            t = time.perf_counter()
            p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
            times[k].append(time.perf_counter() - t)
            # 1: some file refused; 2 with a complete report: some file failed, a report line
            # the status check below names. Anything else stops the bench.
            whole = k != "cp" and p.returncode == 2 and '"summary"' in open(report).read()
            if p.returncode not in (0, 1) and not whole:
                raise SystemExit("bench: failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
            rss[k] = max(rss[k], int(p.stderr.strip().splitlines()[-1]) / 1024)
    os.sync()
    shutil.rmtree(trash, ignore_errors=True)

    # Same status for every file, old against new, in every round.
    first = statuses(os.path.join(reports, "old-0.jsonl"))
    differ = {}
    for k in ("old", "new"):
        for r in range(a.runs):
            got = statuses(os.path.join(reports, "%s-%d.jsonl" % (k, r)))
            for pdf in sorted(set(first) | set(got)):
                if first.get(pdf) != got.get(pdf):
                    differ[pdf] = (first.get(pdf), got.get(pdf), k, r)
    counts = collections.Counter(first.values())

    med = {k: statistics.median(v) for k, v in times.items()}
    load = open("/proc/loadavg").read().split()[:3]
    print("bench: %s, %d cores, load average %s" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                     os.cpu_count(), " ".join(load)))
    print("bench: %d PDFs (%.1f MB) evenly spaced over %d under %s; median of %d rounds, alternating order"
          % (len(chosen), total / 1e6, len(pdfs), ", ".join(roots), a.runs))
    print("bench: old %s\nbench: new %s" % (old, new))
    print("bench: statuses: %s" % ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    print()
    print("| run | median s | min-max s | vs old | vs cp -r + sync | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for k, name in tools.items():
        print("| %s | %.3f | %.3f-%.3f | %.2fx | %.2fx | %.0f |" % (
            name, med[k], min(times[k]), max(times[k]), med[k] / med["old"], med[k] / med["cp"], rss[k]))
    print()
    print("new/old: %.2fx; new/(cp -r + sync): %.2fx; old/(cp -r + sync): %.2fx"
          % (med["new"] / med["old"], med["new"] / med["cp"], med["old"] / med["cp"]))
    if differ:
        print("\nstatuses differ on %d files (file: old round 0, other, binary, round):" % len(differ))
        for pdf, (a0, b0, k, r) in sorted(differ.items()):
            print("  %s (%s): %s, %s %s round %d" % (pdf, chosen[int(os.path.basename(pdf)[1:4])], a0, b0, k, r))
        sys.exit(1)
    print("statuses: the same for every file, both binaries, every round")


if __name__ == "__main__":
    main()
