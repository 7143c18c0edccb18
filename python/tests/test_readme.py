"""The Python guide's pipeline example (docs/python.md), run as it stands on a directory of papers; outputs
checked with qpdf and pdfinfo, numbers recomputed per SPEC with hashlib/json/base64."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pith_number as pn
from conftest import EXAMPLES, FIXTURES, REPO, SEED, need_tool, run


def pipeline_code() -> str:
    guide = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- python-pipeline -->\n```python\n(.*?)```", guide, re.S)
    assert m, "docs/python.md has no python-pipeline block"
    return m.group(1)


def test_readme_pipeline(tmp_path: Path):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copyfile(EXAMPLES / "2402.03791v3.pdf", src / "2402.03791v3.pdf")
    shutil.copyfile(EXAMPLES / "2402.03791v3.atom.xml", src / "2402.03791v3.atom.xml")
    atoms = {"1608.03461v2": "1608.03461v2.atom.xml", "2412.14374v1": "2412.14374v1.atom.xml"}
    pdfs = {"1608.03461v2": "qpdf-object-stream.pdf", "2412.14374v1": "encrypted/r4-aes128-user-password.pdf"}
    for stem in atoms:
        shutil.copyfile(EXAMPLES / atoms[stem], src / f"{stem}.atom.xml")
        shutil.copyfile(FIXTURES / pdfs[stem], src / f"{stem}.pdf")
    script = tmp_path / "pipeline.py"
    script.write_text(pipeline_code(), encoding="utf-8")
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, str(script), str(src), str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    want = {}
    for stem in atoms:
        rec = json.loads((EXAMPLES / f"{stem}.record.json").read_text(encoding="utf-8"))
        b = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        code = base64.b32encode(hashlib.sha256(b).digest()).decode()[:26]
        want[stem] = f"pith:{rec['metadata']['submitted_at'][:4]}:{code}"
    assert lines == [
        f"injected 1608.03461v2.pdf {want['1608.03461v2']}",
        f"injected 2402.03791v3.pdf {SEED}",
        "refused 2412.14374v1.pdf: password",
    ]
    assert sorted(p.name for p in out.iterdir()) == ["1608.03461v2.pdf", "2402.03791v3.pdf"]
    for stem in ("1608.03461v2", "2402.03791v3"):
        f = out / f"{stem}.pdf"
        c = run([need_tool("qpdf"), "--check", str(f)])
        assert c.returncode in (0, 3), c.stdout + c.stderr
        custom = run([need_tool("pdfinfo"), "-custom", str(f)]).stdout
        n = want.get(stem, SEED)
        assert f"PithNumber:     {n}" in custom or n in custom
        assert pn.inspect(f)["number"] == n
