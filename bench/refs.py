#!/usr/bin/env python3
"""pith refs, measured: recall and precision of the arXiv ids and DOIs it reads from generated
pdfLaTeX reference lists whose answers are known, and papers per second beside pdftotext on
the same files.

Styles: numbered (thebibliography, \\url DOIs), author-year (natbib, doi:\\url{...}), two
columns (narrow lines: URLs and DOIs broken across lines), hyphenated DOIs (long DOIs of
hyphen-separated parts, broken at their hyphens by url.sty's [hyphens]), and BibLaTeX (a .bib
file with `doi`, `eprint` (eprinttype arxiv, with or without eprintclass) and `url` fields,
typeset by biblatex's numeric style after biber). Each reference is an
arXiv id (new style with or without version, as arXiv:ID or an abs URL; old style
archive/YYMMNNN) or a DOI. The body of each paper holds an id-shaped number that is no
reference (a trap).

    python3 bench/refs.py [--papers N] [--refs N] [--pith target/release/pith] [--corpus DIR]

Prints a Markdown table (bench/README.md keeps the figures). Needs pdflatex and pdftotext; the
BibLaTeX style also biber and biblatex (left out, and said so, where biber is missing).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ARCHIVES = ["hep-th", "astro-ph", "cond-mat", "math", "quant-ph", "gr-qc"]
WORDS = ["PhysRevD", "j.cell", "s41586", "nature", "JHEP", "abc_def", "tpami", "(SICI)1097"]


def reference(rng, i, style):
    year = rng.randrange(2008, 2025)
    yymm = f"{year % 100:02}{rng.randrange(1, 13):02}"
    num = f"{rng.randrange(100000):05}" if year >= 2015 else f"{rng.randrange(10000):04}"
    kind = rng.randrange(5)
    if kind == 0:
        v = rng.randrange(1, 5)
        body, key = f"arXiv:{yymm}.{num}v{v}", f"arxiv:{yymm}.{num}v{v}"
    elif kind == 1:
        body, key = f"\\url{{https://arxiv.org/abs/{yymm}.{num}}}", f"arxiv:{yymm}.{num}"
    elif kind == 2:
        aid = f"{rng.choice(ARCHIVES)}/{rng.randrange(92, 100):02}{rng.randrange(1, 13):02}{rng.randrange(1000):03}"
        body, key = f"arXiv:{aid}", f"arxiv:{aid}"
    else:
        if style == "hyphenated":
            suffix = "-".join(rng.choice(["abc", "defg", "hi", "jklmn", "2020", "x7"]) for _ in range(rng.randrange(6, 12)))
        else:
            suffix = f"{rng.choice(WORDS)}{rng.randrange(1000)}-{rng.randrange(100000)}.{rng.randrange(100)}"
        doi = f"10.{rng.randrange(1000, 100000)}/{suffix}"
        body = f"doi:\\url{{{doi}}}" if style == "natbib" else f"\\url{{https://doi.org/{doi}}}"
        key = "doi:" + doi.lower()
    author = f"A.~Author{i} and B.~Writer"
    title = "A study of things that matter in the long run"
    if style == "natbib":
        tex = f"\\bibitem[Author{i}({2000 + year % 100})]{{r{i}}} {author}. {title}. \\newblock {body}, {year}."
    else:
        tex = f"\\bibitem{{r{i}}} {author}. {title}. Journal {rng.randrange(100)}, {rng.randrange(1000)} ({year}). {body}."
    return tex, key


def bib_entry(rng, i):
    """One .bib entry of a generated BibLaTeX list and the identifier it cites: biblatex prints
    an arXiv `eprint` as `arXiv: ID [class]`, a `doi` as `doi: 10...`, a `url` as `url: ...`."""
    year = rng.randrange(2008, 2025)
    yymm = f"{year % 100:02}{rng.randrange(1, 13):02}"
    num = f"{rng.randrange(100000):05}" if year >= 2015 else f"{rng.randrange(10000):04}"
    kind = rng.randrange(5)
    fields = [f"author = {{Author{i}, Ann and Writer, Bob}}",
              "title = {A study of things that matter in the long run}",
              f"journaltitle = {{Journal {rng.randrange(100)}}}", f"date = {{{year}}}"]
    if kind == 0:
        v = rng.randrange(1, 5)
        fields += ["eprinttype = {arxiv}", f"eprint = {{{yymm}.{num}v{v}}}"]
        if rng.randrange(2):
            fields.append(f"eprintclass = {{{rng.choice(ARCHIVES)}}}")
        key = f"arxiv:{yymm}.{num}v{v}"
    elif kind == 1:
        fields.append(f"url = {{https://arxiv.org/abs/{yymm}.{num}}}")
        key = f"arxiv:{yymm}.{num}"
    elif kind == 2:
        aid = f"{rng.choice(ARCHIVES)}/{rng.randrange(92, 100):02}{rng.randrange(1, 13):02}{rng.randrange(1000):03}"
        fields += ["eprinttype = {arxiv}", f"eprint = {{{aid}}}"]
        key = f"arxiv:{aid}"
    else:
        doi = f"10.{rng.randrange(1000, 100000)}/{rng.choice(WORDS)}{rng.randrange(1000)}-{rng.randrange(100000)}.{rng.randrange(100)}"
        fields.append(f"doi = {{{doi}}}")
        key = "doi:" + doi.lower()
    return f"@article{{r{i},\n  " + ",\n  ".join(fields) + "\n}\n", key


def biblatex_paper(name):
    return ("\\documentclass{article}\\usepackage[backend=biber,style=numeric]{biblatex}\n"
            f"\\addbibresource{{{name}.bib}}\n\\begin{{document}}\n"
            "A study. Its table lists 1501.00001 and 10.1000/body as values.\n"
            "\\nocite{*}\\printbibliography\n\\end{document}\n")


def paper(style, items):
    pre = {
        "numbered": "\\documentclass{article}\\usepackage{url}",
        "natbib": "\\documentclass{article}\\usepackage{natbib}\\usepackage[hyphens]{url}",
        "twocolumn": "\\documentclass[twocolumn]{article}\\usepackage[hyphens]{url}",
        "hyphenated": "\\documentclass[twocolumn]{article}\\usepackage[hyphens]{url}",
    }[style]
    return (pre + "\n\\begin{document}\nA study. Its table lists 1501.00001 and 10.1000/body as values.\n"
            "\\begin{thebibliography}{99}\n" + "\n".join(items) + "\n\\end{thebibliography}\n\\end{document}\n")


def key(v):
    if "arxiv" in v:
        return f"arxiv:{v['arxiv']}" + (f"v{v['version']}" if "version" in v else "")
    return "doi:" + v["doi"].lower()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--papers", type=int, default=10, help="papers per style")
    ap.add_argument("--refs", type=int, default=40, help="references per paper")
    ap.add_argument("--pith", default="target/release/pith")
    ap.add_argument("--corpus", default="/work/shared/corpus")
    a = ap.parse_args()
    rng = random.Random(20261204)
    work = tempfile.mkdtemp(prefix="pith-refs-bench-")
    want, pdfs = {}, []
    styles = ["numbered", "natbib", "twocolumn", "hyphenated"]
    if shutil.which("biber"):
        styles.append("biblatex")
    else:
        print("biber not installed: the BibLaTeX style is left out", file=sys.stderr)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    for style in styles:
        for n in range(a.papers):
            name = f"{style}-{n:03}"
            if style == "biblatex":
                refs = [bib_entry(rng, i) for i in range(a.refs)]
                with open(os.path.join(work, name + ".bib"), "w") as f:
                    f.write("".join(t for t, _ in refs))
                tex = biblatex_paper(name)
                steps = [["pdflatex"], ["biber", name], ["pdflatex"]]
            else:
                refs = [reference(rng, i, style) for i in range(a.refs)]
                tex = paper(style, [t for t, _ in refs])
                steps = [["pdflatex"]]
            with open(os.path.join(work, name + ".tex"), "w") as f:
                f.write(tex)
            for step in steps:
                cmd = step if step[0] == "biber" else [*step, "-interaction=nonstopmode", "-halt-on-error", name + ".tex"]
                r = subprocess.run(cmd, cwd=work, capture_output=True, env=env)
                if r.returncode != 0:
                    sys.exit(f"{step[0]} failed on {name} in {work}")
            # Named as arXiv names its files, which gives `pith refs` the citing paper (ids of
            # April 2007, which the generated lists never cite).
            pdf = os.path.join(work, f"0704.{len(pdfs) + 1:04}v1.pdf")
            os.replace(os.path.join(work, name + ".pdf"), pdf)
            pdfs.append((style, pdf))
            want[pdf] = {k for _, k in refs}

    t = time.perf_counter()
    out = subprocess.run([a.pith, "refs", *[p for _, p in pdfs]], capture_output=True, text=True, check=True).stdout
    pith_s = time.perf_counter() - t
    got = {}
    for line in out.splitlines():
        v = json.loads(line)
        got.setdefault(v["file"], set()).add(key(v))
    t = time.perf_counter()
    for _, p in pdfs:
        subprocess.run(["pdftotext", p, os.devnull], check=True)
    text_s = time.perf_counter() - t

    print("| style | papers | cited | found | right | recall | precision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    totals = [0, 0, 0, 0]
    for style in styles:
        files = [p for s, p in pdfs if s == style]
        cited = sum(len(want[p]) for p in files)
        found = sum(len(got.get(p, set())) for p in files)
        right = sum(len(got.get(p, set()) & want[p]) for p in files)
        for i, x in enumerate([len(files), cited, found, right]):
            totals[i] += x
        print(f"| {style} | {len(files)} | {cited} | {found} | {right} | {right / cited:.1%} | {right / max(found, 1):.1%} |")
    n, cited, found, right = totals
    print(f"| all | {n} | {cited} | {found} | {right} | {right / cited:.1%} | {right / max(found, 1):.1%} |")
    print()
    print(f"pith refs: {n / pith_s:.1f} papers/s ({pith_s:.2f} s, one process); "
          f"pdftotext: {n / text_s:.1f} papers/s ({text_s:.2f} s, one process per file)")

    corpus = []
    for d in ["sample-files", "pdf20", "pdfa", "pdfium"]:
        root = os.path.join(a.corpus, d)
        if os.path.isdir(root):
            corpus += [os.path.join(root, f) for f in sorted(os.listdir(root)) if f.endswith(".pdf")]
    if corpus:
        t = time.perf_counter()
        r = subprocess.run([a.pith, "refs", *corpus], capture_output=True, text=True)
        cs = time.perf_counter() - t
        # A file refused only because nothing names its citing paper was read whole first.
        refused = sum(1 for l in r.stderr.splitlines()
                      if l.startswith("pith: ") and "files could not" not in l and "no citing paper" not in l)
        panics = r.stderr.count("panicked")
        t = time.perf_counter()
        for p in corpus:
            subprocess.run(["pdftotext", p, os.devnull], capture_output=True)
        ts = time.perf_counter() - t
        print(f"corpus ({a.corpus}): {len(corpus)} PDFs, {refused} refused with a reason, {panics} panics, "
              f"{len(r.stdout.splitlines())} identifiers; pith {len(corpus) / cs:.1f} files/s, pdftotext {len(corpus) / ts:.1f} files/s")


if __name__ == "__main__":
    main()
