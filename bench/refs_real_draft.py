#!/usr/bin/env python3
"""Drafts the truth of one real paper for bench/refs_real.py: the arXiv ids and DOIs printed in
its reference list (per line of `pdftotext`, in its reading order, with the lines where an id may continue on
the next line marked for a reader to check), and the DOI and arXiv URLs of link annotations on
the list's pages. The draft is a starting point: bench/refs-real/README.md says how each draft
was read and adjudicated before it became bench/refs-real/truth/NAME.json.

    python3 bench/refs_real_draft.py PAPER.pdf [--from-page N] > draft.json
"""
import argparse
import json
import re
import subprocess
import sys

HEADING = re.compile(r"^\s*(?:[0-9]+\.?|[IVX]+\.)?\s*(references(?: and notes| cited)?|bibliography|literature cited|works cited)\s*:?\s*$", re.I)
DOI = re.compile(r"10\.\d{4,9}/[^\s\"<>]+")
NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(v\d+)?(?![\d])")
OLD = re.compile(r"\b((?:hep-th|hep-ph|hep-ex|hep-lat|astro-ph|gr-qc|nucl-th|nucl-ex|quant-ph|cond-mat|math-ph|physics|math|cs|nlin|q-bio)(?:\.[A-Z]{2})?/\d{7})(v\d+)?")


def clean_doi(d):
    d = d.rstrip(".,;:")
    while d.endswith(")") and d.count("(") < d.count(")"):
        d = d[:-1]
    while d.endswith("]") and d.count("[") < d.count("]"):
        d = d[:-1]
    return d.rstrip(".,;:")


def ids_in(line):
    out = []
    for m in DOI.finditer(line):
        out.append(("doi:" + clean_doi(m.group(0)).lower(), m.end() >= len(line.rstrip())))
    for m in OLD.finditer(line):
        out.append(("arxiv:" + m.group(1), False))
    for m in NEW.finditer(line):
        if any(m.start() >= d.start() and m.end() <= d.end() for d in DOI.finditer(line)):
            continue
        out.append(("arxiv:" + m.group(1), False))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--from-page", type=int, default=0, help="first page of the list (1-based); default: the last reference heading")
    a = ap.parse_args()
    text = subprocess.run(["pdftotext", a.pdf, "-"], capture_output=True, text=True, errors="replace").stdout
    pages = text.split("\f")
    start = None
    for pi, page in enumerate(pages):
        for li, line in enumerate(page.splitlines()):
            if HEADING.match(line):
                start = (pi, li)
    if a.from_page:
        start = (a.from_page - 1, 0)
    if start is None:
        sys.exit(f"{a.pdf}: no reference heading; pass --from-page")
    printed, check = {}, []
    for pi in range(start[0], len(pages)):
        lines = pages[pi].splitlines()
        for li, line in enumerate(lines):
            if pi == start[0] and li < start[1]:
                continue
            for key, at_end in ids_in(line):
                printed.setdefault(key, f"p{pi + 1}: {line.strip()[:160]}")
                if at_end:
                    nxt = lines[li + 1].strip()[:60] if li + 1 < len(lines) else ""
                    check.append(f"{key} | next line: {nxt}")
    links = {}
    try:
        import pikepdf
        with pikepdf.open(a.pdf) as pdf:
            for pi in range(start[0], len(pdf.pages)):
                for annot in pdf.pages[pi].get("/Annots", []) or []:
                    act = annot.get("/A")
                    uri = str(act.get("/URI", "")) if act is not None else ""
                    for key, _ in ids_in(uri.replace("%2F", "/").replace("%2f", "/")):
                        if key not in printed:
                            links.setdefault(key, f"p{pi + 1}: {uri}")
    except ImportError:
        print("pikepdf not installed: link annotations not read", file=sys.stderr)
    json.dump({"start_page": start[0] + 1, "printed": printed, "check": check, "links": links}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
