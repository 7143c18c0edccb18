"""The wheel carries the ``pith`` command: installed, it is in the environment's scripts
folder beside ``pith-serve``, ``python -m pith_number`` runs it with the same arguments and exit
code, and it writes the number the module computes. The programs are in the installed wheel
(python/build-wheel.sh), not in the source tree, so these run under PITH_PY_INSTALLED=1 (CI)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import pith_number as pn
from pith_number.__main__ import find_pith_bin

from conftest import EXAMPLES, SEED

installed = pytest.mark.skipif(
    os.environ.get("PITH_PY_INSTALLED") != "1",
    reason="the programs are in the installed wheel only (PITH_PY_INSTALLED=1)",
)


@installed
def test_programs_are_the_environments_scripts():
    scripts = Path(sysconfig.get_path("scripts"))
    assert Path(find_pith_bin()) == scripts / "pith"
    assert os.access(scripts / "pith-serve", os.X_OK)


@installed
def test_python_m_runs_the_command(tmp_path: Path):
    run = [sys.executable, "-m", "pith_number"]
    v = subprocess.run([*run, "--version"], capture_output=True, text=True, check=True)
    assert v.stdout.strip() == f"pith {pn.__version__}"
    out = tmp_path / "out.pdf"
    atom = (EXAMPLES / "2402.03791v3.atom.xml").read_text(encoding="utf-8")
    number = pn.number(pn.records_from_atom(atom)[0])
    assert number == SEED
    subprocess.run(
        [*run, "-q", "inject", str(EXAMPLES / "2402.03791v3.pdf"), "--arxiv-atom",
         str(EXAMPLES / "2402.03791v3.atom.xml"), "-o", str(out)],
        check=True,
    )
    assert pn.inspect(out)["number"] == number
    # The command's exit code and error line come through unchanged
    bad = subprocess.run([*run, "inspect", str(tmp_path / "missing.pdf")],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.startswith("pith: "), bad.stderr


@installed
def test_serve_finds_pith_serve_beside_pith():
    h = subprocess.run([find_pith_bin(), "serve", "--help"], capture_output=True, text=True,
                       check=True)
    assert h.stdout.startswith("Usage: pith serve") or "\nUsage: pith serve" in h.stdout, h.stdout
