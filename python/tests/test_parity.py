"""One door: the same input through ``pith … --json`` and through Python gives the same report
(keys and values, the paths each front end was given aside), or the same refusal: the same kind
from the library's table and the same sentence (the CLI may add, after it, how to get past it
with a flag). Every number form, a bare code with and without a resolver (a stand-in on
127.0.0.1), bad numbers, encrypted files with and without the password, verify of matching,
mismatching and number-less PDFs, strip, a batch item, a directory batch and a tar member."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import pith_number as pn
from conftest import EXAMPLES, FIXTURES, SEED, need_tool, pith_cli

CODE = SEED.split(":")[2]
URL = "https://pith.science/pith/" + CODE
RECORD = EXAMPLES / "2402.03791v3.record.json"
ENCRYPTED = FIXTURES / "encrypted" / "r4-aes128-user-password.pdf"
EPOCH = "1700000000"
# Keys whose values are the paths each front end was given, or times.
PATHS = {"input", "output", "file", "pdf", "out", "ms"}


class Resolver:
    """A stand-in for the resolver on 127.0.0.1: the seed's record, 404 for anything else."""

    def __init__(self) -> None:
        body = RECORD.read_bytes()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                ok = self.path == f"/pith/{CODE}.json"
                self.send_response(200 if ok else 404)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body if ok else b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def closed_port() -> str:
    """A URL nothing listens on: the resolver unreachable."""
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"


def scrub(v: Any) -> Any:
    """The report without the paths each front end was given."""
    if isinstance(v, dict):
        return {k: (None if k in PATHS else scrub(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [scrub(x) for x in v]
    return v


class Env:
    """One environment for both front ends: the resolver, a fresh cache, a fixed clock."""

    def __init__(self, tmp: Path, monkeypatch: pytest.MonkeyPatch, resolver: Optional[str]) -> None:
        self.tmp = tmp
        self.cli = pith_cli()
        self.vars = {
            "PITH_RESOLVER_URL": resolver or closed_port(),
            "PITH_CACHE_DIR": str(tmp / "cache"),
            "PITH_RESOLVER_SPACING_MS": "0",
            "PITH_NET_TIMEOUT_MS": "5000",
            "SOURCE_DATE_EPOCH": EPOCH,
        }
        for k, v in self.vars.items():
            monkeypatch.setenv(k, v)
        self.n = 0

    def path(self, name: str) -> Path:
        self.n += 1
        d = self.tmp / f"case{self.n}"
        d.mkdir()
        return d / name

    def cli_json(self, args: List[str]) -> Tuple[int, Any, str]:
        env = dict(os.environ, **self.vars)
        r = subprocess.run([self.cli, *args, "--json"], capture_output=True, text=True, env=env,
                           timeout=120)
        out = r.stdout.strip()
        return r.returncode, (json.loads(out) if out else None), r.stderr


def same(env: Env, args: List[str], python: Callable[[], Any], code: int = 0) -> Dict[str, Any]:
    """Runs both; asserts the CLI exits `code` and the reports are equal (paths aside)."""
    rc, cli, err = env.cli_json(args)
    assert rc == code, (args, rc, err, cli)
    py = python()
    assert scrub(cli) == scrub(py), (args, cli, py)
    return py


def refused(env: Env, args: List[str], python: Callable[[], Any], kind: str) -> None:
    """Runs both; asserts the same refusal: exit 2 with {"error", "kind"}, the same kind raised
    by Python, and the CLI's line starting with Python's sentence."""
    rc, cli, err = env.cli_json(args)
    assert rc == 2, (args, rc, cli, err)
    assert cli["kind"] == kind, (args, cli)
    with pytest.raises(pn.PithError) as e:
        python()
    assert e.value.kind == kind, (args, e.value.kind, str(e.value))
    assert pn.errors.KINDS[kind][0] == type(e.value).__name__
    assert cli["error"].startswith(str(e.value)), (cli["error"], str(e.value))
    assert err.strip() == "pith: " + cli["error"]


NUMBER_FORMS = [SEED, SEED.lower(), CODE, CODE.lower(), URL, " " + CODE + " "]
BAD_NUMBERS = [
    ("pith:7BMK4ZKT", "wrong_length"),
    ("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR1", "bad_character"),
    ("pith:24:7BMK4ZKTPUTUY3JKWBANNPOFR5", "bad_year"),
    ("not a number", "wrong_length"),
    ("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5:x", "bad_form"),
    ("7BMK4ZKT", "wrong_length"),
]


@pytest.fixture
def resolver():
    r = Resolver()
    yield r
    r.stop()


def inject_both(env: Env, src: Path, number: str, extra: Optional[List[str]] = None, **kw: Any):
    a, b = env.path("cli.pdf"), env.path("py.pdf")
    return (["inject", str(src), "--number", number, "-o", str(a), *(extra or [])],
            lambda: pn.inject(src, number, b, **kw))


def test_every_number_form_with_a_resolver(tmp_path: Path, monkeypatch, resolver) -> None:
    env = Env(tmp_path, monkeypatch, resolver.url())
    for form in NUMBER_FORMS:
        args, py = inject_both(env, FIXTURES / "minimal.pdf", form)
        r = same(env, args, py)
        assert r["number"] == SEED and r["status"] == "injected", form


def test_a_bare_code_without_a_resolver_is_refused_alike(tmp_path: Path, monkeypatch) -> None:
    env = Env(tmp_path, monkeypatch, None)
    for form in [CODE, URL]:
        args, py = inject_both(env, FIXTURES / "minimal.pdf", form)
        refused(env, args, py, "no_year")
    # The full number needs no resolver.
    args, py = inject_both(env, FIXTURES / "minimal.pdf", SEED)
    same(env, args, py)


def test_bad_numbers_are_refused_alike(tmp_path: Path, monkeypatch) -> None:
    env = Env(tmp_path, monkeypatch, None)
    for text, kind in BAD_NUMBERS:
        args, py = inject_both(env, FIXTURES / "minimal.pdf", text)
        refused(env, args, py, kind)


def test_encrypted_files_with_and_without_the_password(tmp_path: Path, monkeypatch) -> None:
    env = Env(tmp_path, monkeypatch, None)
    args, py = inject_both(env, ENCRYPTED, SEED)
    refused(env, args, py, "password")
    args, py = inject_both(env, ENCRYPTED, SEED, ["--password", "user"], password="user")
    assert same(env, args, py)["status"] == "injected"
    same(env, ["inspect", str(ENCRYPTED)], lambda: pn.inspect(ENCRYPTED), code=1)
    same(env, ["inspect", str(ENCRYPTED), "--password", "user"],
         lambda: pn.inspect(ENCRYPTED, password="user"), code=1)


def test_verify_of_a_file_that_needs_a_password(tmp_path: Path, monkeypatch) -> None:
    """Without the password the file is refused alike (kind ``password``), never a file
    without a number; with it, both verify it."""
    env = Env(tmp_path, monkeypatch, None)
    locked = env.path("locked.pdf")
    pn.inject(ENCRYPTED, SEED, locked, password="user")
    rec = json.loads(RECORD.read_text())
    refused(env, ["verify", str(locked), "--record", str(RECORD)],
            lambda: pn.verify_pdf(locked, record=rec), "password")
    r = same(env, ["verify", str(locked), "--record", str(RECORD), "--password", "user"],
             lambda: pn.verify_pdf(locked, record=rec, password="user"))
    assert r["verdict"] == "verified"


def test_other_refusals(tmp_path: Path, monkeypatch) -> None:
    env = Env(tmp_path, monkeypatch, None)
    not_pdf = tmp_path / "x.pdf"
    not_pdf.write_text("hello")
    args, py = inject_both(env, not_pdf, SEED)
    refused(env, args, py, "not_pdf")
    src = env.path("same.pdf")
    src.write_bytes((FIXTURES / "minimal.pdf").read_bytes())
    refused(env, ["inject", str(src), "--number", SEED, "-o", str(src)],
            lambda: pn.inject(src, SEED, src), "same_file")


def test_contradictions_are_the_librarys(tmp_path: Path, monkeypatch) -> None:
    """What the request contradicts is refused by the library, in the same words at both doors
    (the CLI adds its flags), and a dry run plans without an output at both."""
    env = Env(tmp_path, monkeypatch, None)
    src = env.path("m.pdf")
    src.write_bytes((FIXTURES / "minimal.pdf").read_bytes())
    out = env.path("o.pdf")
    record = json.loads(RECORD.read_text())
    refused(env, ["inject", str(src), "--number", SEED, "--record", str(RECORD), "-o", str(out)],
            lambda: pn.inject(src, SEED, out, record=record), "request")
    atom = EXAMPLES / "2402.03791v3.atom.xml"
    refused(env, ["inject", str(src), "--record", str(RECORD), "--arxiv-atom", str(atom),
                  "-o", str(out)],
            lambda: pn.inject(src, output=out, record=record, arxiv_atom=atom), "request")
    refused(env, ["inject", str(src), "-o", str(out)], lambda: pn.inject(src, output=out),
            "request")
    assert not out.exists()
    # A rewrite and a dry run, a repair and a rewrite, a stamp size out of range: the library
    # refuses each once, with one sentence, at both doors.
    refused(env, ["inject", str(src), "--number", SEED, "-o", str(out), "--rewrite", "--dry-run"],
            lambda: pn.inject(src, SEED, out, rewrite=True, dry_run=True), "request")
    refused(env, ["inject", str(src), "--number", SEED, "-o", str(out), "--rewrite", "--repair"],
            lambda: pn.inject(src, SEED, out, rewrite=True, repair=True), "request")
    refused(env, ["inject", str(src), "--number", SEED, "-o", str(out), "--stamp",
                  "--stamp-size", "100"],
            lambda: pn.inject(src, SEED, out, stamp=True, stamp_size=100.0), "stamp")
    assert not out.exists()
    planned = same(env, ["inject", str(src), "--number", SEED, "--dry-run"],
                   lambda: pn.inject(src, SEED, dry_run=True))
    assert planned["status"] == "planned" and src.read_bytes() == (FIXTURES / "minimal.pdf").read_bytes()
    # A snippet option for a format that has no use for it.
    with pytest.raises(pn.errors.OptionError) as e:
        pn.badge_snippet(SEED, "md", dark_src="dark.svg")
    r = subprocess.run([env.cli, "snippet", SEED, "--dark-src", "dark.svg"], capture_output=True,
                       text=True, env=dict(os.environ, **env.vars), timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("pith: " + str(e.value)), (r.stderr, e.value)


def numbered(env: Env, number: str = SEED) -> Path:
    out = env.path("numbered.pdf")
    pn.inject(FIXTURES / "minimal.pdf", number, out)
    return out


def test_verify_and_inspect(tmp_path: Path, monkeypatch, resolver) -> None:
    env = Env(tmp_path, monkeypatch, resolver.url())
    ok, other = numbered(env), numbered(env, "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL")
    rec = json.loads(RECORD.read_text())
    minimal = FIXTURES / "minimal.pdf"
    r = same(env, ["verify", str(ok), "--record", str(RECORD)],
             lambda: pn.verify_pdf(ok, record=rec))
    assert r["verdict"] == "verified"
    r = same(env, ["verify", str(other), "--record", str(RECORD)],
             lambda: pn.verify_pdf(other, record=rec), code=1)
    assert r["verdict"] == "mismatch"
    r = same(env, ["verify", str(minimal), "--record", str(RECORD)],
             lambda: pn.verify_pdf(minimal, record=rec), code=1)
    assert r["verdict"] == "no_number"
    # Against the resolver (the stand-in has no bundle: no receipt, so unverified).
    r = same(env, ["verify", str(ok)], lambda: pn.verify_pdf(ok))
    assert r["verdict"] == "unverified"
    same(env, ["verify", "--record", str(RECORD), SEED], lambda: pn.verify_record(rec, SEED))
    same(env, ["verify", "--record", str(RECORD), "pith:7BMK4ZKT"],
         lambda: pn.verify_record(rec, "pith:7BMK4ZKT"))
    r = same(env, ["verify", "--record", str(RECORD), "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL"],
             lambda: pn.verify_record(rec, "pith:2024:ZWRUDBOANTQFBE2ITHQCKK5EHL"), code=1)
    assert r["verdict"] == "mismatch"
    for p in (ok, minimal):
        same(env, ["inspect", str(p)], lambda p=p: pn.inspect(p), code=0 if p == ok else 1)
    same(env, ["number", "--record", str(RECORD)], lambda: pn.number_details(rec))


def test_strip(tmp_path: Path, monkeypatch) -> None:
    env = Env(tmp_path, monkeypatch, None)
    for src in (numbered(env), FIXTURES / "minimal.pdf"):
        a, b = env.path("cli.pdf"), env.path("py.pdf")
        r = same(env, ["strip", str(src), "-o", str(a)], lambda: pn.strip(src, b))
        assert r["status"] == ("stripped" if src.name == "numbered.pdf" else "unchanged")


def batch_line(env: Env, pdf: Path, number: str) -> Dict[str, Any]:
    """The line `pith batch` reports for one PDF with a NAME.pith sidecar."""
    d = env.path("in")
    d.mkdir()
    (d / "a.pdf").write_bytes(pdf.read_bytes())
    (d / "a.pith").write_text(number + "\n")
    rc, _, err = env.cli_json(["batch", "--dir", str(d), "--out-dir", str(d.parent / "out"),
                               "--report", str(d.parent / "r.jsonl")])
    lines = [json.loads(x) for x in (d.parent / "r.jsonl").read_text().splitlines()]
    return lines[0]


def test_a_batch_item(tmp_path: Path, monkeypatch, resolver) -> None:
    env = Env(tmp_path, monkeypatch, resolver.url())
    for number in (SEED, CODE, "pith:7BMK4ZKT"):
        cli = batch_line(env, FIXTURES / "minimal.pdf", number)
        out = env.path("out")
        py = pn.batch_item(FIXTURES / "minimal.pdf", number, out_dir=out)
        # A reason names the PDF each front end was given.
        for line, pdf in ((cli, cli["pdf"]), (py, str(FIXTURES / "minimal.pdf"))):
            if line.get("reason"):
                line["reason"] = line["reason"].replace(pdf, "<pdf>")
        assert scrub(cli) == scrub(py), (number, cli, py)
    assert cli["status"] == "failed" and cli["refusal"] == "wrong_length"


def test_a_directory_batch(tmp_path: Path, monkeypatch, resolver) -> None:
    """`pith batch --dir` and `batch(dir)`: every number form a sidecar may hold, a bad one and
    a PDF without a sidecar; the same lines (in input order) and the same summary."""
    env = Env(tmp_path, monkeypatch, resolver.url())
    d = env.path("in")
    d.mkdir()
    sidecars = {"full": SEED, "code": CODE, "url": URL, "short": "pith:7BMK4ZKT", "bad": "x"}
    for name, number in sidecars.items():
        (d / f"{name}.pdf").write_bytes((FIXTURES / "minimal.pdf").read_bytes())
        (d / f"{name}.pith").write_text(number + "\n")
    (d / "orphan.pdf").write_bytes((FIXTURES / "minimal.pdf").read_bytes())
    report = d.parent / "r.jsonl"
    rc, _, err = env.cli_json(["batch", "--dir", str(d), "--out-dir", str(d.parent / "cli"),
                               "--report", str(report)])
    assert rc == 2, err  # the bad sidecars fail
    cli = [json.loads(x) for x in report.read_text().splitlines()]
    py = pn.batch(d, out_dir=d.parent / "py")
    by_pdf = lambda lines: sorted(lines, key=lambda x: x["pdf"])  # noqa: E731
    assert scrub(by_pdf(cli[:-1])) == scrub(by_pdf(py["lines"]))
    assert scrub(cli[-1]) == scrub(py["summary"])
    status = {Path(x["pdf"]).stem: x["status"] for x in py["lines"]}
    assert status == {"full": "injected", "code": "injected", "url": "injected",
                      "short": "failed", "bad": "failed", "orphan": "unmatched"}, py


def test_a_tar_member(tmp_path: Path, monkeypatch) -> None:
    need_tool("tar")
    from test_tars import metadata, tars_and_manifest
    env = Env(tmp_path, monkeypatch, None)
    meta = metadata(tmp_path)
    tars, m, made = tars_and_manifest(tmp_path)
    report = tmp_path / "r.jsonl"
    rc, _, err = env.cli_json(["batch", "--tar-dir", str(tars), "--out-dir", str(tmp_path / "cli"),
                               "--arxiv-manifest", str(m), "--arxiv-metadata", str(meta),
                               "--report", str(report)])
    assert rc == 0, err
    lines = [json.loads(x) for r in sorted((tmp_path / "cli").glob("*.jsonl"))
             for x in r.read_text().splitlines()]
    py = pn.process_tar(made[0], tmp_path / "py.tar", metadata=meta, manifest=m)
    for member in py["members"]:
        cli = [x for x in lines if x.get("pdf") == member["pdf"]]
        assert len(cli) == 1, (member, lines)
        assert scrub(cli[0]) == scrub(member), (cli[0], member)
    assert {x["status"] for x in py["members"]} == {"injected", "skipped"}


def test_bad_batch_requests_are_refused_alike(tmp_path: Path, monkeypatch) -> None:
    """A batch request that is incomplete or contradicts itself: the library's check refuses it
    (kind ``request``) with the same sentence through ``pith batch`` and ``batch()``, before
    any file is read or written."""
    env = Env(tmp_path, monkeypatch, None)
    d = tmp_path / "in"
    d.mkdir()
    (d / "a.pdf").write_bytes((FIXTURES / "minimal.pdf").read_bytes())
    (d / "a.pith").write_text(SEED + "\n")
    m = tmp_path / "m.jsonl"
    m.write_text(json.dumps({"pdf": "in/a.pdf", "number": SEED}) + "\n")
    o = tmp_path / "out"
    meta = tmp_path / "meta.jsonl"
    meta.write_text("")
    table: List[Tuple[List[str], Callable[[], Any]]] = [
        (["--out-dir", str(o)], lambda: pn.batch(out_dir=o)),
        (["--dir", str(d), "--manifest", str(m), "--out-dir", str(o)],
         lambda: pn.batch(d, manifest=m, out_dir=o)),
        (["--dir", str(d), "--root", str(tmp_path), "--out-dir", str(o)],
         lambda: pn.batch(d, root=tmp_path, out_dir=o)),
        (["--dir", str(d)], lambda: pn.batch(d)),
        (["--dir", str(d), "--out-dir", str(o), "--in-place"],
         lambda: pn.batch(d, out_dir=o, in_place=True)),
        (["--dir", str(d), "--in-place", "--mirror"],
         lambda: pn.batch(d, in_place=True, mirror=True)),
        (["--dir", str(d), "--out-dir", str(o), "--check", "--dry-run"],
         lambda: pn.batch(d, out_dir=o, check=True, dry_run=True)),
        (["--dir", str(d), "--out-dir", str(o), "--check", "--mirror"],
         lambda: pn.batch(d, out_dir=o, check=True, mirror=True)),
        (["--dir", str(d), "--out-dir", str(o), "--arxiv-any-version"],
         lambda: pn.batch(d, out_dir=o, any_version=True)),
        (["--dir", str(d), "--out-dir", str(o), "--arxiv-unmatched", str(tmp_path / "u.txt")],
         lambda: pn.batch(d, out_dir=o, unmatched=tmp_path / "u.txt")),
        (["--dir", str(d), "--out-dir", str(o), "--arxiv-metadata", "-", "-"],
         lambda: pn.batch(d, out_dir=o, metadata=["-", "-"])),
        (["--manifest", "-", "--out-dir", str(o), "--arxiv-metadata", "-", str(meta)],
         lambda: pn.batch(manifest="-", out_dir=o, metadata=["-", meta])),
        (["--dir", str(d), "--out-dir", str(o), "--jobs", "0"],
         lambda: pn.batch(d, out_dir=o, jobs=0)),
        (["--dir", str(d), "--out-dir", str(o), "--refs", str(tmp_path / "x.pdf")],
         lambda: pn.batch(d, out_dir=o, refs=tmp_path / "x.pdf")),
        (["--dir", str(d), "--out-dir", str(o), "--refs", str(d)],
         lambda: pn.batch(d, out_dir=o, refs=d)),
    ]
    sentences = set()
    for args, py in table:
        refused(env, ["batch", *args], py, "request")
        with pytest.raises(pn.PithError) as e:
            py()
        sentences.add(str(e.value))
    # Each rule has its own sentence (the two halves of a pair of options share one).
    assert len(sentences) >= 8, sentences
    assert not o.exists() and not (tmp_path / "u.txt").exists()
    assert (d / "a.pdf").read_bytes() == (FIXTURES / "minimal.pdf").read_bytes()


def test_tar_and_network_requests_are_refused_alike(tmp_path: Path, monkeypatch) -> None:
    """A tar run without what it needs, and network settings that contradict each other: the
    library's checks (``BatchRequest``, ``net::Settings``) refuse them with the same kind and
    sentence through ``pith`` and Python, before anything is read or written."""
    env = Env(tmp_path, monkeypatch, None)
    tar = tmp_path / "a.tar"
    tar.write_bytes(b"")
    out = tmp_path / "b.tar"
    meta = tmp_path / "meta.jsonl"
    meta.write_text("")
    refused(env, ["batch", "--tar", str(tar), "--out-tar", str(out), "--arxiv-metadata", str(meta),
                  "--any-tar"],
            lambda: pn.process_tar(tar, out, metadata=meta, any_tar=True), "request")
    refused(env, ["batch", "--tar", str(tar), "--out-tar", str(out)],
            lambda: pn.process_tar(tar, out, metadata=[]), "request")
    # A stream's name beside a tar file, which has its own; a report that is a folder.
    refused(env, ["batch", "--tar", str(tar), "--out-tar", str(out), "--arxiv-metadata", str(meta),
                  "--tar-name", "arXiv_pdf_2402_001.tar"],
            lambda: pn.process_tar(tar, out, metadata=meta, name="arXiv_pdf_2402_001.tar"),
            "request")
    refused(env, ["batch", "--tar", str(tar), "--out-tar", str(out), "--arxiv-metadata", str(meta),
                  "--report", str(tmp_path)],
            lambda: pn.process_tar(tar, out, metadata=meta, report=tmp_path), "request")
    refused(env, ["number", "2402.03791", "--offline", "--refresh"],
            lambda: pn.number_from_arxiv("2402.03791", offline=True, refresh=True), "setting")
    assert not out.exists()
