#!/usr/bin/env python3
"""Scores `pith refs` on the real papers of this folder against their adjudicated truth.

    python3 score.py PITH_BINARY [--papers N] [--heldout-only] [--group N]

Recall is over the ids printed in each list; "with links" also counts the ids that exist only
as link targets of entries. Precision counts a reported id right when it is printed or linked
in the list. Keys: arxiv:ID without version, doi:lowercased; arXiv's DOI of a paper
(10.48550/arXiv.ID) is its arXiv id.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(papers=0, heldout_only=False, group=0):
    tdir = os.path.join(HERE, "truth")
    out = []
    for f in sorted(os.listdir(tdir)):
        if f.endswith(".json"):
            t = json.load(open(os.path.join(tdir, f)))
            if heldout_only and not t["heldout"]:
                continue
            if group and (not t["heldout"] or t.get("group", 1) != group):
                continue
            t["name"] = f[:-5]
            t["path"] = os.path.join(HERE, t["file"])
            if os.path.exists(t["path"]):
                out.append(t)
    return out[:papers] if papers else out


def pith_key(v):
    if "arxiv" in v:
        return "arxiv:" + v["arxiv"]
    if "doi" in v:
        return "doi:" + v["doi"].lower()
    return None


def run_pith(binary, papers):
    # `pith refs` reads a paper as the citation edges of a citing paper it can name, and most
    # of these papers are no arXiv papers: each is read from a copy named as arXiv names its
    # files (ids of April 2007, which no truth file cites), and its lines mapped back.
    work = tempfile.mkdtemp(prefix="pith-refs-real-")
    named = {}
    for i, p in enumerate(papers):
        n = os.path.join(work, f"0704.{i + 1:04}v1.pdf")
        shutil.copyfile(p["path"], n)
        named[os.path.abspath(n)] = p["path"]
    t = time.perf_counter()
    r = subprocess.run([binary, "refs", *named], capture_output=True, text=True)
    secs = time.perf_counter() - t
    shutil.rmtree(work)
    # a file pith refuses is scored as reading nothing; its one-line reason is shown
    for line in r.stderr.splitlines():
        if line.startswith("pith: "):
            print(line, file=sys.stderr)
    got = {p["path"]: set() for p in papers}
    for line in r.stdout.splitlines():
        v = json.loads(line)
        k = pith_key(v)
        f = named.get(os.path.abspath(v["file"]))
        if k and f in got:
            got[f].add(k)
    return got, secs


ARXIV_DOI = "doi:10.48550/arxiv."


def same_paper(key):
    """arXiv's DOI of a paper (`10.48550/arXiv.2504.20428`) and its arXiv id are one
    identifier: a list that prints both (`arXiv:2504.20428. https://doi.org/10.48550/arXiv.2504.20428`)
    cites one paper, and a tool may report it either way."""
    return "arxiv:" + key[len(ARXIV_DOI):] if key.startswith(ARXIV_DOI) else key


def score(papers, got):
    rows, tot = [], dict(cited=0, linked=0, found=0, right=0, hit=0, hitl=0)
    for p in papers:
        printed = {same_paper(k) for k in p["printed"]}
        links = {same_paper(k) for k in p["links"]} - printed
        g = {same_paper(k) for k in got.get(p["path"], set())}
        row = dict(name=p["name"], cited=len(printed), linked=len(links), found=len(g),
                   right=len(g & (printed | links)), hit=len(g & printed), hitl=len(g & (printed | links)),
                   missed=sorted(printed - g), wrong=sorted(g - printed - links))
        rows.append(row)
        for k in tot:
            tot[k] += row[k]
    return rows, tot


def ratio(a, b):
    return f"{a / b:.3f}" if b else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pith")
    ap.add_argument("--papers", type=int, default=0)
    ap.add_argument("--heldout-only", action="store_true")
    ap.add_argument("--group", type=int, default=0, help="only the papers of this held-out group (1, 2, 3, 4, 5)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list missed and wrong ids")
    a = ap.parse_args()
    papers = load(a.papers, a.heldout_only, a.group)
    got, secs = run_pith(a.pith, papers)
    rows, tot = score(papers, got)
    print("| paper | printed | links | found | recall | recall with links | precision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['cited']} | {r['linked']} | {r['found']} | {ratio(r['hit'], r['cited'])} | "
              f"{ratio(r['hitl'], r['cited'] + r['linked'])} | {ratio(r['right'], r['found'])} |")
        if a.verbose:
            for k in r["missed"]:
                print(f"|   missed {k} | | | | | | |")
            for k in r["wrong"]:
                print(f"|   wrong {k} | | | | | | |")
    print(f"| **all ({len(rows)})** | {tot['cited']} | {tot['linked']} | {tot['found']} | {ratio(tot['hit'], tot['cited'])} | "
          f"{ratio(tot['hitl'], tot['cited'] + tot['linked'])} | {ratio(tot['right'], tot['found'])} |")
    print(f"\npith refs: {secs:.2f} s for {len(rows)} papers ({secs / max(len(rows), 1):.3f} s per paper, one process)")


if __name__ == "__main__":
    main()
