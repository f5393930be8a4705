"""Every Python example of docs/python.md runs, as written, in a fresh folder."""

import os
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def examples():
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    heading = {}
    for block in blocks:
        at = text.index(block)
        title = re.findall(r"^## (.+)$", text[:at], flags=re.M)[-1]
        heading[block] = title
    return [pytest.param(b, id=f"{i}-{heading[b].lower().replace(' ', '-')}") for i, b in enumerate(blocks)]


def test_the_doc_has_the_three_uses():
    text = DOC.read_text(encoding="utf-8")
    for title in ("## Tune a game's rules", "## Tune a bot", "## Grow a play-style archive"):
        assert title in text


@pytest.mark.parametrize("code", examples())
def test_example_runs(code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(DOC), "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.strip(), "an example prints what it found"
