#!/usr/bin/env python3
"""pith refs on real reference lists, side by side with refextract (INSPIRE's reference
extractor) and pdfx: recall, precision and seconds per paper on the papers of bench/refs-real/,
whose printed arXiv ids and DOIs were adjudicated by hand (bench/refs-real/README.md).

    python3 bench/refs_real.py [--pith target/release/pith] [--papers N] [--tools pith,refextract,pdfx] [--group N] [--misses]

Recall counts the ids printed in each list; "recall with links" also counts the ids that exist
only as link targets of the list's entries. A reported id is right when it is printed or linked
in the list (the paper's own id in a stamp, header or footer is wrong). The held-out part is the
papers not given to the work on the reader until it was measured. refextract and pdfx run in this process
(`pip install refextract pdfx`), each paper timed alone (refextract's knowledge bases load once,
before the first paper, and that load is counted in the first paper's time); `pith refs` runs
once over every paper, as it would over a folder. A tool that is not installed is left out,
and said so.
Prints a Markdown table (bench/README.md keeps the figures).
"""
import argparse
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "refs-real"))
import score  # noqa: E402  (the folder's own scorer: truth loading, pith runs and counting)

DOI = re.compile(r"10\.\d{4,9}/[^\s\"<>]+")
ARXIV = re.compile(r"(?:arxiv[:/ ]\s*(?:abs/|pdf/)?)((?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[A-Z]{2})?/\d{7}))", re.I)
BARE = re.compile(r"^(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?$")


def doi_key(s):
    """A DOI as the tools print it, made comparable: a URL's query or fragment
    (`&domain=pdf`, `#supplemental-information`) and closing punctuation that is not the
    DOI's own (a `)` without its `(`) are cut, as a reader of the list would cut them."""
    m = DOI.search(s)
    if not m:
        return None
    d = re.split(r"[&#?]", m.group(0))[0]
    while True:
        d = d.rstrip(".,;:")
        if d.endswith(")") and d.count("(") < d.count(")"):
            d = d[:-1]
        elif d.endswith("]") and d.count("[") < d.count("]"):
            d = d[:-1]
        else:
            break
    return "doi:" + d.lower()


def arxiv_key(s):
    s = s.strip()
    m = BARE.match(s) or ARXIV.search(s)
    return "arxiv:" + m.group(1) if m else None


def keys_of(strings):
    out = set()
    for s in strings:
        k = arxiv_key(s) if ("arxiv" in s.lower() or BARE.match(s.strip())) else None
        k = k or doi_key(s)
        if k:
            out.add(k)
    return out


def run_refextract(papers):
    from refextract import extract_references_from_file
    got, secs = {}, {}
    # refextract cuts what follows a PDF's last `%%EOF` off the file it is given, in place:
    # it reads a copy, so that the papers stay as their origins hold them.
    work = tempfile.mkdtemp(prefix="refs-real-refextract-")
    for p in papers:
        copy = os.path.join(work, os.path.basename(p["path"]))
        shutil.copyfile(p["path"], copy)
        t = time.perf_counter()
        try:
            refs = extract_references_from_file(copy)
        except Exception as e:  # a tool's failure on one paper is its result on that paper
            print(f"refextract: {p['name']}: {e}", file=sys.stderr)
            refs = []
        secs[p["path"]] = time.perf_counter() - t
        strings = []
        for r in refs:
            strings += r.get("doi", []) + r.get("url", [])
            strings += [s for s in r.get("reportnumber", []) if "arxiv" in s.lower() or BARE.match(s)]
        got[p["path"]] = keys_of(strings)
        os.remove(copy)
    shutil.rmtree(work)
    return got, secs


def run_pdfx(papers):
    import pdfx
    got, secs = {}, {}
    for p in papers:
        t = time.perf_counter()
        try:
            refs = pdfx.PDFx(p["path"]).get_references_as_dict()
        except Exception as e:
            print(f"pdfx: {p['name']}: {e}", file=sys.stderr)
            refs = {}
        secs[p["path"]] = time.perf_counter() - t
        strings = [f"arXiv:{a}" for a in refs.get("arxiv", [])] + refs.get("doi", []) + refs.get("url", [])
        got[p["path"]] = keys_of(strings)
    return got, secs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", default="target/release/pith")
    ap.add_argument("--papers", type=int, default=0, help="only the first N papers (0: all)")
    ap.add_argument("--tools", default="pith,refextract,pdfx")
    ap.add_argument("--group", type=int, default=0, help="only the papers of this held-out group (1, 2, 3, 4, 5)")
    ap.add_argument("--misses", action="store_true", help="list what each tool missed and reported wrongly")
    a = ap.parse_args()
    papers = score.load(a.papers, group=a.group)
    results = {}
    for tool in a.tools.split(","):
        if tool == "pith":
            # one process for every paper, as `pith refs DIR` runs: its time is shared evenly
            got, total = score.run_pith(a.pith, papers)
            results["pith refs"] = (got, {p["path"]: total / len(papers) for p in papers})
        else:
            try:
                results[{"refextract": "refextract", "pdfx": "pdfx"}[tool]] = {"refextract": run_refextract, "pdfx": run_pdfx}[tool](papers)
            except ImportError:
                print(f"{tool} not installed (pip install {tool}): left out", file=sys.stderr)
    held = [p for p in papers if p["heldout"] and p.get("group", 1) == 1]
    held2 = [p for p in papers if p.get("group", 1) == 2]
    held3 = [p for p in papers if p.get("group", 1) == 3]
    held4 = [p for p in papers if p.get("group", 1) == 4]
    held5 = [p for p in papers if p.get("group", 1) == 5]
    print(f"{len(papers)} papers ({len(held)} held out, {len(held2)} in the second held-out group, "
          f"{len(held3)} in the third, {len(held4)} in the fourth, {len(held5)} in the fifth), "
          f"{sum(len(p['printed']) for p in papers)} printed ids, {sum(len(p['links']) for p in papers)} link-only ids\n")
    print("| tool | part | recall | recall with links | precision | seconds per paper |")
    print("|---|---|---:|---:|---:|---:|")
    for tool, (got, secs) in results.items():
        for part, ps in [("all", papers), ("held out", held), ("held out, second group", held2),
                         ("held out, third group", held3), ("held out, fourth group", held4),
                         ("held out, fifth group", held5)]:
            if not ps:
                continue
            _, t = score.score(ps, got)
            print(f"| {tool} | {part} ({len(ps)}) | {score.ratio(t['hit'], t['cited'])} | "
                  f"{score.ratio(t['hitl'], t['cited'] + t['linked'])} | {score.ratio(t['right'], t['found'])} | "
                  f"{sum(secs[p['path']] for p in ps) / len(ps):.3f} |")
    if a.misses:
        print()
        for tool, (got, _) in results.items():
            rows, _ = score.score(papers, got)
            for r in rows:
                for k in r["missed"]:
                    print(f"{tool}: missed {r['name']} {k}")
                for k in r["wrong"]:
                    print(f"{tool}: wrong {r['name']} {k}")


if __name__ == "__main__":
    main()
