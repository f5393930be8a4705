"""Runs Optuna's own sampler tests (tests/samplers_tests/test_samplers.py of the
installed Optuna's release, fetched from GitHub) with the NTBEA sampler added where
Optuna lists TPE and CMA-ES: in the samplers every generic test runs on, the basic and
relative test cases and the single-objective ones.

    python scripts/optuna-upstream-sampler-tests.py [TEST_FILE]

Without TEST_FILE it takes the file from the installed version's source release (pip
download), else from GitHub at its tag; where neither can be had (no network) it says
so and exits 0. Extra arguments go to pytest.
"""
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import urllib.request

import optuna

NTBEA = "NtbeaSampler"


def patch(text: str) -> str:
    # After `from __future__ import ...`, which must come first.
    future = re.search(r"^from __future__ import .*\n", text, re.M)
    at = future.end() if future else 0
    out = text[:at] + "from playtune.optuna import NtbeaSampler\n" + text[at:]
    # Every sampler the seeded tests run on.
    out, n = re.subn(
        r'(sampler_class_with_seed[^=]*=\s*\{\n)',
        r'\1    "NtbeaSampler": lambda seed: NtbeaSampler(seed=seed),\n',
        out,
        count=1,
    )
    if n != 1:
        raise LookupError("the seeded samplers' list (sampler_class_with_seed) moved")
    # The basic, relative and single-objective test cases' fixtures.
    for case in ("TestBasicSampler", "TestRelativeSampler", "TestSingleOnlySampler"):
        pattern = re.compile(r"(class " + case + r"\(.*?\):\n    @pytest\.fixture\(\n        params=\[\n)", re.S)
        out, n = pattern.subn(r'\1            pytest.param(lambda: NtbeaSampler(), id="NtbeaSampler"),\n', out, count=1)
        if n == 0:
            print(f"note: no {case} fixture list in this release")
    return out


def fetch(version: str):
    """The test file of Optuna `version`: from its source release, else its tag."""
    member = f"optuna-{version}/tests/samplers_tests/test_samplers.py"
    with tempfile.TemporaryDirectory() as d:
        got = subprocess.call(
            [sys.executable, "-m", "pip", "download", f"optuna=={version}", "--no-binary", ":all:",
             "--no-deps", "--quiet", "-d", d],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        archives = [f for f in os.listdir(d) if f.endswith(".tar.gz")] if got == 0 else []
        if archives:
            with tarfile.open(os.path.join(d, archives[0])) as tar:
                try:
                    return tar.extractfile(member).read().decode()
                except (KeyError, AttributeError):
                    pass
    url = f"https://raw.githubusercontent.com/optuna/optuna/v{version}/tests/samplers_tests/test_samplers.py"
    try:
        return urllib.request.urlopen(url, timeout=60).read().decode()
    except Exception as e:  # no network, no such tag
        print(f"skipped: cannot fetch Optuna {version}'s sampler tests (pip download and {url}: {e})")
        return None


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    flags = [a for a in sys.argv[1:] if a.startswith("-")]
    if args:
        text = open(args[0], encoding="utf-8").read()
    else:
        text = fetch(optuna.__version__)
        if text is None:
            return 0
    folder = tempfile.mkdtemp(prefix="optuna-upstream-")
    path = os.path.join(folder, "test_samplers_with_ntbea.py")
    try:
        patched = patch(text)
    except LookupError as e:
        # A release that lays its tests out anew: say so rather than test nothing.
        print(f"skipped: Optuna {optuna.__version__}'s sampler tests cannot be patched: {e}; update {__file__}")
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(patched)
    # Only the NTBEA cases: Optuna's own samplers are Optuna's to test.
    return subprocess.call([sys.executable, "-m", "pytest", path, "-q", "-k", NTBEA, "-p", "no:cacheprovider", *flags])


if __name__ == "__main__":
    sys.exit(main())
