"""arXiv bulk tars through Python: ``process_tar`` on paths and file objects, and the Dask
example (python/examples/arxiv_tars.py) on a LocalCluster of two worker processes, whose
outputs must be byte for byte those of ``pith batch --tar-dir``. The tars are written by GNU
tar and the numbers read back by exiftool."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import pith_number as pn
from conftest import pith_cli, EXAMPLES, FIXTURES, REPO, VECTORS, need_module, need_tool, require_tools

EPOCH = "1700000000"


def metadata(d: Path) -> Path:
    """The snapshot vectors plus an old-style entry (hep-th/0001001 v1)."""
    text = (VECTORS / "arxiv" / "vectors.snapshot.jsonl").read_text()
    old = json.loads(text.splitlines()[0])
    old.update(id="hep-th/0001001", categories="hep-th", versions=old["versions"][:1])
    p = d / "meta.jsonl"
    p.write_text(text + json.dumps(old) + "\n")
    return p


def make_tar(d: Path, name: str, files: List[Tuple[str, bytes]]) -> Path:
    """A GNU tar of ``files`` (member name, bytes) in order."""
    src = d / f"src-{name}"
    for member, data in files:
        (src / member).parent.mkdir(parents=True, exist_ok=True)
        (src / member).write_bytes(data)
    out = d / name
    subprocess.run(["tar", "--format=gnu", "--owner=arxiv:1000", "--group=arxiv:1000",
                    "--mtime=@1600000000", "-cf", str(out), "-C", str(src)]
                   + [m for m, _ in files], check=True)
    return out


def md5(p: Path) -> str:
    return hashlib.md5(p.read_bytes()).hexdigest()


def write_manifest(path: Path, tars: List[Path]) -> None:
    """arXiv's manifest format for ``tars``."""
    lines = ["<?xml version='1.0' standalone='yes'?>", "<arXivPDF>"]
    for i, t in enumerate(tars, 1):
        lines += ["<file>", f"<filename>pdf/{t.name}</filename>", f"<md5sum>{md5(t)}</md5sum>",
                  "<num_items>2</num_items>", f"<seq_num>{i}</seq_num>",
                  f"<size>{t.stat().st_size}</size>", f"<yymm>{t.name[10:14]}</yymm>", "</file>"]
    lines.append("</arXivPDF>")
    path.write_text("\n".join(lines) + "\n")


def example_pdf() -> bytes:
    return (EXAMPLES / "2402.03791v3.pdf").read_bytes()


def tars_and_manifest(d: Path) -> Tuple[Path, Path, List[Path]]:
    tars = d / "tars"
    tars.mkdir()
    made = [
        make_tar(tars, "arXiv_pdf_2402_001.tar", [("2402/2402.03791v3.pdf", example_pdf()),
                                                  ("2402/2402.03791v2.pdf", example_pdf())]),
        make_tar(tars, "arXiv_pdf_0001_001.tar", [
            ("0001/hep-th0001001v1.pdf", (FIXTURES / "minimal.pdf").read_bytes()),
            ("0001/astro-ph0001002v1.ps", b"%!PS-Adobe-2.0\n")]),
        make_tar(tars, "arXiv_pdf_1608_001.tar",
                 [("1608/1608.03461v2.pdf", (FIXTURES / "minimal.pdf").read_bytes())]),
    ]
    for p in tars.iterdir():
        if p.is_dir():
            shutil.rmtree(p)
    m = d / "arXiv_pdf_manifest.xml"
    write_manifest(m, made)
    return tars, m, made


def test_process_tar_paths_and_file_objects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    need_tool("tar")
    exiftool = need_tool("exiftool")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    meta = metadata(tmp_path)
    tars, m, made = tars_and_manifest(tmp_path)
    out = tmp_path / "out.tar"
    r = pn.process_tar(made[0], out, metadata=meta, manifest=m)
    status = {x["pdf"]: x["status"] for x in r["members"]}
    assert status == {"2402/2402.03791v3.pdf": "injected", "2402/2402.03791v2.pdf": "skipped"}
    assert r["totals"]["md5"] == md5(out) and r["totals"]["md5_in"] == md5(made[0])
    # File objects, in and out, give the same bytes (the GIL is taken per read/write call).
    buf = io.BytesIO()
    with open(made[0], "rb") as f:
        pn.process_tar(f, buf, metadata=[meta], manifest=m, name=made[0].name, jobs=3)
    assert buf.getvalue() == out.read_bytes()
    x = tmp_path / "x"
    x.mkdir()
    subprocess.run(["tar", "-xf", str(out), "-C", str(x)], check=True)
    got = subprocess.run([exiftool, "-s3", "-PithNumber", str(x / "2402/2402.03791v3.pdf")],
                         capture_output=True, text=True).stdout.strip()
    expected = {v["id"]: v["number"] for v in map(json.loads, (VECTORS / "arxiv" / "vectors.expected.jsonl").read_text().splitlines())}
    assert got == expected["2402.03791"], "exiftool reads the published number back"
    # A tar whose md5 differs from its entry: TarError, no output file.
    bad = tmp_path / made[0].name
    bad.write_bytes(made[0].read_bytes() + b"\0" * 512)
    out2 = tmp_path / "out2.tar"
    with pytest.raises(pn.TarError) as e:
        pn.process_tar(bad, out2, metadata=meta, manifest=m)
    assert e.value.kind == "mismatch" and not out2.exists()


def test_dask_example_matches_the_cli(tmp_path: Path) -> None:
    need_module("dask.distributed")
    need_tool("tar")
    pith = pith_cli()
    meta = metadata(tmp_path)
    tars, m, made = tars_and_manifest(tmp_path)
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    cli_out = tmp_path / "cli"
    r = subprocess.run([pith, "batch", "--tar-dir", str(tars), "--out-dir", str(cli_out),
                        "--arxiv-manifest", str(m), "--arxiv-metadata", str(meta)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    dask_out = tmp_path / "dask"
    example = REPO / "python" / "examples" / "arxiv_tars.py"
    r = subprocess.run([sys.executable, str(example), "--manifest", str(m), "--tars", str(tars),
                        "--metadata", str(meta), "--out", str(dask_out), "--scheduler", "local",
                        "--workers", "2", "--split-metadata"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
    assert sorted(l["tar"] for l in lines if l["status"] == "done") == sorted(t.name for t in made)
    for t in made:
        assert (dask_out / t.name).read_bytes() == (cli_out / t.name).read_bytes(), t.name
    manifest = "arXiv_pdf_manifest.xml"
    assert (dask_out / manifest).read_bytes() == (cli_out / manifest).read_bytes()
    assert all(md5(dask_out / t.name) in (dask_out / manifest).read_text() for t in made)
    # A second run finds every tar done.
    r = subprocess.run([sys.executable, str(example), "--manifest", str(m), "--tars", str(tars),
                        "--metadata", str(meta), "--out", str(dask_out), "--scheduler", "local",
                        "--workers", "2"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert [json.loads(l)["status"] for l in r.stdout.splitlines()
            if l.startswith("{")] == ["skipped"] * len(made)


def test_process_tar_progress_sees_each_member_and_can_stop_it(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    need_tool("tar")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    meta = metadata(tmp_path)
    tars, m, made = tars_and_manifest(tmp_path)
    seen: List[Dict[str, Any]] = []
    r = pn.process_tar(made[0], tmp_path / "out.tar", metadata=meta, manifest=m,
                       progress=seen.append)
    assert seen == r["members"] and len(seen) == 2
    # Stopped at its first member: the tar is interrupted and no output file is written.
    many = make_tar(tmp_path, "many.tar", [(f"2402/2402.03791v{i}.pdf", example_pdf())
                                           for i in range(1, 40)])
    calls: List[str] = []

    def first_only(line: Dict[str, Any]) -> bool:
        calls.append(line["pdf"])
        return False

    with pytest.raises(pn.TarError) as e:
        pn.process_tar(many, tmp_path / "many-out.tar", metadata=meta, jobs=1,
                       progress=first_only)
    assert e.value.kind == "interrupted", str(e.value)
    assert 1 <= len(calls) < 39
    assert not (tmp_path / "many-out.tar").exists()


def test_process_tar_refs_writes_the_lines_pith_refs_writes(tmp_path: Path) -> None:
    """``refs=`` gets each PDF member's references, named by the member: the lines ``pith refs``
    writes for the same file in the folder the tar was made from."""
    need_tool("tar")
    meta = metadata(tmp_path)
    paper = (EXAMPLES / "refs.pdf").read_bytes()
    t = make_tar(tmp_path, "in.tar", [("2402/2402.03791v3.pdf", paper)])
    refs = tmp_path / "refs.jsonl"
    r = pn.process_tar(t, tmp_path / "out.tar", metadata=meta, refs=refs)
    assert [m["status"] for m in r["members"]] == ["injected"]
    got = {json.dumps(json.loads(l), sort_keys=True) for l in refs.read_text().splitlines()}
    cli = subprocess.run([pith_cli(), "refs", "2402/2402.03791v3.pdf"], capture_output=True,
                         text=True, cwd=tmp_path / "src-in.tar")
    assert cli.returncode == 0, cli.stderr
    want = {json.dumps(json.loads(l), sort_keys=True) for l in cli.stdout.splitlines()}
    assert len(want) >= 4 and got == want
