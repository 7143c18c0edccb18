"""The public API: stubs match the runtime (mypy.stubtest), every name is documented, the
exception hierarchy is what the docs say, and the stubs type-check a user program."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pith_number as pn
from conftest import REPO, need_module


def test_stubtest_finds_no_drift(tmp_path: Path):
    need_module("mypy")
    allow = tmp_path / "allow.txt"
    allow.write_text("", encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "pith_number", "--allowlist", str(allow),
         "--mypy-config-file", str(tmp_path / "none.ini")],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_stubs_type_check_a_user_program(tmp_path: Path):
    need_module("mypy")
    prog = tmp_path / "user.py"
    prog.write_text(textwrap.dedent("""
        import pith_number as pn
        rep = pn.verify_record({}, "x")
        ok: bool = rep["holds"]
        n: str = pn.number({})
        ins = pn.inspect("a.pdf")
        found: "str | None" = ins["number"]
        pn.inject("a.pdf", n, "b.pdf", in_place=False)
        pdf, rep2 = pn.inject_bytes(b"%PDF-", n, stamp=True)
        size: int = len(pdf)
        st: str = rep2["status"]
        line = pn.batch_item("a.pdf", n, check=True)
        url: "str | None" = ins["xmp"]["pith:url"] if ins["xmp"] else None
        try:
            pn.parse_number("x")
        except pn.NumberError as e:
            kind: str = e.kind
    """), encoding="utf-8")
    bad = tmp_path / "bad.py"
    bad.write_text("import pith_number as pn\nx: int = pn.number({})\npn.inject(1, 2)\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(prog)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "mypy", str(bad)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 1 and "incompatible" in r.stdout.lower(), r.stdout


def test_every_public_name_is_documented_and_typed():
    root = Path(pn.__file__).parent
    assert (root / "py.typed").exists() and (root / "_native.pyi").exists()
    for name in pn.__all__:
        obj = getattr(pn, name)
        if callable(obj):
            doc = inspect.getdoc(obj) or ""
            assert len(doc) > 40, f"{name} has no docstring"
    assert pn.__version__ and pn.SCHEMA_VERSION == "1.0"
    assert pn.REGISTRY_KEY_ID == "pith-v1-2026-05"


def test_exception_hierarchy():
    for cls in (pn.NumberError, pn.RecordError, pn.VerifyError, pn.BadgeError, pn.StyError):
        assert issubclass(cls, pn.PithError) and issubclass(cls, ValueError)
    for cls in (pn.PdfIOError, pn.NotPdfError, pn.DamagedPdfError, pn.EncryptedPdfError,
                pn.CertifiedPdfError, pn.XmpError, pn.UnsupportedPdfError):
        assert issubclass(cls, pn.PdfError) and issubclass(cls, pn.PithError)
    assert issubclass(pn.PdfIOError, OSError)


def test_installed_wheel_is_what_is_tested():
    """Under PITH_PY_INSTALLED=1 (CI) the module must come from the installed wheel, not from
    the source tree."""
    if os.environ.get("PITH_PY_INSTALLED") != "1":
        return
    here = Path(pn.__file__).resolve()
    assert REPO / "python" not in here.parents, here
    assert "site-packages" in here.parts


def test_exception_classes_are_the_table_of_kinds():
    """The classes come from the library's table; the stub errors.pyi says the same."""
    classes, kinds = pn._native.error_table()
    stub = (Path(pn.__file__).parent / "errors.pyi").read_text(encoding="utf-8")
    for name, bases, _ in classes:
        cls = getattr(pn, name)
        assert [b.__name__ for b in cls.__bases__] == bases, name
        if name != "PithError":
            assert f"class {name}({', '.join(bases)}): ..." in stub, name
    assert {c for c, _, _ in classes} <= set(pn.__all__)
    for kind, cls, _ in kinds:
        assert pn.errors.KINDS[kind][0] == cls and hasattr(pn, cls), kind
    # Every kind Python raises is a report kind (docs/reports.md lists them all).
    doc = (REPO / "docs" / "reports.md").read_text(encoding="utf-8")
    assert all(f"| `{k}` | `{c}` |" in doc for k, c, _ in kinds)
