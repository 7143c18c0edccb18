"""Pith Numbers for scientific papers, from Python.

A Pith Number (``pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5``) is the first 26 base32 characters of
the SHA-256 of a paper's canonical metadata record, resolvable at
``https://pith.science/pith/<26 characters>``. This package binds the Rust library of the
``pith`` tool (crate ``pith-number``): numbers from records, arXiv Atom, arXiv bulk metadata lines or paper fields;
canonical bytes; verification of records, texts, bundles and signatures; injection into and
inspection, stripping and batch items of PDFs, on files or on bytes in memory, and whole
batches of a directory or manifest (the GIL is
released while a PDF is read or written; reports have the keys of ``pith … --json``); badges and their
embedding snippets; the LaTeX package ``pith.sty``.

>>> import pith_number
>>> pith_number.parse_number("pith:2024:7bmk4zktputuy3jkwbannpofr5")["short"]
'pith:7BMK4ZKT'

Errors are raised as the hierarchy of :mod:`pith_number.errors` (base :class:`PithError`).
"""

from __future__ import annotations

from . import errors
from ._native import (
    REGISTRY_KEY_B64,
    REGISTRY_KEY_ID,
    SCHEMA_VERSION,
    URL_BASE,
    __version__,
    badge_snippet,
    badge_svg,
    batch,
    batch_item,
    canon_sha256,
    canon_text,
    canonical_bytes,
    canonical_record,
    inject,
    inject_bytes,
    inspect,
    number,
    number_details,
    number_from_arxiv,
    parse_number,
    process_tar,
    record_from_arxiv_line,
    record_from_fields,
    records_from_atom,
    strip,
    sty,
    sty_ltxml,
    tar_shard_key,
    verify_bundle,
    verify_pdf,
    verify_record,
    verify_signature,
    verify_text,
    write_tar_manifest,
)
from .errors import *  # noqa: F401,F403  (the classes made from the table of kinds)

__all__ = [
    "__version__",
    "REGISTRY_KEY_B64",
    "REGISTRY_KEY_ID",
    "SCHEMA_VERSION",
    "URL_BASE",
    "badge_snippet",
    "badge_svg",
    "batch",
    "batch_item",
    "canon_sha256",
    "canon_text",
    "canonical_bytes",
    "canonical_record",
    "errors",
    "inject",
    "inject_bytes",
    "inspect",
    "number",
    "number_details",
    "number_from_arxiv",
    "parse_number",
    "process_tar",
    "record_from_arxiv_line",
    "record_from_fields",
    "records_from_atom",
    "strip",
    "sty",
    "sty_ltxml",
    "tar_shard_key",
    "verify_bundle",
    "verify_pdf",
    "verify_record",
    "verify_signature",
    "verify_text",
    "write_tar_manifest",
    # The exception classes, made from the library's table of kinds (errors.py; a test keeps
    # this list equal to the table).
    "KINDS",
    "PithError",
    "NumberError",
    "RecordError",
    "VerifyError",
    "BadgeError",
    "StyError",
    "OptionError",
    "OutputError",
    "ExistsError",
    "BatchError",
    "PdfError",
    "PdfIOError",
    "NotPdfError",
    "DamagedPdfError",
    "EncryptedPdfError",
    "CertifiedPdfError",
    "XmpError",
    "UnsupportedPdfError",
    "TarError",
    "NetworkError",
]
