#!/usr/bin/env python3
"""A straightforward Python reference for numbering the arXiv metadata snapshot.

    python3 bench/arxiv_reference.py SNAPSHOT.jsonl > numbers.jsonl

Reads JSON Lines (plain text; decompress first), maps each paper to its canonical record by
the SPEC (latest version, v1 date in UTC, primary = first category, the rest byte-sorted,
missing licence "", canon = " ".join(text.split()).lower()) and prints the same JSON line per
paper as `pith number --arxiv-snapshot`. It is both the benchmark's baseline (json + hashlib,
one core) and, being written independently of the Rust code, the tests' second opinion.
Bad lines are reported on stderr as FILE:LINE: reason.
"""
import base64
import hashlib
import json
import sys
from email.utils import parsedate_to_datetime
from datetime import timezone


def canon_sha(text):
    return hashlib.sha256(" ".join(text.split()).lower().encode("utf-8")).hexdigest()


def record(p):
    versions = {int(v["version"][1:]): v["created"] for v in p["versions"]}
    v1 = parsedate_to_datetime(versions[1]).astimezone(timezone.utc)
    cats = p["categories"].split()
    primary = cats[0]
    cross = sorted({c for c in cats[1:] if c != primary}, key=lambda c: c.encode("utf-8"))
    return {
        "metadata": {
            "abstract_canon_sha256": canon_sha(p["abstract"]),
            "cross_cats_sorted": cross,
            "license": (p.get("license") or "").strip(),
            "primary_cat": primary,
            "submitted_at": v1.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "title_canon_sha256": canon_sha(p["title"]),
        },
        "schema_version": "1.0",
        "source": {"id": p["id"].strip(), "kind": "arxiv", "version": max(versions)},
    }


def main():
    path = sys.argv[1]
    out = sys.stdout
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = record(json.loads(line))
            except Exception as e:  # noqa: BLE001 - report and go on, as pith does
                print("%s:%d: %s" % (path, n, e), file=sys.stderr)
                continue
            data = json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            digest = hashlib.sha256(data).digest()
            code = base64.b32encode(digest).decode("ascii")[:26]
            year = r["metadata"]["submitted_at"][:4]
            out.write(json.dumps({
                "id": r["source"]["id"], "version": r["source"]["version"],
                "number": "pith:%s:%s" % (year, code), "url": "https://pith.science/pith/" + code,
                "canonical_sha256": digest.hex()}, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
