#!/usr/bin/env python3
"""Archive-scale benchmarks, run side by side on the same files.

1. One large file (50 MB and 500 MB, built by concatenating real PDFs with qpdf): pith in
   place, pith to a new file, cp, exiftool, pikepdf, PyMuPDF (saveIncr) and qpdf. Median wall
   time of several runs, ratio against pith, and peak RSS (GNU time).
2. Many small files (every PDF of the installed TeX Live documentation, at least 500): pith
   batch against exiftool's directory mode and a pikepdf loop in one Python process.

Every tool writes the same metadata where it can (Info /PithNumber and /PithURL, XMP
identifier and relation); `cp` and qpdf only copy or rewrite, as the lower bounds they are.

Requirements (not needed by the tests): qpdf, exiftool, GNU time (`apt-get install qpdf
libimage-exiftool-perl time texlive-latex-extra-doc`), `pip install pikepdf pymupdf`.

Usage: python3 bench/archive.py [--sizes 50,500] [--runs 5] [--small-min 500] [--small-max N] [--work DIR]
(PITH_BIN=path/to/pith uses that binary instead of building this tree.)
"""
import argparse, glob, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
URL = "https://pith.science/pith/7BMK4ZKTPUTUY3JKWBANNPOFR5"

EXIF_CONFIG = """%Image::ExifTool::UserDefined = (
    'Image::ExifTool::PDF::Info' => {
        PithNumber => { },
        PithURL => { },
    },
);
1;
"""

# What pikepdf writes for a number, as pith does: the Info keys and the XMP properties.
PIKEPDF_WRITE = r'''
def write(src, dst, number, url):
    with pikepdf.open(src) as pdf:
        pdf.docinfo["/PithNumber"] = number
        pdf.docinfo["/PithURL"] = url
        with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
            meta["xmp:Identifier"] = [number]
            meta["dc:relation"] = [url]
        pdf.save(dst)
'''

PIKEPDF_ONE = "import sys, pikepdf\n" + PIKEPDF_WRITE + "write(*sys.argv[1:5])\n"

PIKEPDF_LOOP = "import sys, os, pikepdf\n" + PIKEPDF_WRITE + r'''
listing, outdir, number, url = sys.argv[1:5]
for line in open(listing):
    src = line.strip()
    dst = os.path.join(outdir, os.path.basename(os.path.dirname(src)) + "__" + os.path.basename(src))
    try:
        write(src, dst, number, url)
    except Exception as e:
        print("pikepdf failed:", src, e, file=sys.stderr)
'''

PYMUPDF_INCR = r'''
import sys, pymupdf
path, number, url = sys.argv[1:4]
doc = pymupdf.open(path)
info = doc.xref_get_key(-1, "Info")
doc.set_metadata(dict(doc.metadata or {}, keywords=number))
info = doc.xref_get_key(-1, "Info")
if info[0] == "xref":
    x = int(info[1].split()[0])
    doc.xref_set_key(x, "PithNumber", pymupdf.get_pdf_str(number))
    doc.xref_set_key(x, "PithURL", pymupdf.get_pdf_str(url))
doc.saveIncr()
'''


def pith_bin():
    if os.environ.get("PITH_BIN"):
        return os.environ["PITH_BIN"]  # an already built binary, e.g. to compare two commits
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "pith")


def run_timed(cmd, prepare=None, runs=5, ok=(0,)):
    """Median wall seconds and peak RSS (MB) of `cmd`, after `prepare()` before each run.
    Exit codes in `ok` count as success (exiftool exits 1 when some files of a directory fail)."""
    times, rss = [], []
    for _ in range(runs):
        if prepare:
            prepare()
        t = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if p.returncode not in ok:
            raise SystemExit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
        rss.append(int(p.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(times), max(rss)


def doc_pdfs():
    pdfs = sorted(glob.glob("/usr/share/doc/**/*.pdf", recursive=True))
    pdfs += sorted(glob.glob("/usr/share/texlive/texmf-dist/doc/**/*.pdf", recursive=True))
    return [p for p in pdfs if os.path.isfile(p) and not os.path.islink(p)]


def qpdf_ok(path):
    return subprocess.run(["qpdf", "--check", path], capture_output=True).returncode in (0, 3)


def build_large(work, mb):
    """Concatenates real PDFs with qpdf until the file reaches `mb` megabytes."""
    out = os.path.join(work, "large-%dMB.pdf" % mb)
    if os.path.exists(out):
        return out
    parts, total = [], 0
    # Checked with qpdf as they are needed (a small size needs a few, not every one).
    candidates, sources = iter(doc_pdfs()), []
    i = 0
    while total < mb * 1_000_000 * 1.05:
        if i >= len(sources):
            # The next source that qpdf checks cleanly, if any is left; then they cycle.
            sources += next(([p] for p in candidates if qpdf_ok(p)), [])
        if not sources:
            raise SystemExit("no source PDFs found under /usr/share/doc")
        src = sources[i % len(sources)]
        # A distinct path makes qpdf copy the objects again instead of sharing them.
        copy = os.path.join(work, "part-%05d.pdf" % i)
        shutil.copy(src, copy)
        parts.append(copy)
        total += os.path.getsize(src)
        i += 1
    chunk = []
    subprocess.run(["qpdf", "--empty", "--warning-exit-0", "--pages"] + parts + ["--", out], check=True,
                   capture_output=True)
    for p in parts:
        os.remove(p)
    return out


def large(pith, work, mb, runs):
    src = build_large(work, mb)
    size = os.path.getsize(src)
    cfg = os.path.join(work, "exif.config")
    open(cfg, "w").write(EXIF_CONFIG)
    pk = os.path.join(work, "pikepdf_one.py")
    open(pk, "w").write(PIKEPDF_ONE)
    mu = os.path.join(work, "pymupdf_incr.py")
    open(mu, "w").write(PYMUPDF_INCR)
    dst = os.path.join(work, "out.pdf")
    inplace = os.path.join(work, "inplace.pdf")

    def fresh_copy():
        # Synced, so that the timed run does not pay for flushing the untimed copy.
        shutil.copy(src, inplace)
        os.sync()

    def no_out():
        if os.path.exists(dst):
            os.remove(dst)

    rows = []
    rows.append(("pith inject --in-place",) + run_timed([pith, "inject", "--in-place", "--number", NUMBER, inplace], fresh_copy, runs))
    rows.append(("pith inject -o new file",) + run_timed([pith, "inject", src, "--number", NUMBER, "-o", dst], no_out, runs))
    rows.append(("cp",) + run_timed(["cp", src, dst], no_out, runs))
    # pith syncs a new file before renaming it into place (crash safety); this is the same work.
    rows.append(("cp + sync of the copy",) + run_timed(["sh", "-c", 'cp "$0" "$1" && sync "$1"', src, dst], no_out, runs))
    rows.append(("exiftool (incremental)",) + run_timed(
        ["exiftool", "-config", cfg, "-q", "-PithNumber=" + NUMBER, "-PithURL=" + URL,
         "-XMP-xmp:Identifier=" + NUMBER, "-XMP-dc:Relation=" + URL, "-o", dst, src], no_out, runs))
    rows.append(("pikepdf (full save)",) + run_timed([sys.executable, pk, src, dst, NUMBER, URL], no_out, runs))
    rows.append(("PyMuPDF saveIncr",) + run_timed([sys.executable, mu, inplace, NUMBER, URL], fresh_copy, runs))
    rows.append(("qpdf (rewrite only)",) + run_timed(["qpdf", src, dst], no_out, runs))
    base = rows[0][1]
    new = rows[1][1]
    print("\n### One file of %.0f MB (median of %d runs)\n" % (size / 1e6, runs))
    print("| tool | median s | vs pith in-place | vs pith new file | peak RSS MB |")
    print("|---|---:|---:|---:|---:|")
    for name, t, rss in rows:
        print("| %s | %.3f | %.1fx | %.1fx | %.0f |" % (name, t, t / base, t / new, rss))


def count_pdfs(d):
    return len(glob.glob(os.path.join(d, "**", "*.pdf"), recursive=True))


def small(pith, work, minimum, runs, most=0):
    pdfs = [p for p in doc_pdfs() if os.path.getsize(p) < 20_000_000]
    if most and len(pdfs) > most:
        # Evenly spaced over the sorted list: the same selection every time.
        pdfs = [pdfs[i * len(pdfs) // most] for i in range(most)]
    if len(pdfs) < minimum:
        raise SystemExit("only %d PDFs found; install TeX Live documentation (texlive-*-doc)" % len(pdfs))
    tree = os.path.join(work, "small")
    if not os.path.isdir(tree):
        for i, p in enumerate(pdfs):
            d = os.path.join(tree, "%03d" % (i // 100))
            os.makedirs(d, exist_ok=True)
            shutil.copy(p, os.path.join(d, "f%05d.pdf" % i))
    files = sorted(glob.glob(os.path.join(tree, "*", "*.pdf")))
    listing = os.path.join(work, "small.txt")
    open(listing, "w").write("\n".join(files) + "\n")
    manifest = os.path.join(work, "small.jsonl")
    with open(manifest, "w") as m:
        for f in files:
            m.write('{"pdf": "%s", "number": "%s"}\n' % (f, NUMBER))
    total = sum(os.path.getsize(f) for f in files)
    out = os.path.join(work, "small-out")
    cfg = os.path.join(work, "exif.config")
    open(cfg, "w").write(EXIF_CONFIG)
    loop = os.path.join(work, "pikepdf_loop.py")
    open(loop, "w").write(PIKEPDF_LOOP)

    trash = os.path.join(work, "small-trash")
    shutil.rmtree(trash, ignore_errors=True)

    def clean():
        # The previous run's outputs are set aside, not deleted: ext4 without a journal (this
        # machine's file system) skips inodes freed in the last seconds to minutes when it
        # allocates new ones (fs/ext4/ialloc.c, recently_deleted()), so deleting 700 outputs
        # just before a run made every file creation of that run scan past them. Creating
        # 741 empty files took 0.2-0.3 s right after such a deletion and 0.01 s otherwise: a
        # cost of the benchmark's own cleanup, paid by every tool. The copies are
        # deleted once all runs are done. The sync keeps one run's writeback out of the next.
        if os.path.exists(out):
            os.makedirs(trash, exist_ok=True)
            os.rename(out, os.path.join(trash, str(len(os.listdir(trash)))))
        os.makedirs(out)
        os.sync()

    rows = []
    rows.append(("pith batch (default -j: 2 x cores)",) + run_timed(
        [pith, "batch", "--manifest", manifest, "--out-dir", out, "--report", os.path.join(work, "report.jsonl")], clean, runs))
    rows[-1] += (count_pdfs(out),)
    rows.append(("pith batch -j 1",) + run_timed(
        [pith, "batch", "-j", "1", "--manifest", manifest, "--out-dir", out, "--report", os.path.join(work, "report.jsonl")], clean, runs))
    rows[-1] += (count_pdfs(out),)
    rows.append(("exiftool directory mode",) + run_timed(
        ["exiftool", "-config", cfg, "-q", "-q", "-m", "-r", "-PithNumber=" + NUMBER, "-PithURL=" + URL,
         "-XMP-xmp:Identifier=" + NUMBER, "-XMP-dc:Relation=" + URL, "-o", out + "/%d/", tree], clean, runs, ok=(0, 1)))
    rows[-1] += (count_pdfs(out),)
    rows.append(("pikepdf loop",) + run_timed([sys.executable, loop, listing, out, NUMBER, URL], clean, runs))
    rows[-1] += (count_pdfs(out),)
    # Floors: the same bytes copied (no update), then flushed to disk by sync (pith syncs each
    # output before it renames it into place; exiftool and pikepdf do not sync).
    rows.append(("cp -r (floor, not synced)",) + run_timed(["cp", "-r", tree, out + "/tree"], clean, runs))
    rows[-1] += (count_pdfs(out),)
    rows.append(("cp -r + sync (floor)",) + run_timed(
        ["sh", "-c", 'cp -r "$0" "$1/tree" && sync', tree, out], clean, runs))
    rows[-1] += (count_pdfs(out),)
    shutil.rmtree(trash, ignore_errors=True)
    base = rows[0][1]
    print("\n### %d small files, %.0f MB in all (median of %d runs)\n" % (len(files), total / 1e6, runs))
    print("| tool | median s | files/s | vs pith batch | peak RSS MB | files written |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, t, rss, done in rows:
        print("| %s | %.2f | %.0f | %.1fx | %.0f | %d |" % (name, t, len(files) / t, t / base, rss, done))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="50,500")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--small-min", type=int, default=500)
    ap.add_argument("--small-max", type=int, default=0, help="at most this many small files (0: all)")
    ap.add_argument("--work", default=None)
    ap.add_argument("--skip-small", action="store_true")
    a = ap.parse_args()
    pith = pith_bin()
    work = a.work or tempfile.mkdtemp(prefix="pith-bench-")
    os.makedirs(work, exist_ok=True)
    print("machine: %s, %d cores" % (os.uname().machine, os.cpu_count()))
    for mb in [int(s) for s in a.sizes.split(",") if s]:
        large(pith, work, mb, a.runs if mb < 200 else max(2, a.runs // 2))
    if not a.skip_small:
        small(pith, work, a.small_min, max(3, a.runs // 2), a.small_max)


if __name__ == "__main__":
    main()
