"""One paper through Python's doors: ``inject`` with ``arxiv_atom=`` and with ``record=``,
``batch`` with arXiv's bulk metadata and ``process_tar`` write what ``pith inject
--arxiv-atom`` writes: the same XMP (dates aside), and the same identifiers, title and authors
in calibre's ``ebook-meta``, the Pith Number once. And the per-file time bound: a file past
it is its own refusal, and a batch goes on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any, Dict, List

import pytest

import pith_number as pn
from conftest import FIXTURES, VECTORS, need_tool, pith_cli, run

ID = "2402.03791"
NUMBER = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"
NAME = f"{ID}v3.pdf"
EPOCH = "1700000000"


def feed(tmp: Path) -> Path:
    """The vectors' Atom feed, the paper's entry naming the two authors the bulk metadata names."""
    text = (VECTORS / "arxiv" / "vectors.atom.xml").read_text()
    one = "<author><name>A. Author</name></author>"
    text = text.replace(one, one + "<author><name>B. Autor</name></author>", 1)
    p = tmp / "feed.atom.xml"
    p.write_text(text)
    return p


def seen(pdf: Path) -> Dict[str, Any]:
    """exiftool's XMP tags (dates aside) and calibre's title, authors and identifiers."""
    out = run([need_tool("exiftool"), "-j", "-XMP:all", "-G1", str(pdf)])
    assert out.returncode == 0, out.stderr
    xmp = {k: v for k, v in json.loads(out.stdout)[0].items()
           if "Date" not in k and k != "SourceFile"}
    meta = run([need_tool("ebook-meta"), str(pdf)])
    assert meta.returncode == 0, meta.stderr
    lines = dict(
        (k.strip(), v.strip())
        for k, v in (line.split(":", 1) for line in meta.stdout.splitlines() if ":" in line)
    )
    ids: List[str] = sorted(i for i in lines.get("Identifiers", "").split(", ") if i)
    return {"xmp": xmp, "title": lines.get("Title"), "authors": lines.get("Author(s)"),
            "identifiers": ids}


def test_python_doors_write_what_the_cli_writes(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    atom = feed(tmp_path)
    inp = tmp_path / "in"
    inp.mkdir()
    shutil.copy(FIXTURES / "minimal.pdf", inp / NAME)
    pdf = inp / NAME

    cli = tmp_path / "cli.pdf"
    r = subprocess.run([pith_cli(), "inject", str(pdf), "--arxiv-atom", str(atom), "--id", ID,
                        "-o", str(cli)], capture_output=True, text=True,
                       env={**os.environ, "SOURCE_DATE_EPOCH": EPOCH})
    assert r.returncode == 0, r.stderr
    want = seen(cli)
    code = NUMBER.rsplit(":", 1)[1]
    assert [i for i in want["identifiers"] if code in i] == [NUMBER], want
    assert f"arxiv:{ID}v3" in want["identifiers"] and "A. Author" in want["authors"], want

    doors: Dict[str, Path] = {}
    doors["inject(arxiv_atom=)"] = tmp_path / "atom.pdf"
    pn.inject(pdf, arxiv_atom=atom, arxiv_id=ID, output=doors["inject(arxiv_atom=)"])

    record = json.loads(run([pith_cli(), "record", "--arxiv-atom", str(atom), "--id", ID]).stdout)
    wrapped = {"canonical_record": record, "pith_number": NUMBER,
               "title": "ZeroPP: Unleashing Exceptional Parallelism Efficiency through "
                        "Tensor-Parallelism-Free Methodology",
               "authors": "A. Author and B. Autor"}
    doors["inject(record=)"] = tmp_path / "record.pdf"
    pn.inject(pdf, record=wrapped, output=doors["inject(record=)"])

    out_dir = tmp_path / "batch"
    b = pn.batch(inp, out_dir=out_dir, metadata=VECTORS / "arxiv" / "vectors.snapshot.jsonl")
    assert b["summary"]["injected"] == 1, b
    doors["batch(metadata=)"] = out_dir / NAME

    tar_in = tmp_path / "in.tar"
    with tarfile.open(tar_in, "w", format=tarfile.GNU_FORMAT) as t:
        t.add(pdf, arcname=f"2402/{NAME}")
    tar_out = tmp_path / "out.tar"
    pn.process_tar(tar_in, tar_out, metadata=VECTORS / "arxiv" / "vectors.snapshot.jsonl")
    member = tmp_path / "member.pdf"
    with tarfile.open(tar_out) as t:
        got = t.extractfile(f"2402/{NAME}")
        assert got is not None
        member.write_bytes(got.read())
    doors["process_tar"] = member

    for door, path in doors.items():
        assert seen(path) == want, door

    # A file that already carries the number is left as it is, fields and all.
    again = pn.inject(doors["inject(arxiv_atom=)"], arxiv_atom=atom, arxiv_id=ID, in_place=True)
    assert again["status"] == "unchanged", again

    with pytest.raises(ValueError):
        pn.inject(pdf, NUMBER, record=wrapped, output=tmp_path / "both.pdf")


def test_a_file_past_its_time_bound_is_its_own_refusal(tmp_path: Path) -> None:
    inp = tmp_path / "in"
    inp.mkdir()
    for i in range(3):
        shutil.copy(FIXTURES / "minimal.pdf", inp / f"f{i}.pdf")
        (inp / f"f{i}.pith").write_text(NUMBER)
    with pytest.raises(pn.PdfError) as e:
        pn.inject(inp / "f0.pdf", NUMBER, output=tmp_path / "o.pdf", file_timeout=1e-9)
    assert e.value.kind == "over_time" and "time" in str(e.value)
    assert not (tmp_path / "o.pdf").exists()
    b = pn.batch(inp, out_dir=tmp_path / "out", file_timeout=1e-9)
    assert [(x["status"], x["refusal"]) for x in b["lines"]] == [("failed", "over_time")] * 3
    assert b["summary"]["failed"] == 3
    b = pn.batch(inp, out_dir=tmp_path / "out", file_timeout=0)
    assert b["summary"]["injected"] == 3
