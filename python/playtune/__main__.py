"""The command line from the Python package: ``python -m playtune ARGS`` and the
``playtune`` command the wheel installs run the same Rust code as the ``playtune``
binary of ``cargo build``, in this process, so a Python user without Rust has every
command (``playtune report RUN``, ``resume``, ``plot``, ...)."""

from __future__ import annotations

import os
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    """Runs ``playtune`` with ``argv`` (by default the process's arguments) and
    returns its exit status. Ctrl-C, SIGTERM and SIGHUP are then the command line's:
    they kill its evaluators and end the process with 130, 143 or 129."""
    from . import _playtune

    args = sys.argv[1:] if argv is None else list(argv)
    # The Python games a command names (FILE.py:NAME) are played by this interpreter,
    # the one playtune is installed in, unless PLAYTUNE_PYTHON names another.
    os.environ.setdefault("PLAYTUNE_PYTHON", sys.executable)
    # What Python printed first comes first.
    sys.stdout.flush()
    sys.stderr.flush()
    return _playtune.cli(["playtune", *args])


if __name__ == "__main__":
    sys.exit(main())
