"""``pith_number.batch``: the directory and manifest run of ``pith batch``, its report equal to
the CLI's for the same directory, its progress callback, and a run stopped by it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import pith_number as pn
from conftest import FIXTURES, REPO, SEED, pith_cli

OTHER = "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL"
EPOCH = "1700000000"
# Keys whose values are the paths each front end was given, or times.
VOLATILE = {"out", "ms"}


def papers(d: Path, n: int = 2) -> Path:
    """A directory of PDFs with sidecars: ``n`` numbered ones, one whose sidecar holds no
    number, one without a sidecar, and one in a subfolder."""
    d.mkdir()
    pdf = (FIXTURES / "minimal.pdf").read_bytes()
    for i in range(n):
        (d / f"p{i}.pdf").write_bytes(pdf)
        (d / f"p{i}.pith").write_text((SEED if i % 2 == 0 else OTHER) + "\n")
    (d / "bad.pdf").write_bytes(pdf)
    (d / "bad.pith").write_text("not a number\n")
    (d / "orphan.pdf").write_bytes(pdf)
    (d / "sub").mkdir()
    (d / "sub" / "s.pdf").write_bytes(pdf)
    (d / "sub" / "s.pith").write_text(SEED + "\n")
    return d


def scrub(lines: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The lines without outputs and times, in input order."""
    return sorted(({k: v for k, v in x.items() if k not in VOLATILE} for x in lines),
                  key=lambda x: x["pdf"])


def cli_batch(args: List[str], report: Path) -> Tuple[int, List[Dict[str, Any]], Dict[str, Any]]:
    """`pith batch ARGS --json`: its exit code, report lines and summary (from `report`; the
    standard output also gets the error that ends a failed run)."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    r = subprocess.run([pith_cli(), "batch", *args, "--json", "--report", str(report)],
                       capture_output=True, text=True, env=env, timeout=120)
    rows = [json.loads(x) for x in report.read_text().splitlines()]
    return r.returncode, rows[:-1], rows[-1]


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


def test_a_directory_gives_the_report_and_files_of_pith_batch(tmp_path: Path) -> None:
    d = papers(tmp_path / "in")
    rc, cli_lines, cli_summary = cli_batch(["--dir", str(d), "--out-dir", str(tmp_path / "cli")],
                                           tmp_path / "r.jsonl")
    assert rc == 2  # one file failed: its sidecar holds no number
    py = pn.batch(d, out_dir=tmp_path / "py")
    assert scrub(py["lines"]) == scrub(cli_lines)
    assert {k: v for k, v in py["summary"].items() if k != "ms"} == \
        {k: v for k, v in cli_summary.items() if k != "ms"}
    status = {Path(x["pdf"]).name: x["status"] for x in py["lines"]}
    assert status == {"p0.pdf": "injected", "p1.pdf": "injected", "s.pdf": "injected",
                      "bad.pdf": "failed", "orphan.pdf": "unmatched"}
    assert py["summary"]["injected"] == 3 and py["summary"]["total"] == 5
    # The same clock: the same bytes written by both.
    for name in ("p0.pdf", "p1.pdf", "sub/s.pdf"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    assert not (tmp_path / "py" / "bad.pdf").exists()
    # A rerun finds them done; check=True changes nothing and reports what each carries.
    again = pn.batch(d, out_dir=tmp_path / "py")
    assert again["summary"]["unchanged"] == 3
    checked = pn.batch(d, out_dir=tmp_path / "py", check=True)
    assert checked["summary"]["matches"] == 3


def test_a_stamped_rerun_is_unchanged_and_writes_nothing(tmp_path: Path) -> None:
    d = papers(tmp_path / "in")
    out = tmp_path / "py"
    first = pn.batch(d, out_dir=out, stamp=True)
    assert first["summary"]["injected"] == 3
    files = sorted(p for p in out.rglob("*.pdf"))
    before = [(p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for p in files]
    again = pn.batch(d, out_dir=out, stamp=True)
    assert again["summary"]["unchanged"] == 3 and again["summary"]["injected"] == 0
    assert [(p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for p in files] == before


def test_a_manifest_and_a_dry_run(tmp_path: Path) -> None:
    d = papers(tmp_path / "in")
    m = tmp_path / "jobs.jsonl"
    m.write_text("".join(json.dumps({"pdf": f"in/p{i}.pdf", "number": SEED}) + "\n"
                         for i in range(2)))
    rc, cli_lines, _ = cli_batch(["--manifest", str(m), "--out-dir", str(tmp_path / "cli"),
                                  "--dry-run"], tmp_path / "r.jsonl")
    assert rc == 0
    py = pn.batch(manifest=m, out_dir=tmp_path / "py", dry_run=True)
    assert scrub(py["lines"]) == scrub(cli_lines)
    assert [x["status"] for x in py["lines"]] == ["planned", "planned"]
    assert not (tmp_path / "py").exists() or not any((tmp_path / "py").iterdir())


def test_progress_is_called_once_per_line(tmp_path: Path) -> None:
    d = papers(tmp_path / "in", n=4)
    seen: List[Dict[str, Any]] = []
    r = pn.batch(d, out_dir=tmp_path / "out", progress=seen.append)
    assert len(seen) == r["summary"]["total"] == 7
    assert seen == r["lines"]
    assert sorted(x["pdf"] for x in seen) == sorted({x["pdf"] for x in seen})


def test_progress_returning_false_stops_the_run(tmp_path: Path) -> None:
    d = papers(tmp_path / "in", n=12)
    calls: List[str] = []

    def first_only(line: Dict[str, Any]) -> bool:
        calls.append(line["status"])
        return False

    r = pn.batch(d, out_dir=tmp_path / "out", jobs=1, progress=first_only)
    s = r["summary"]
    assert s["interrupted"] is True
    # Every file has its line (the callback saw them all); most were never started.
    assert len(r["lines"]) == len(calls) == s["total"] == 15
    assert s["skipped"] >= 10, s
    written = list((tmp_path / "out").rglob("*.pdf"))
    assert len(written) == s["injected"] <= 2, (written, s)


def test_an_exception_of_the_callback_stops_the_run_and_is_raised(tmp_path: Path) -> None:
    d = papers(tmp_path / "in", n=12)

    def boom(line: Dict[str, Any]) -> None:
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        pn.batch(d, out_dir=tmp_path / "out", jobs=1, progress=boom)
    assert len(list((tmp_path / "out").rglob("*.pdf"))) <= 2


def test_ctrl_c_stops_between_files_and_raises(tmp_path: Path) -> None:
    d = papers(tmp_path / "in", n=12)
    seen: List[Dict[str, Any]] = []

    def interrupt_once(line: Dict[str, Any]) -> None:
        if not seen:
            os.kill(os.getpid(), signal.SIGINT)
        seen.append(line)

    # A process started in the background by a non-interactive shell (a CI job, nohup … &)
    # inherits SIGINT ignored, and Python then installs no handler for it: install Python's
    # own, as an interactive interpreter has it, for the length of the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            pn.batch(d, out_dir=tmp_path / "out", jobs=1, progress=interrupt_once)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(list((tmp_path / "out").rglob("*.pdf"))) <= 2


def test_bad_requests_are_refused(tmp_path: Path) -> None:
    d = papers(tmp_path / "in")
    with pytest.raises(ValueError):
        pn.batch(d)  # neither out_dir nor in_place
    with pytest.raises(ValueError):
        pn.batch(d, manifest=tmp_path / "m.jsonl", out_dir=tmp_path / "o")
    with pytest.raises(pn.BatchError) as e:
        pn.batch(d, out_dir=tmp_path / "o", shard="4/4")
    assert e.value.kind == "shard"
    with pytest.raises(pn.PithError) as e:
        pn.batch(manifest=tmp_path / "missing.jsonl", out_dir=tmp_path / "o")
    assert "(os error" not in str(e.value)


def test_a_missing_file_is_named_in_words_as_the_cli_does(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pdf"
    with pytest.raises(pn.PdfIOError) as e:
        pn.inspect(missing)
    assert "(os error" not in str(e.value)
    assert "no such file or directory" in str(e.value).lower()
    r = subprocess.run([pith_cli(), "inspect", str(missing)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip() == "pith: " + str(e.value)


def test_arxiv_metadata_numbers_pdfs_by_their_ids_as_the_cli_does(tmp_path: Path) -> None:
    from test_tars import example_pdf, metadata
    meta = metadata(tmp_path)
    d = tmp_path / "in"
    d.mkdir()
    for name in ("2402.03791v3.pdf", "2402.03791v2.pdf", "no-id.pdf"):
        (d / name).write_bytes(example_pdf())
    rc, cli_lines, cli_summary = cli_batch(
        ["--dir", str(d), "--out-dir", str(tmp_path / "cli"), "--arxiv-metadata", str(meta)],
        tmp_path / "r.jsonl")
    py = pn.batch(d, out_dir=tmp_path / "py", metadata=meta, unmatched=tmp_path / "ids.txt")
    assert scrub(py["lines"]) == scrub(cli_lines)
    status = {Path(x["pdf"]).name: x["status"] for x in py["lines"]}
    assert status == {"2402.03791v3.pdf": "injected", "2402.03791v2.pdf": "skipped",
                      "no-id.pdf": "unmatched"}, py
    # The entries no PDF needed are listed, one id a line.
    ids = (tmp_path / "ids.txt").read_text().split()
    assert ids and "2402.03791" not in ids
    any_version = pn.batch(d, out_dir=tmp_path / "all", metadata=meta, any_version=True)
    assert any_version["summary"]["injected"] == 2


def test_in_place_updates_the_files_themselves(tmp_path: Path) -> None:
    d = papers(tmp_path / "in")
    before = (d / "p0.pdf").read_bytes()
    r = pn.batch(d, in_place=True)
    assert r["summary"]["injected"] == 3
    after = (d / "p0.pdf").read_bytes()
    # An incremental update: the original bytes, then the update.
    assert after.startswith(before) and len(after) > len(before)
    assert pn.inspect(d / "p0.pdf")["number"] == SEED


def test_refs_writes_the_lines_pith_refs_writes(tmp_path: Path) -> None:
    """``refs=`` writes every PDF's references as it is read: the lines ``pith refs`` writes
    for the same files (as sets: workers finish in any order)."""
    d = tmp_path / "in"
    d.mkdir()
    paper = (REPO / "examples" / "refs.pdf").read_bytes()
    # Each named as arXiv names its files: ``pith refs`` refuses a file whose citing paper
    # nothing names.
    for name in ("2402.03791v3", "2301.01234v1"):
        (d / f"{name}.pdf").write_bytes(paper)
        (d / f"{name}.pith").write_text(SEED + "\n")
    refs = tmp_path / "refs.jsonl"
    r = pn.batch(str(d), out_dir=str(tmp_path / "out"), refs=str(refs))
    assert r["summary"]["injected"] == 2
    got = {json.dumps(json.loads(l), sort_keys=True) for l in refs.read_text().splitlines()}
    cli = subprocess.run([pith_cli(), "refs", str(d)], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    want = {json.dumps(json.loads(l), sort_keys=True) for l in cli.stdout.splitlines()}
    assert len(want) >= 8 and got == want
