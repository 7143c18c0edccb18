"""Badges (rendered by rsvg-convert, QR decoded by zbarimg), snippets (parsed by the standard
library's HTML parser and docutils) and pith.sty (compiled by pdflatex, read back by pdfinfo)."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

import pith_number as pn
from conftest import REPO, SEED, latex_paper, need_module, need_tool, pith_cli, run

CODE = SEED.split(":")[2]
URL = "https://pith.science/pith/" + CODE


def test_badge_svg_is_xml_and_renders(tmp_path: Path):
    svg = pn.badge_svg(SEED, full=True, status="computed", style="flat-square")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and int(root.get("width", "0")) > 0
    text = "".join(root.itertext())
    assert "2024:" + CODE in text and "computed" in text
    f = tmp_path / "b.svg"
    f.write_text(svg, encoding="utf-8")
    r = run([need_tool("rsvg-convert"), "-o", str(tmp_path / "b.png"), str(f)])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    short = ET.fromstring(pn.badge_svg(CODE))
    assert CODE[:8] in "".join(short.itertext())


def test_badge_status_is_what_pith_checked():
    """The CLI's rule: "verified" comes from a bundle's checked receipt, "stored" and
    "anchored" from a capture or proof a mirror checked, never stated; each refused with the
    library's kind and sentence."""
    for status in ("verified", "stored", "anchored"):
        with pytest.raises(pn.BadgeError) as e:
            pn.badge_svg(SEED, status=status)
        assert e.value.kind == "unchecked_status"
        assert status in str(e.value)
        with pytest.raises(pn.BadgeError):
            pn.badge_snippet(SEED, "md", status=status)
        cli = run([pith_cli(), "badge", SEED, "--status", status])
        assert cli.returncode == 2 and str(e.value) in cli.stderr, cli.stderr


def test_badge_qr_decodes_to_the_record_url(tmp_path: Path):
    svg = pn.badge_svg(SEED, qr=4)
    f = tmp_path / "qr.svg"
    f.write_text(svg, encoding="utf-8")
    png = tmp_path / "qr.png"
    r = run([need_tool("rsvg-convert"), "-b", "white", "-z", "2", "-o", str(png), str(f)])
    assert r.returncode == 0, r.stderr
    r = run([need_tool("zbarimg"), "--raw", "-q", str(png)])
    assert r.stdout.strip() == URL, r.stdout + r.stderr


def test_badge_errors():
    with pytest.raises(pn.BadgeError) as e:
        pn.badge_svg(SEED, style="round")  # type: ignore[arg-type]
    assert e.value.kind == "unknown_style"
    with pytest.raises(pn.BadgeError) as e:
        pn.badge_svg(SEED, label="a\x07b")
    assert e.value.kind == "control_character" and e.value.field == "label"
    with pytest.raises(pn.BadgeError) as e:
        pn.badge_svg(SEED, qr=99)
    assert e.value.kind == "qr_module_size"
    with pytest.raises(pn.NumberError):
        pn.badge_svg("pith:7BMK4ZKT")
    with pytest.raises(pn.BadgeError) as e:
        pn.badge_snippet(SEED, "docx")  # type: ignore[arg-type]
    assert e.value.kind == "unknown_format"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list = []
        self.imgs: list = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            self.hrefs.append(a.get("href"))
        if tag in ("img", "source"):
            self.imgs.append(a.get("src") or a.get("srcset"))


def test_snippets_link_the_record():
    md = pn.badge_snippet(SEED, "md")
    assert md == f"[![Pith Number {SEED}](pith-{CODE[:8]}.svg)]({URL})\n"
    h = Links()
    h.feed(pn.badge_snippet(SEED, "html", src="https://e.org/b.svg?a=1&b=2", dark_src="d.svg"))
    assert h.hrefs == [URL] and "https://e.org/b.svg?a=1&b=2" in h.imgs and "d.svg" in h.imgs
    tex = pn.badge_snippet(SEED, "tex")
    assert f"\\href{{{URL}}}" in tex and f"pith-{CODE[:8]}.pdf" in tex
    assert URL in pn.badge_snippet(SEED, "adoc")
    rst = pn.badge_snippet(SEED, "rst", status="computed")
    docutils_core = need_module("docutils.core")
    nodes = need_module("docutils.nodes")
    tree = docutils_core.publish_doctree(rst)  # type: ignore[attr-defined]
    refs = [n.get("refuri") for n in tree.findall(nodes.reference)]  # type: ignore[attr-defined]
    imgs = [n.get("uri") for n in tree.findall(nodes.image)]  # type: ignore[attr-defined]
    assert refs == [URL] and imgs == [f"pith-{CODE[:8]}.svg"]
    assert not list(tree.findall(nodes.system_message))  # type: ignore[attr-defined]


def test_sty_is_the_committed_file_and_compiles(tmp_path: Path):
    text = pn.sty()
    assert text == (REPO / "latex" / "pith.sty").read_text(encoding="utf-8")
    assert pn.sty_ltxml() == (REPO / "latex" / "pith.sty.ltxml").read_text(encoding="utf-8")
    custom = pn.sty(version="9.9.9", date="2030/01/02")
    assert re.search(r"\\ProvidesPackage\{pith\}\s*\[2030/01/02", custom)
    with pytest.raises(pn.StyError) as e:
        pn.sty(date="2030-01-02")
    assert e.value.kind == "invalid_date"
    with pytest.raises(pn.StyError) as e:
        pn.sty(version="1 0")
    assert e.value.kind == "invalid_version"
    pdf = latex_paper(tmp_path, text, SEED)
    ins = pn.inspect(pdf)
    assert ins["number"] == SEED and ins["consistent"]
    meta = run([need_tool("pdfinfo"), "-meta", str(pdf)]).stdout
    assert SEED in meta
    shutil.rmtree(tmp_path)
