"""Shared fixtures: the `playtune` binary (for the cross-language tests) and quiet Optuna."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary():
    """The command line: $PLAYTUNE_BIN, else the release build (CARGO_TARGET_DIR's or
    the repository's target/), else one on PATH."""
    candidates = [os.environ.get("PLAYTUNE_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR")
    if target:
        candidates.append(os.path.join(target, "release", "playtune"))
    candidates.append(str(ROOT / "target" / "release" / "playtune"))
    candidates.append(shutil.which("playtune"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs the command line; skips the test where it is not built."""
    exe = _binary()
    if exe is None:
        if os.environ.get("PLAYTUNE_REQUIRE_CLI"):
            pytest.fail("no playtune binary: build it with cargo build --release")
        pytest.skip("no playtune binary (cargo build --release makes one)")

    def run(*args, ok=True, input=None):
        p = subprocess.run([exe, *map(str, args)], capture_output=True, text=True, input=input)
        if ok and p.returncode != 0:
            raise AssertionError(f"playtune {' '.join(map(str, args))} failed:\n{p.stderr}")
        return p

    return run


@pytest.fixture(autouse=True)
def quiet_optuna():
    try:
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
    except ImportError:
        pass
