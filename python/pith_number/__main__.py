"""``python -m pith_number ARGS…`` runs the ``pith`` command the wheel installed, with ARGS.

The wheel carries the ``pith`` and ``pith-serve`` programs as scripts, which the installer puts
in the environment's script folder (``bin/`` of a virtual environment, ``~/.local/bin`` for
``pip install --user``, ``bin/`` beside the package for ``pip install --target``): the same
places ruff's and uv's wheels use, looked for in the same order.
"""

from __future__ import annotations

import os
import sys
import sysconfig


def find_pith_bin() -> str:
    """The path of the ``pith`` program installed with this package."""
    exe = "pith" + (sysconfig.get_config_var("EXE") or "")
    candidates = [os.path.join(sysconfig.get_path("scripts"), exe)]
    user_scheme = (
        sysconfig.get_preferred_scheme("user")
        if sys.version_info >= (3, 10)
        else ("nt_user" if os.name == "nt" else "posix_user")
    )
    candidates.append(os.path.join(sysconfig.get_path("scripts", scheme=user_scheme), exe))
    # pip install --target DIR: DIR/pith_number/ and DIR/bin/
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(package_root, "bin", exe))
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        "the pith program is not installed beside the pith_number package (looked in "
        + ", ".join(candidates)
        + ")"
    )


def main() -> None:
    try:
        pith = find_pith_bin()
    except FileNotFoundError as e:
        print(f"pith: {e}", file=sys.stderr)
        sys.exit(2)
    if sys.platform == "win32":
        import subprocess

        sys.exit(subprocess.call([pith, *sys.argv[1:]]))
    os.execv(pith, [pith, *sys.argv[1:]])


if __name__ == "__main__":
    main()
