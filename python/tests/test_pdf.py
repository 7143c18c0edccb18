"""inject / inspect on real PDFs, read back with qpdf, pdfinfo and exiftool."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

import pith_number as pn
from conftest import FIXTURES, SEED, need_tool, run, sha256_file

URL = "https://pith.science/pith/" + SEED.split(":")[2]
UPDATABLE = [
    "minimal.pdf",
    "qpdf-object-stream.pdf",
    "qpdf-hybrid-xref.pdf",
    "qpdf-linearized.pdf",
    "pdfium-pdf12.pdf",
    "pdfa-1b-pass.pdf",
    "pyhanko-signed-twice.pdf",
]


def qpdf_ok(path: Path) -> None:
    """qpdf --check finds no error (exit 0, or 3 for warnings it also reports on the input)."""
    r = run([need_tool("qpdf"), "--check", str(path)])
    assert r.returncode in (0, 3), r.stdout + r.stderr
    assert "error" not in r.stderr.lower(), r.stderr


def pdfinfo_custom(path: Path, key: str) -> str:
    r = run([need_tool("pdfinfo"), "-custom", str(path)])
    assert r.returncode == 0, r.stderr
    for line in r.stdout.splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].strip()
    return ""


def exiftool(path: Path) -> dict:
    r = run([need_tool("exiftool"), "-j", "-n", "-PithNumber", "-PithURL",
             "-XMP-xmp:Identifier", "-XMP-dc:Relation", "-XMP-pith:all", str(path)])
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)[0]


def as_list(v) -> list:
    return v if isinstance(v, list) else [v]


@pytest.mark.parametrize("name", UPDATABLE)
def test_inject_new_file_read_back_by_other_tools(tmp_path: Path, name: str):
    src = tmp_path / Path(name).name
    shutil.copyfile(FIXTURES / name, src)
    before = sha256_file(src)
    out = tmp_path / ("out-" + name)
    r = pn.inject(src, SEED, out, now="2024-01-01T00:00:00Z")
    assert r["status"] == "injected" and r["number"] == SEED and r["output"] == str(out)
    assert r["bytes_after"] == out.stat().st_size and r["written"]
    assert sha256_file(src) == before, "input modified"
    original = src.read_bytes()
    assert out.read_bytes()[: len(original)] == original, "not an incremental update"
    qpdf_ok(out)
    assert pdfinfo_custom(out, "PithNumber") == SEED
    meta = run([need_tool("pdfinfo"), "-meta", str(out)]).stdout
    assert SEED in meta and URL in meta
    e = exiftool(out)
    assert e.get("PithNumber") == SEED and e.get("PithURL") == URL
    # The item of scheme ``pith`` holds the number without the ``pith:`` its scheme says.
    assert SEED[len("pith:"):] in as_list(e.get("Identifier")) and URL in as_list(e.get("Relation"))
    ins = pn.inspect(out)
    assert ins["number"] == SEED and ins["consistent"] and ins["sections"] >= 2
    assert ins["info"]["PithNumber"] == SEED and ins["xmp"] is not None and ins["xmp"]["pith:url"] == URL
    # Again: the file already carries the number.
    again = pn.inject(out, SEED, tmp_path / "again.pdf")
    assert again["status"] == "unchanged"
    assert (tmp_path / "again.pdf").read_bytes() == out.read_bytes()


def test_outputs_into_a_folder_and_new_folders_as_the_cli(tmp_path: Path):
    """A folder output keeps the input's name inside it; missing folders are made."""
    folder = tmp_path / "outd"
    folder.mkdir()
    r = pn.inject(FIXTURES / "minimal.pdf", SEED, folder, now="2024-01-01T00:00:00Z")
    assert r["output"] == str(folder / "minimal.pdf")
    assert pdfinfo_custom(folder / "minimal.pdf", "PithNumber") == SEED
    deep = tmp_path / "new" / "deeper" / "clean.pdf"
    r = pn.strip(folder / "minimal.pdf", deep)
    assert r["output"] == str(deep) and deep.is_file()
    qpdf_ok(deep)
    assert pn.inspect(deep)["number"] is None


def test_inject_in_place_and_concurrently(tmp_path: Path):
    a = tmp_path / "a.pdf"
    shutil.copyfile(FIXTURES / "qpdf-object-stream.pdf", a)
    original = a.read_bytes()
    # Two threads update the same file: the lock serialises them, one finds it done.
    results = []
    threads = [threading.Thread(target=lambda: results.append(pn.inject(a, SEED, in_place=True)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r["status"] for r in results) == ["injected", "unchanged"]
    data = a.read_bytes()
    assert data[: len(original)] == original
    qpdf_ok(a)
    assert pdfinfo_custom(a, "PithNumber") == SEED
    assert pn.inspect(a)["number"] == SEED


def test_inspect_plain_file_and_pdfa(tmp_path: Path):
    ins = pn.inspect(FIXTURES / "minimal.pdf")
    assert ins["number"] is None and ins["consistent"] is None and ins["sections"] == 1
    assert ins["encrypted"] is False and ins["version"]
    out = tmp_path / "a.pdf"
    pn.inject(str(FIXTURES / "pdfa-1b-pass.pdf"), SEED, str(out))
    ins = pn.inspect(str(out))
    assert ins["pdfa"] == "PDF/A-1B" and ins["xmp"]["pith_schema_declared"]


def untouched(tmp_path: Path, name: str, **kw):
    """Copies fixture `name`, runs inject expecting an error, checks nothing changed."""
    src = tmp_path / Path(name).name
    shutil.copyfile(FIXTURES / name, src)
    before = sha256_file(src)
    out = tmp_path / "out.pdf"
    try:
        pn.inject(src, SEED, out, **kw)
    finally:
        assert sha256_file(src) == before
        assert not out.exists()
        assert [p.name for p in tmp_path.iterdir()] == [src.name], "temporary file left"


def test_refusals_raise_the_kind_subclass(tmp_path: Path):
    cases = [
        # Needs its user password (files with an empty one are updated).
        ("encrypted/r4-aes128-user-password.pdf", pn.EncryptedPdfError, "password"),
        ("qpdf-bad-xref-entry.pdf", pn.DamagedPdfError, "damaged"),
        ("pyhanko-certified-p1.pdf", pn.CertifiedPdfError, "certified"),
    ]
    for name, cls, kind in cases:
        d = tmp_path / kind
        d.mkdir()
        with pytest.raises(cls) as e:
            untouched(d, name)
        assert e.value.kind == kind and isinstance(e.value, pn.PdfError)
        assert e.value.path is not None and e.value.path.endswith(Path(name).name)
        assert str(e.value).startswith(e.value.path) and "\n" not in str(e.value)
    # Certified: force updates anyway.
    out = tmp_path / "forced.pdf"
    r = pn.inject(FIXTURES / "pyhanko-certified-p1.pdf", SEED, out, force=True)
    assert r["status"] == "injected"
    qpdf_ok(out)


def test_not_pdf_missing_file_and_bad_arguments(tmp_path: Path):
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"hello, not a pdf\n" * 10)
    with pytest.raises(pn.NotPdfError) as e:
        pn.inspect(junk)
    assert e.value.kind == "not_pdf"
    with pytest.raises(pn.PdfIOError) as e:
        pn.inject(tmp_path / "missing.pdf", SEED, tmp_path / "o.pdf")
    assert isinstance(e.value, OSError) and e.value.kind == "io"
    assert not (tmp_path / "o.pdf").exists()
    with pytest.raises(pn.PdfIOError) as e:
        pn.inspect(tmp_path)
    assert e.value.kind == "not_file"
    with pytest.raises(pn.PdfIOError) as e:
        pn.inject(tmp_path, SEED, tmp_path / "o.pdf")
    assert e.value.kind == "not_file" and not (tmp_path / "o.pdf").exists()
    src = tmp_path / "m.pdf"
    shutil.copyfile(FIXTURES / "minimal.pdf", src)
    with pytest.raises(ValueError):
        pn.inject(src, SEED)
    with pytest.raises(ValueError):
        pn.inject(src, SEED, tmp_path / "x.pdf", in_place=True)
    with pytest.raises(ValueError):
        pn.inject(src, SEED, src)
    with pytest.raises(pn.NumberError):
        pn.inject(src, "pith:7BMK4ZKT", tmp_path / "x.pdf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.pdf", "m.pdf"]


def big_pdf(path: Path, mib: int) -> None:
    """A valid PDF with one page and a large (uncompressed, never drawn) stream."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /PieceInfo << /X 4 0 R >> >>",
    ]
    blob = (b"0123456789abcdef" * 64 + b"\n") * (mib * 1024 * 1024 // 1025)
    with open(path, "wb") as f:
        f.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(objs, 1):
            offsets.append(f.tell())
            f.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
        offsets.append(f.tell())
        f.write(b"4 0 obj\n<< /Length %d >>\nstream\n" % len(blob) + blob + b"\nendstream\nendobj\n")
        xref = f.tell()
        f.write(b"xref\n0 5\n0000000000 65535 f \n")
        for o in offsets:
            f.write(b"%010d 00000 n \n" % o)
        f.write(b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref)


@pytest.mark.parametrize("kind", ["file", "bytes"])
def test_inject_releases_the_gil(tmp_path: Path, kind: str):
    src = tmp_path / "big.pdf"
    big_pdf(src, 32)
    qpdf_ok(src)
    data = src.read_bytes()
    ticks = []
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    t = threading.Thread(target=counter)
    t.start()
    try:
        outs = []
        spans = []
        for i in range(2):
            out = tmp_path / f"out{i}.pdf"
            start = time.perf_counter()
            if kind == "file":
                pn.inject(src, SEED, out)
            else:
                # In memory, with a stamp (font subset, compression): work enough to observe.
                out.write_bytes(pn.inject_bytes(data, SEED, stamp=True)[0])
            spans.append((start, time.perf_counter()))
            outs.append(out)
    finally:
        stop.set()
        t.join()
    # Ticks strictly inside a call can only happen if the call let go of the GIL.
    longest = max(spans, key=lambda s: s[1] - s[0])
    inside = [x for x in ticks if longest[0] + 0.002 < x < longest[1] - 0.002]
    if longest[1] - longest[0] < 0.02:
        pytest.skip(f"inject took only {longest[1] - longest[0]:.4f} s; too fast to observe")
    assert inside, f"no other thread ran during a {longest[1] - longest[0]:.3f} s inject"
    qpdf_ok(outs[0])
    assert pn.inspect(outs[0])["number"] == SEED


def test_inject_stamps_page_one_read_back_by_poppler(tmp_path: Path):
    out = tmp_path / "stamped.pdf"
    r = pn.inject(FIXTURES / "minimal.pdf", SEED, out, stamp=True, stamp_form="full",
                  stamp_position="bottom", stamp_size=8)
    assert r["status"] == "injected"
    qpdf_ok(out)
    text = run([need_tool("pdftotext"), "-f", "1", "-l", "1", str(out), "-"])
    assert text.returncode == 0, text.stderr
    assert text.stdout.count(SEED) == 1, text.stdout
    # Stamping again with the same number changes nothing.
    assert pn.inject(out, SEED, in_place=True, stamp=True, stamp_form="full",
                     stamp_position="bottom", stamp_size=8)["status"] == "unchanged"
    for bad in ({"stamp_form": "long"}, {"stamp_position": "middle"}, {"stamp_size": 100.0}):
        with pytest.raises(ValueError):
            pn.inject(FIXTURES / "minimal.pdf", SEED, tmp_path / "x.pdf", stamp=True, **bad)
    assert not (tmp_path / "x.pdf").exists()


def test_inject_opens_a_file_with_a_user_password(tmp_path: Path):
    name = "encrypted/r4-aes128-user-password.pdf"
    for password in ("user", b"owner"):
        out = tmp_path / "out.pdf"
        r = pn.inject(FIXTURES / name, SEED, out, password=password)
        assert r["status"] == "injected"
        # qpdf decrypts the output with the user password; poppler reads the number back.
        dec = tmp_path / "decrypted.pdf"
        r2 = run([need_tool("qpdf"), "--password=user", "--decrypt", str(out), str(dec)])
        assert r2.returncode in (0, 3), r2.stderr
        assert pdfinfo_custom(dec, "PithNumber") == SEED
        out.unlink()
        dec.unlink()
    with pytest.raises(pn.EncryptedPdfError):
        untouched(tmp_path, name, password="wrong")


def test_inject_repairs_a_damaged_file_when_asked(tmp_path: Path):
    name = "qpdf-bad-xref-entry.pdf"
    with pytest.raises(pn.DamagedPdfError):
        untouched(tmp_path, name)
    out = tmp_path / "repaired.pdf"
    r = pn.inject(FIXTURES / name, SEED, out, repair=True)
    assert r["status"] == "injected"
    data = (FIXTURES / name).read_bytes()
    assert out.read_bytes().startswith(data), "the original bytes stay a prefix"
    qpdf_ok(out)
    assert pdfinfo_custom(out, "PithNumber") == SEED
