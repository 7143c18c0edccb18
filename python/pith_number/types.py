"""Shapes of the dicts pith_number returns (``TypedDict``\\ s, for type checkers and readers).

The functions return plain dicts; these classes only describe their keys.
"""

from __future__ import annotations

import os
from typing import Any, List, Literal, Mapping, Optional, TypedDict, Union

__all__ = [
    "RecordLike",
    "PathLike",
    "NumberDetails",
    "ParsedNumber",
    "Check",
    "VerifyReport",
    "XmpValues",
    "Inspection",
    "InjectReport",
]

RecordLike = Union[Mapping[str, Any], str, bytes]
"""A canonical record: a dict, or its JSON text."""

PathLike = Union[str, "os.PathLike[str]"]
"""A file system path."""


class NumberDetails(TypedDict):
    """What :func:`pith_number.number_details` returns."""

    canonical_sha256: str
    pith_number: str
    short_pith_number: str
    url: str


class ParsedNumber(TypedDict):
    """What :func:`pith_number.parse_number` returns."""

    form: Literal["full", "alias"]
    code: str
    year: Optional[int]
    full: Optional[str]
    short: str
    url: Optional[str]


class Check(TypedDict):
    """One verification step."""

    subject: str
    status: Literal["ok", "mismatch", "unverified"]
    detail: str


class VerifyReport(TypedDict):
    """What the verify functions return."""

    holds: bool
    verdict: Literal["verified", "mismatch", "unverified"]
    checks: List[Check]


class XmpValues(TypedDict):
    """Pith values read from a PDF's XMP packet."""

    number: Optional[str]
    short: Optional[str]
    url: Optional[str]
    identifiers: List[str]
    relations: List[str]
    pdfa_part: Optional[str]
    pdfa_conformance: Optional[str]
    pith_schema_declared: bool


class Inspection(TypedDict):
    """What :func:`pith_number.inspect` returns."""

    path: str
    version: str
    xref_stream: bool
    sections: int
    encrypted: bool
    info_number: Optional[str]
    info_url: Optional[str]
    xmp: Optional[XmpValues]
    xmp_error: Optional[str]
    signatures: int
    docmdp: Optional[int]
    found: Optional[str]
    consistent: bool
    pdfa: Optional[str]


class InjectReport(TypedDict):
    """What :func:`pith_number.inject` returns."""

    path: str
    output: str
    number: str
    applied: Literal["injected", "unchanged"]
    bytes_after: int
    written: List[str]
    replaced_xmp: Optional[bytes]
