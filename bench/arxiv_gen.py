#!/usr/bin/env python3
"""Generates realistic arXiv metadata snapshot lines for the bulk-metadata benchmark and tests.

    python3 bench/arxiv_gen.py N [SEED] > snapshot.jsonl

Each line has the snapshot's fields, key order and shapes (id, submitter, authors, title,
comments, journal-ref, doi, report-no, categories, license, abstract, versions, update_date,
authors_parsed) with sizes like the real file's (about 1.7 kB a line on average): titles
wrapped with "\\n  ", abstracts starting with "  " and wrapped, LaTeX, a few non-ASCII names,
1-5 versions, 1-4 categories, licences including null, and one old-style id in twenty.
"""
import json
import random
import sys
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

WORDS = ("we study the of and a in for model quantum field theory network learning deep "
         "neural data graph algorithm bound optimal random matrix spectral gauge black hole "
         "entropy dynamics nonlinear stochastic process estimator convergence rate lattice "
         "spin glass phase transition galaxy cluster dark matter inflation cosmological "
         "constraint boundary condition operator Hilbert space manifold curvature $\\alpha$ "
         "$O(n\\log n)$ $\\mathbb{R}^d$ \\emph{strong} {\\it weak} Schrödinger Gödel "
         "non-Abelian two-dimensional large-scale").split()
CATS = ("cs.LG cs.AI cs.CV cs.CL stat.ML math.PR math.OC math.AP math-ph math.DS hep-th "
        "hep-ph gr-qc quant-ph cond-mat.str-el cond-mat.mes-hall astro-ph.CO astro-ph.GA "
        "physics.optics q-bio.NC econ.EM eess.SP nlin.CD").split()
OLD = "hep-th hep-ph astro-ph cond-mat math quant-ph gr-qc nlin math-ph physics".split()
LICENSES = [None, None, "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
            "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
            "http://creativecommons.org/licenses/by/4.0/",
            "http://creativecommons.org/licenses/by-nc-sa/4.0/"]
NAMES = "Smith Müller Zhang Wang García Nakamura Kowalski Ivanov Dubois Rossi Øksendal".split()


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def wrap(text, width, first=""):
    out, line = [], first
    for w in text.split():
        if len(line) + len(w) + 1 > width and line.strip():
            out.append(line)
            line = ""
        line = (line + " " + w) if line.strip() else (line + w)
    out.append(line)
    return out


def main():
    n = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 14)
    base = datetime(2007, 4, 1, tzinfo=timezone.utc)
    out = sys.stdout
    for i in range(n):
        t = base + timedelta(seconds=i * 40 + rng.randrange(40))
        if i % 20 == 7:
            pid = "%s/%02d%02d%03d" % (rng.choice(OLD), rng.randrange(92, 100), rng.randrange(1, 13), i % 1000)
        else:
            # arXiv's grammar: 4 digits after the dot until 1412, 5 from 1501.
            yymm = (t.year % 100) * 100 + t.month
            width = 5 if yymm >= 1501 else 4
            pid = "%04d.%0*d" % (yymm, width, i % 10 ** width)
        nv = rng.choice([1, 1, 1, 2, 2, 3, 4, 5])
        versions = [{"version": "v%d" % (k + 1),
                     "created": format_datetime(t + timedelta(days=30 * k, minutes=k * 7), usegmt=True)}
                    for k in range(nv)]
        authors = [(rng.choice(NAMES), rng.choice("ABCDEFGHJK") + ".") for _ in range(rng.randrange(1, 9))]
        title = "\n  ".join(wrap(words(rng, rng.randrange(6, 16)).capitalize(), 70))
        abstract = "\n".join(wrap(words(rng, rng.randrange(90, 220)), 78, "  ")) + "\n"
        cats = rng.sample(CATS, rng.randrange(1, 5))
        line = {
            "id": pid, "submitter": authors[0][1] + " " + authors[0][0],
            "authors": ", ".join(a[1] + " " + a[0] for a in authors),
            "title": title, "comments": "%d pages, %d figures" % (rng.randrange(4, 60), rng.randrange(0, 12)),
            "journal-ref": None, "doi": None, "report-no": None,
            "categories": " ".join(cats), "license": rng.choice(LICENSES), "abstract": abstract,
            "versions": versions, "update_date": (t + timedelta(days=400)).strftime("%Y-%m-%d"),
            "authors_parsed": [[a[0], a[1], ""] for a in authors],
        }
        out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
