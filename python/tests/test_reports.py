"""One job layer under both front ends: the CLI's --json reports and Python's dicts have the
same keys (docs/reports.md), and Python reaches what the CLI does: inject from and to memory,
strip, batch items, replacing what page 1 prints. PDFs are read back with qpdf, pdfinfo,
exiftool, pdftotext and pikepdf."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import pith_number as pn
from conftest import (pith_cli, FIXTURES, REPO, SEED, latex_paper, need_module, need_tool,
                      require_tools, run)

OTHER = "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL"


def keys(d) -> set:
    """Every key path of a JSON value: "xmp.pith:url", "written[].item", …"""
    out = set()

    def walk(v, prefix):
        if isinstance(v, dict):
            for k, x in v.items():
                out.add(prefix + k)
                walk(x, prefix + k + ".")
        elif isinstance(v, list):
            for x in v:
                walk(x, prefix.rstrip(".") + "[].")
    walk(d, "")
    return out


def test_cli_and_python_reports_have_the_same_keys(tmp_path: Path):
    cli = pith_cli()
    src = FIXTURES / "minimal.pdf"
    r = run([cli, "inject", str(src), "--number", SEED, "-o", str(tmp_path / "cli.pdf"), "--json"])
    assert r.returncode == 0, r.stderr
    from_cli = json.loads(r.stdout)
    from_py = pn.inject(src, SEED, tmp_path / "py.pdf")
    assert keys(from_cli) == keys(from_py) and from_py["written"]
    assert from_cli["status"] == from_py["status"] == "injected"
    for path in (tmp_path / "cli.pdf", FIXTURES / "minimal.pdf"):
        r = run([cli, "inspect", "--json", str(path)])
        assert r.returncode in (0, 1), r.stderr
        from_cli = json.loads(r.stdout)
        from_py = pn.inspect(path)
        assert keys(from_cli) == keys(from_py)
        assert from_cli == from_py


def test_inject_bytes_in_memory(tmp_path: Path):
    data = (FIXTURES / "minimal.pdf").read_bytes()
    out, report = pn.inject_bytes(data, OTHER)
    assert out[: len(data)] == data and report["status"] == "injected"
    assert report["bytes_after"] == len(out) and report["replaced"] is None
    again, report = pn.inject_bytes(out, SEED)
    assert report["replaced"] == OTHER, "a different number replaced is said"
    same, report = pn.inject_bytes(again, SEED)
    assert same == again and report["status"] == "unchanged"
    path = tmp_path / "m.pdf"
    path.write_bytes(again)
    r = run([need_tool("qpdf"), "--check", str(path)])
    assert r.returncode in (0, 3), r.stdout
    r = run([need_tool("pdfinfo"), "-custom", str(path)])
    assert SEED in r.stdout
    assert pn.inspect(again)["number"] == SEED
    with pytest.raises(pn.NotPdfError):
        pn.inject_bytes(b"hello", SEED)


def test_inject_bytes_stamped_page_refuses_another_number():
    # A stamp prints its number on the page: writing another number into the metadata alone
    # would make the page contradict it, so it is refused, naming both numbers.
    data = (FIXTURES / "minimal.pdf").read_bytes()
    out, report = pn.inject_bytes(data, OTHER, stamp=True, stamp_position="top")
    assert report["status"] == "injected" and "stamp" in {w["item"] for w in report["written"]}
    with pytest.raises(pn.PdfError) as e:
        pn.inject_bytes(out, SEED)
    assert e.value.kind == "printed"
    assert OTHER.split(":")[2][:8] in str(e.value) and SEED in str(e.value)
    assert pn.inspect(out)["number"] == OTHER


def test_strip_file_and_bytes(tmp_path: Path):
    stamped = tmp_path / "s.pdf"
    pn.inject(FIXTURES / "minimal.pdf", SEED, stamped, stamp=True)
    clean = tmp_path / "c.pdf"
    r = pn.strip(stamped, clean)
    assert r["status"] == "stripped" and r["removed"] == SEED
    assert clean.read_bytes().startswith(stamped.read_bytes())
    ex = run([need_tool("exiftool"), "-j", "-PithNumber", "-XMP-pith:all", str(clean)])
    assert "pith:" not in ex.stdout.replace('"SourceFile"', ""), ex.stdout
    ins = pn.inspect(clean)
    assert not ins["has_number"]
    out, r = pn.strip(stamped.read_bytes())
    assert r["status"] == "stripped" and not pn.inspect(out)["has_number"]
    assert pn.strip(clean, in_place=True)["status"] == "unchanged"


def test_batch_item_runs_and_checks(tmp_path: Path):
    src = tmp_path / "in" / "a.pdf"
    src.parent.mkdir()
    shutil.copyfile(FIXTURES / "minimal.pdf", src)
    line = pn.batch_item(src, SEED, out_dir=tmp_path / "out")
    assert line["status"] == "injected" and Path(line["out"]) == tmp_path / "out" / "a.pdf"
    assert pn.batch_item(src, SEED, out_dir=tmp_path / "out")["status"] == "unchanged"
    assert pn.batch_item(src, SEED, out_dir=tmp_path / "out", check=True)["status"] == "matches"
    bad = pn.batch_item(src, OTHER, out_dir=tmp_path / "out", check=True)
    assert bad["status"] == "differs" and bad["found"] == SEED
    gone = pn.batch_item(src, SEED, out_dir=tmp_path / "none", check=True)
    assert gone["status"] == "missing"
    junk = tmp_path / "in" / "junk.pdf"
    junk.write_bytes(b"not a pdf")
    refused = pn.batch_item(junk, SEED, out_dir=tmp_path / "out")
    assert refused["status"] == "refused" and refused["refusal"] == "not_pdf"
    assert not (tmp_path / "out" / "junk.pdf").exists()


def _record(number: str) -> str:
    return "https://pith.science/pith/" + number.split(":")[-1]


def _short(number: str) -> str:
    return "pith:" + number.split(":")[-1][:8]


@pytest.fixture(params=["stamp", "badge"])
def printed(request, tmp_path: Path) -> Path:
    """A PDF whose page 1 prints OTHER: stamped by ``pith inject --stamp``, or with the badge
    ``pith.sty`` draws (compiled by pdflatex)."""
    if request.param == "stamp":
        out = tmp_path / "stamped.pdf"
        r = run([pith_cli(), "inject", str(FIXTURES / "minimal.pdf"), "--number", OTHER,
                 "--stamp", "-o", str(out)])
        assert r.returncode == 0, r.stderr
        return out
    return latex_paper(tmp_path, pn.sty(), OTHER)


def _page_one(path: Path) -> tuple:
    """Page 1's text (pdftotext) and the URIs of its link annotations (pikepdf)."""
    text = run([need_tool("pdftotext"), "-f", "1", "-l", "1", str(path), "-"]).stdout
    pikepdf = need_module("pikepdf")
    with pikepdf.open(path) as pdf:
        uris = [str(a.A.URI) for a in pdf.pages[0].obj.get("/Annots", [])
                if a.get("/Subtype") == "/Link" and "/A" in a and "/URI" in a.A]
    return text, uris


def test_replace_redraws_what_page_one_prints(printed: Path, tmp_path: Path):
    text, uris = _page_one(printed)
    assert _short(OTHER) in text and _record(OTHER) in uris, (text, uris)
    out = tmp_path / "new.pdf"
    with pytest.raises(pn.PdfError) as e:
        pn.inject(printed, SEED, out)
    assert e.value.kind == "printed" and _short(OTHER) in str(e.value) and SEED in str(e.value)
    assert not out.exists(), "a refusal writes nothing"
    data = printed.read_bytes()
    with pytest.raises(pn.PdfError):
        pn.inject_bytes(data, SEED)
    line = pn.batch_item(printed, SEED, out=out)
    assert (line["status"], line["refusal"]) == ("refused", "printed") and not out.exists()

    report = pn.inject(printed, SEED, out, replace=True)
    assert report["status"] == "injected" and report["replaced"] == OTHER
    assert out.read_bytes().startswith(data), "an incremental update"
    text, uris = _page_one(out)
    assert _short(SEED) in text and _short(OTHER) not in text, text
    assert uris and all(u == _record(SEED) for u in uris), uris
    ins = pn.inspect(out)
    assert ins["number"] == SEED and ins["consistent"] is True
    assert all(p["agrees"] for p in ins["places"]), ins["places"]

    same, r = pn.inject_bytes(data, SEED, replace=True)
    assert r["status"] == "injected" and pn.inspect(same)["consistent"] is True
    line = pn.batch_item(printed, SEED, out=tmp_path / "b.pdf", replace=True)
    assert line["status"] == "injected", line
