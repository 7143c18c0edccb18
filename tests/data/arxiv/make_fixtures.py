#!/usr/bin/env python3
"""Writes the arXiv metadata fixtures: the same papers in the three forms arXiv publishes metadata in.

Run from the repository root: python3 tests/data/arxiv/make_fixtures.py

Sources (nothing here is invented where a published number exists):
- `vectors.*`: every record of tests/data/records.json whose title AND abstract texts are exact
  (title_ok and abstract_ok, not a variant). Their published numbers are the golden values.
  The texts are re-wrapped the way each form wraps them (Atom: 2-space-indented lines of ~80
  characters; arXivRaw and the snapshot: lines broken at other places, a leading "  " on the
  abstract, a trailing newline), versions v1..vN are listed (v1 dated at submitted_at, in RFC
  2822 as arXiv writes it; later versions later), and cross-lists are listed in a shuffled
  order with the primary first. None of this may change the number.
- `extras.*`: papers the vectors lack in exact form, to cover old-style ids, a missing licence
  (null in the snapshot, no <license> in arXivRaw, none in Atom), several versions listed out
  of order, LaTeX and double spaces in titles and non-ASCII text. Their numbers are not
  published: the tests compare the three forms with each other and with the Atom path.
"""
import json
import random
import textwrap
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
rng = random.Random(14)


def rfc2822(dt):
    return format_datetime(dt, usegmt=True)  # "Mon, 02 Apr 2007 19:18:42 GMT"


def arxiv_rfc2822(dt):
    # arXiv writes the day without a leading zero: "Mon, 2 Apr 2007 19:18:42 GMT".
    s = rfc2822(dt)
    return s[:5] + s[5:7].lstrip("0") + s[7:]


def wrap(text, width, indent=""):
    words = " ".join(text.split())
    return "\n".join(textwrap.wrap(words, width, initial_indent=indent, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False))


def paper_from_vector(v):
    r = v["canonical_record"]
    m, s = r["metadata"], r["source"]
    return {
        "id": s["id"], "version": s["version"], "title": v["title"], "abstract": v["abstract"],
        "submitted": m["submitted_at"], "primary": m["primary_cat"],
        "cross": list(m["cross_cats_sorted"]), "license": m["license"] or None,
        "published_number": v["pith_number"], "canonical_sha256": v["canonical_sha256"],
    }


EXTRAS = [
    {   # old-style id, no licence, two versions listed newest first, LaTeX and double spaces
        "id": "hep-th/9901001", "version": 2,
        "title": "Anomalies  and $\\mathcal{N}=2$ {\\it Supersymmetric}\n  Gauge Theories --- a note",
        "abstract": "  We compute the one-loop $\\beta$-function of {\\em all} such theories.\n  Double  spaces\tand tabs stay whitespace.\n",
        "submitted": "1999-01-04T17:30:00Z", "primary": "hep-th", "cross": ["math-ph", "gr-qc", "math.DS"],
        "license": None, "versions_out_of_order": True, "literal": True,
    },
    {   # old-style math archive, one version, non-ASCII, licence present
        "id": "math/0406128", "version": 1,
        "title": "Sur les espaces de Böhm–Ångström et l'opérateur Σ",
        "abstract": "Nous étudions ΣΑΣ et les «fonctions» de Gödel; Straße bleibt Straße.",
        "submitted": "2004-06-07T12:00:00Z", "primary": "math.DS", "cross": [],
        "license": "http://arxiv.org/licenses/assumed-1991-2003/",
    },
    {   # new-style 5-digit id, three versions, cross-lists out of order
        "id": "2402.00001", "version": 3,
        "title": "A Title\nwith a Line Break and   runs of spaces",
        "abstract": "\n  Leading and trailing whitespace, $O(n \\log n)$ and \\emph{LaTeX}.\n\n",
        "submitted": "2024-01-31T23:59:59Z", "primary": "cs.LG", "cross": ["stat.ML", "cs.AI", "math.OC"],
        "license": "http://creativecommons.org/licenses/by/4.0/", "literal": True,
    },
]


def versions(p):
    start = datetime.strptime(p["submitted"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    vs = [("v%d" % (i + 1), arxiv_rfc2822(start + timedelta(days=37 * i, hours=3 * i)))
          for i in range(p["version"])]
    if p.get("versions_out_of_order"):
        vs.reverse()
    return vs


def categories(p):
    cross = list(p["cross"])
    rng.shuffle(cross)
    return " ".join([p["primary"]] + cross)


def atom_entry(p):
    lic = ""
    if p["license"]:
        lic = "    <arxiv:license>%s</arxiv:license>\n" % escape(p["license"])
    cats = "".join('    <category term="%s" scheme="http://arxiv.org/schemas/atom"/>\n' % c
                   for c in [p["primary"]] + sorted(p["cross"], reverse=True))
    return (
        "  <entry>\n"
        "    <id>http://arxiv.org/abs/%s</id>\n"
        "    <updated>%s</updated>\n"
        "    <published>%s</published>\n"
        "    <title>%s</title>\n"
        "    <summary>%s\n</summary>\n"
        "    <author><name>A. Author</name></author>\n"
        "%s"
        '    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="%s" scheme="http://arxiv.org/schemas/atom"/>\n'
        "%s"
        "  </entry>\n"
    ) % (p["id"] + "v%d" % p["version"], p["submitted"], p["submitted"],
         escape(wrap(p["title"], 70, "")), escape(wrap(p["abstract"], 80, "  ")),
         lic, p["primary"], cats)


def atom_feed(papers):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
            '  <title type="html">ArXiv Query: fixtures for issue 14</title>\n'
            + "".join(atom_entry(p) for p in papers) + "</feed>\n")


def raw_title(p):
    if p.get("literal"):
        return p["title"]
    return wrap(p["title"], 60, "").replace("\n", "\n  ")


def raw_abstract(p):
    if p.get("literal"):
        return p["abstract"]
    return "  " + wrap(p["abstract"], 75, "").replace("\n", "\n") + "\n"


def arxivraw_record(p):
    vs = "".join('<version version="%s"><date>%s</date><size>%dkb</size><source_type>D</source_type></version>\n'
                 % (v, d, 10 + i) for i, (v, d) in enumerate(versions(p)))
    lic = "<license>%s</license>\n" % escape(p["license"]) if p["license"] else ""
    return (
        "<record><header><identifier>oai:arXiv.org:%s</identifier><datestamp>2024-06-01</datestamp>"
        "<setSpec>cs</setSpec></header>\n<metadata>\n"
        '<arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="http://arxiv.org/OAI/arXivRaw/ http://arxiv.org/OAI/arXivRaw.xsd">'
        "<id>%s</id><submitter>A. Author</submitter>\n%s<title>%s</title><authors>A. Author and B. Autor</authors>"
        "<categories>%s</categories>\n%s<abstract>%s</abstract>\n</arXivRaw>\n</metadata>\n</record>\n"
    ) % (p["id"], p["id"], vs, escape(raw_title(p)), categories(p), lic, escape(raw_abstract(p)))


def oai_page(papers, token=""):
    tok = ('<resumptionToken cursor="0" completeListSize="%d">%s</resumptionToken>\n' % (len(papers) * 3, token)
           if token else '<resumptionToken cursor="0" completeListSize="%d"/>\n' % len(papers))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n'
            "<responseDate>2024-06-02T00:00:00Z</responseDate>\n"
            '<request verb="ListRecords" metadataPrefix="arXivRaw">http://export.arxiv.org/oai2</request>\n'
            "<ListRecords>\n" + "".join(arxivraw_record(p) for p in papers) + tok
            + "</ListRecords>\n</OAI-PMH>\n")


def snapshot_line(p):
    return json.dumps({
        "id": p["id"], "submitter": "A. Author", "authors": "A. Author and B. Autor",
        "title": raw_title(p), "comments": "12 pages", "journal-ref": None, "doi": None,
        "report-no": None, "categories": categories(p), "license": p["license"],
        "abstract": raw_abstract(p),
        "versions": [{"version": v, "created": d} for v, d in sorted(versions(p), key=lambda x: int(x[0][1:]))],
        "update_date": "2024-06-01",
        "authors_parsed": [["Author", "A.", ""], ["Autor", "B.", ""]],
    }, ensure_ascii=False) + "\n"


def write(name, text):
    (HERE / name).write_text(text, encoding="utf-8")


def main():
    records = json.loads((ROOT / "tests/data/records.json").read_text(encoding="utf-8"))
    exact = [paper_from_vector(v) for v in records
             if v.get("title_ok") and v.get("abstract_ok") and not v.get("variant_of")]
    for name, papers in (("vectors", exact), ("extras", EXTRAS)):
        write(name + ".atom.xml", atom_feed(papers))
        write(name + ".arxivraw.xml", oai_page(papers))
        write(name + ".snapshot.jsonl", "".join(snapshot_line(p) for p in papers))
    write("vectors.expected.jsonl", "".join(json.dumps(
        {"id": p["id"], "version": p["version"], "number": p["published_number"],
         "canonical_sha256": p["canonical_sha256"]}) + "\n" for p in exact))


if __name__ == "__main__":
    main()
