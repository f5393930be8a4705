"""The OptunaHub package folder (optunahub/samplers/ntbea) is laid out as OptunaHub's
registry asks and loads as OptunaHub loads it: its module exposes the sampler, its
README opens with the front matter, and its example runs."""
import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(ROOT, "optunahub", "samplers", "ntbea")


def test_the_package_has_what_the_registry_asks():
    for name in ("__init__.py", "README.md", "LICENSE", "example.py", "requirements.txt"):
        assert os.path.isfile(os.path.join(PACKAGE, name)), name
    readme = open(os.path.join(PACKAGE, "README.md"), encoding="utf-8").read()
    front = readme.split("---")[1]
    for key in ("author:", "title:", "description:", "tags:", "optuna_versions:", "license:"):
        assert key in front, key
    assert "sampler" in front.split("tags:")[1].split("\n")[0]
    assert "<" not in readme.replace("<!--", "").replace("-->", ""), "OptunaHub strips HTML"


def test_the_module_exposes_the_sampler_and_the_example_runs():
    spec = importlib.util.spec_from_file_location("ntbea_hub", os.path.join(PACKAGE, "__init__.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__all__ == ["NtbeaSampler"]
    out = subprocess.run([sys.executable, os.path.join(PACKAGE, "example.py")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "NTBEA's answer" in out.stdout
