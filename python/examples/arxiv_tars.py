#!/usr/bin/env python3
"""Number arXiv's bulk PDF tars on a Dask cluster.

Each tar listed in arXiv's ``arXiv_pdf_manifest.xml`` is one Dask task, which streams it
through ``pith_number.process_tar`` (the GIL released): every PDF member named by arXiv id gets
the Pith Number of its entry in the bulk metadata, every other member is copied byte for byte,
and the tar's md5 and size are checked against the manifest while it is read. The outputs are
those of ``pith batch --tar-dir TARS --out-dir OUT``, byte for byte:

- ``OUT/<the tar's file name>``: the updated tar (written only when the input matches the
  manifest);
- ``OUT/<the tar's file name>.jsonl``: its report (a line per member, then its totals);
- ``OUT/arXiv_pdf_manifest.xml``: the output manifest (the outputs' md5 and size), for the next
  stage to verify.

A tar already done in OUT (its report and output agree) is skipped, so a run that stopped can
be started again. ``--tars`` may be an fsspec URL (``s3://arxiv/pdf`` with s3fs installed,
``--storage-options '{"requester_pays": true}'``): each task then streams its tar from there.

Usage::

    python python/examples/arxiv_tars.py --manifest arXiv_pdf_manifest.xml --tars DIR \\
        --metadata arxiv-metadata-oai-snapshot.json --out OUT --scheduler local --workers 2

``--scheduler ADDRESS`` (``tcp://host:8786``) uses an existing cluster instead of a local one;
its workers need ``pith_number`` installed and OUT on a shared file system.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, List, Optional


def manifest_tars(manifest: Path) -> List[Dict[str, str]]:
    """The ``<file>`` entries of an arXiv PDF manifest, as dicts of their fields."""
    root = ET.parse(manifest).getroot()
    return [{c.tag: (c.text or "").strip() for c in f} for f in root.iter("file")]


def tar_name(entry: Dict[str, str]) -> str:
    """The tar's file name (``pdf/arXiv_pdf_2402_001.tar`` → ``arXiv_pdf_2402_001.tar``)."""
    return entry["filename"].rsplit("/", 1)[-1]


def is_url(path: str) -> bool:
    """Whether ``path`` is an fsspec URL rather than a local path."""
    return "://" in path


def already_done(out: Path, entry: Dict[str, str]) -> bool:
    """The rule of ``pith batch --tar-dir``: the report's totals are for an input with the
    entry's md5 and size, and the output has the size they give."""
    name = tar_name(entry)
    try:
        lines = (out / f"{name}.jsonl").read_text().splitlines()
        last = json.loads(next(l for l in reversed(lines) if l.strip()))
        return (
            last.get("summary") == "summary"
            and last.get("md5_in") == entry["md5sum"].lower()
            and last.get("size_in") == int(entry["size"])
            and (out / name).stat().st_size == last.get("size")
        )
    except (OSError, ValueError, StopIteration, KeyError):
        return False


def split_metadata(paths: List[str], months: List[str], into: Path) -> Dict[str, List[str]]:
    """Splits snapshot JSON Lines (plain or gzip) by the month of each line's id, for the
    ``months`` wanted: a task then reads its tar's month, not the whole snapshot. Returns the
    metadata paths per month."""
    import gzip
    import re

    into.mkdir(parents=True, exist_ok=True)
    wanted = set(months)
    files = {m: open(into / f"{m}.jsonl", "wb") for m in wanted}
    id_re = re.compile(rb'"id"\s*:\s*"(?:[a-z-]+(?:\.[A-Z]{2})?/)?(\d{4})')
    try:
        for path in paths:
            with open(path, "rb") as head:
                gz = head.read(2) == b"\x1f\x8b"
            with (gzip.open(path, "rb") if gz else open(path, "rb")) as lines:
                for line in lines:
                    found = id_re.search(line)
                    month = found.group(1).decode() if found else ""
                    if month in wanted:
                        files[month].write(line if line.endswith(b"\n") else line + b"\n")
    finally:
        for out in files.values():
            out.close()
    return {m: [str(into / f"{m}.jsonl")] for m in wanted}


def process_one(
    name: str,
    metadata: List[str],
    tars: str,
    out: str,
    manifest: str,
    now: str,
    options: Dict[str, Any],
    storage_options: Dict[str, Any],
) -> Dict[str, Any]:
    """One Dask task: streams one tar; returns a line like ``pith batch --tar-dir``'s."""
    import pith_number

    dst = Path(out) / name
    report = Path(out) / f"{name}.jsonl"
    try:
        if is_url(tars):
            import fsspec

            url = tars.rstrip("/") + "/" + name
            with fsspec.open(url, "rb", **storage_options) as src:
                r = pith_number.process_tar(
                    src, dst, metadata=metadata, manifest=manifest, name=name,
                    now=now, report=report, **options,
                )
        else:
            r = pith_number.process_tar(
                Path(tars) / name, dst, metadata=metadata, manifest=manifest,
                now=now, report=report, **options,
            )
    except pith_number.TarError as e:
        return {"tar": name, "status": "failed", "reason": str(e)}
    t = r["totals"]
    return {"tar": name, "status": "done", "md5": t["md5"], "size": t["size"], "totals": t}


def update_time() -> str:
    """One update time for every tar: SOURCE_DATE_EPOCH when set (reproducible), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    t = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
        if epoch
        else datetime.datetime.now(datetime.timezone.utc)
    )
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--manifest", required=True, type=Path, help="arXiv_pdf_manifest.xml")
    p.add_argument("--tars", required=True, help="directory (or fsspec URL) of the tars")
    p.add_argument("--metadata", required=True, nargs="+", help="arXiv bulk metadata file(s)")
    p.add_argument("--out", required=True, type=Path, help="output directory")
    p.add_argument("--scheduler", default="local", help="'local' or a scheduler address")
    p.add_argument("--workers", type=int, default=2, help="worker processes of a local cluster")
    p.add_argument("--jobs", type=int, default=1, help="PDF threads inside each task")
    p.add_argument("--shard", help="K/N: only the tars of shard K (pith batch's assignment)")
    p.add_argument("--stamp", action="store_true", help="also stamp page 1")
    p.add_argument("--repair", action="store_true", help="repair damaged PDFs (append-only)")
    p.add_argument("--any-version", action="store_true", help="number older versions too")
    p.add_argument("--storage-options", default="{}", help="fsspec options (JSON) for --tars")
    p.add_argument("--split-metadata", action="store_true",
                   help="split snapshot JSON Lines by month first (OUT/.metadata), so that each "
                   "task reads its tar's month instead of the whole snapshot")
    args = p.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    import pith_number

    args.out.mkdir(parents=True, exist_ok=True)
    entries = manifest_tars(args.manifest)
    if args.shard:
        k, n = (int(x) for x in args.shard.split("/"))
        entries = [e for e in entries if pith_number.tar_shard_key(tar_name(e)) % n == k]
    todo = [tar_name(e) for e in entries if not already_done(args.out, e)]
    skipped = [tar_name(e) for e in entries if tar_name(e) not in todo]
    options = {"stamp": args.stamp, "repair": args.repair, "any_version": args.any_version,
               "jobs": args.jobs}
    metadata = [str(Path(m).resolve()) for m in args.metadata]
    tars = args.tars if is_url(args.tars) else str(Path(args.tars).resolve())
    out = str(args.out.resolve())
    manifest = str(args.manifest.resolve())

    per_tar = {name: metadata for name in todo}
    if args.split_metadata and todo:
        yymm = {tar_name(e): e.get("yymm", "") for e in entries}
        split = split_metadata(metadata, sorted({yymm[n] for n in todo}),
                               args.out.resolve() / ".metadata")
        per_tar = {name: split[yymm[name]] for name in todo}

    if args.scheduler == "local":
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        cluster = None
        client = Client(args.scheduler)
    try:
        futures = client.map(
            process_one, todo, [per_tar[n] for n in todo], tars=tars, out=out, manifest=manifest,
            now=update_time(), options=options,
            storage_options=json.loads(args.storage_options), pure=False,
        )
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    for name in skipped:
        print(json.dumps({"tar": name, "status": "skipped"}))
    for r in results:
        print(json.dumps(r, sort_keys=True))
    path = pith_number.write_tar_manifest(args.manifest, args.out)
    failed = [r for r in results if r["status"] == "failed"]
    print(f"{len(results) - len(failed)} tars done, {len(skipped)} already done, "
          f"{len(failed)} failed; output manifest {path}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
