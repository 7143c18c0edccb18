"""Shared helpers for the pith_number tests.

Tests that need an external program (qpdf, pdfinfo, exiftool, rsvg-convert, zbarimg) or an
optional module print a ``SKIP`` line and are skipped when it is missing -- except under
``PITH_REQUIRE_TOOLS=1`` (what CI sets), where a missing tool fails the test.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]
"""The repository root (python/tests/ is two levels down)."""
FIXTURES = REPO / "tests" / "fixtures"
EXAMPLES = REPO / "examples"
VECTORS = REPO / "tests" / "data"
SEED = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5"


def require_tools() -> bool:
    """Whether a missing tool is a failure (CI) rather than a skip."""
    return os.environ.get("PITH_REQUIRE_TOOLS") == "1"


def need_tool(name: str) -> str:
    """The path of program ``name``; skips (or fails under PITH_REQUIRE_TOOLS=1) when absent."""
    path = shutil.which(name)
    if path is None:
        if require_tools():
            pytest.fail(f"required tool {name} is missing (PITH_REQUIRE_TOOLS=1)")
        print(f"SKIP {os.environ.get('PYTEST_CURRENT_TEST', '?')}: {name} not installed")
        pytest.skip(f"{name} not installed")
    return path


def need_module(name: str):
    """Imports module ``name``; skips (or fails under PITH_REQUIRE_TOOLS=1) when absent."""
    try:
        return importlib.import_module(name)
    except ImportError:
        if require_tools():
            pytest.fail(f"required Python module {name} is missing (PITH_REQUIRE_TOOLS=1)")
        print(f"SKIP {os.environ.get('PYTEST_CURRENT_TEST', '?')}: module {name} not installed")
        pytest.skip(f"module {name} not installed")


def run(args: List[str]) -> subprocess.CompletedProcess:
    """Runs a program, capturing text output."""
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def latex_paper(tmp_path: Path, sty: str, number: str) -> Path:
    """Compiles with pdflatex, in ``tmp_path``, a one-page paper that uses ``sty`` as
    pith.sty and gives it ``number``; the PDF's path. Skips (fails under
    PITH_REQUIRE_TOOLS=1) when pdflatex is missing."""
    pdflatex = need_tool("pdflatex")
    (tmp_path / "pith.sty").write_text(sty, encoding="utf-8")
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{pith}\n"
        f"\\pithnumber{{{number}}}\n\\title{{T}}\\author{{A}}\n"
        "\\begin{document}\n\\maketitle\nx\n\\end{document}\n",
        encoding="utf-8",
    )
    r = run([pdflatex, "-interaction=nonstopmode", "-halt-on-error",
             "-output-directory", str(tmp_path), str(tmp_path / "paper.tex")])
    assert r.returncode == 0, r.stdout[-2000:]
    return tmp_path / "paper.pdf"


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pith_cli() -> str:
    """The ``pith`` binary to compare with: $PITH_BIN, else the one of target/{release,debug}
    built last, else PATH; skips (fails under PITH_REQUIRE_TOOLS=1) when there is none."""
    if os.environ.get("PITH_BIN"):
        return os.environ["PITH_BIN"]
    built = [p for p in (REPO / "target" / "release" / "pith", REPO / "target" / "debug" / "pith")
             if p.is_file()]
    if built:
        return str(max(built, key=lambda p: p.stat().st_mtime))
    if shutil.which("pith"):
        return str(shutil.which("pith"))
    if require_tools():
        pytest.fail("the pith binary is missing (build it with cargo build; PITH_REQUIRE_TOOLS=1)")
    print(f"SKIP {os.environ.get('PYTEST_CURRENT_TEST', '?')}: pith binary not built")
    pytest.skip("pith binary not built")
