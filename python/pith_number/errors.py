"""Exceptions raised by :mod:`pith_number`.

The classes are made from the Rust library's one table of error kinds
(``pith::job::kind``), never written beside it: every kind has a stable snake_case name, the
name reports carry and ``pith … --json`` prints, and the class it is raised as. Every
exception derives from :class:`PithError` and carries:

* ``kind`` -- the kind's name (e.g. ``"wrong_length"``, ``"damaged"``, ``"bad_key"``);
* ``path`` -- the file concerned, when known;
* ``offset`` -- the byte offset in the file where the problem was found, when known;
* ``field`` -- the record field or option concerned, when known.

:data:`KINDS` maps each kind to its class name and meaning; docs/reports.md lists them. A
verification mismatch is not an exception: the verify functions return a report.
"""

from __future__ import annotations

import builtins
from typing import Dict, Optional, Tuple

from ._native import error_table


class PithError(Exception):
    """Base class of every error raised by pith_number."""

    kind: str
    """Stable snake_case name of the library's error kind."""
    path: Optional[str]
    """The file concerned, else None."""
    offset: Optional[int]
    """Byte offset in the file where the problem was found, when known."""
    field: Optional[str]
    """The record field or option concerned, when known."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.kind = "invalid"
        self.path = None
        self.offset = None
        self.field = None


_CLASSES, _KINDS = error_table()

KINDS: Dict[str, Tuple[str, str]] = {name: (cls, doc) for name, cls, doc in _KINDS}
"""Every kind: its name → (the class it is raised as, what it means)."""

__all__ = ["PithError", "KINDS"]


def _make(name: str, bases: list, doc: str) -> type:
    resolved = tuple(globals()[b] if b in globals() else getattr(builtins, b) for b in bases)
    kinds = ", ".join(f"``{k}``" for k, (c, _) in KINDS.items() if c == name)
    text = f"{doc}\n\nKinds: {kinds}." if kinds else doc
    return type(name, resolved, {"__doc__": text, "__module__": __name__})


for _name, _bases, _doc in _CLASSES:
    if _name != "PithError":
        globals()[_name] = _make(_name, _bases, _doc)
        __all__.append(_name)
