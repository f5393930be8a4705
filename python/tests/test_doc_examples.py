"""Every fenced Python and shell example of README.md and docs/*.md runs, as written,
as a new user runs it: from a folder outside the repository, with only the wheel.

A page's examples run in order, in one fresh, empty folder outside the repository, so
that a later example reads what an earlier one wrote, and an example that needs the
repository's files gets them as the page tells its reader to (`playtune examples`).
Shell examples run with `bash -e`, `playtune` on the PATH being the wheel's command
(where the tests' interpreter has it; else the command line the other tests run), the
package's interpreter first on the PATH. Python examples run with the package's
interpreter: with tqdm (where it is installed), then again, in a fresh folder, with
tqdm hidden.

An HTML comment just above a block, unseen by a reader, says what the check does with
a block that cannot run as written (docs/layout.md, "The docs' examples"):

    <!-- doc-check: skip — REASON -->          not run; the reason is required
    <!-- doc-check: skip "TEXT" — REASON -->   the block's commands holding TEXT are not run
    <!-- doc-check: with FLAG VALUE ... -->    each `playtune` command of the block that has
                                               FLAG (`--set KEY=VALUE`: that KEY) runs with
                                               VALUE instead
    <!-- doc-check: replace "OLD" "NEW" -->    the block runs with OLD replaced by NEW
    <!-- doc-check: file NAME -->              the block is the file NAME, written to the
                                               page's folder before its examples run
    <!-- doc-check: checkout — REASON -->      the block is about the repository (its
                                               scripts, its published runs): it runs in a
                                               folder laid out as a checkout, the page's
                                               other blocks do not see it

`with` and `replace` make a run smaller, and only where the page tells the reader that
the smaller run will do. A block of a runnable language (python, sh, bash, shell,
console) is run or marked; any other (ron, json, text, rust) is not a command.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from conftest import _binary

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUNNABLE = {"python", "sh", "bash", "shell", "console"}
SHELL = RUNNABLE - {"python"}
# What a page's folder holds of the checkout: copied (the examples may write beside them).
COPIED = ("examples", "spaces", "scripts", "benches")
# Linked, read-only: the published runs and pictures the pages name.
LINKED = (("runs", "published"), ("plots", "published"))
# A block that runs longer than this fails (a hang must not stall CI).
TIMEOUT_S = 600
# What a block needs beyond playtune, by a word in it: where that is missing (node, or
# OpenSpiel, whose wheel may not install: .ci/run goes on without it) the block is not
# run and the page's test says so, as the other tests skip theirs.
NEEDS = (
    (("tictactoe.ron", "tictactoe.js", "duel.js", "duel-js.ron"), "node", lambda: shutil.which("node") is not None),
    (("openspiel", "oware"), "OpenSpiel (pip install open_spiel)", lambda: _importable("pyspiel")),
)

FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[^`\s]*)[^`]*$")
MARKER = re.compile(r"^\s*<!--\s*doc-check:\s*(?P<body>.*?)\s*-->\s*$")
REASON_SEP = re.compile(r"\s*(?:—|–|:)\s*")


@dataclass
class Marker:
    kind: str  # skip, with, replace, file, checkout
    line: int
    reason: str = ""
    text: Optional[str] = None  # skip "TEXT"
    flags: List[Tuple[str, str]] = field(default_factory=list)  # with: (flag, value)
    name: str = ""  # file NAME
    old: str = ""  # replace "OLD" "NEW"
    new: str = ""


@dataclass
class Block:
    page: str  # relative to the repository root
    line: int  # the opening fence's line, 1-based
    lang: str
    text: str
    markers: List[Marker]

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def runnable(self) -> bool:
        return self.lang in RUNNABLE

    def marked(self, kind: str) -> List[Marker]:
        return [m for m in self.markers if m.kind == kind]

    @property
    def skipped(self) -> Optional[Marker]:
        whole = [m for m in self.marked("skip") if m.text is None]
        return whole[0] if whole else None

    @property
    def in_checkout(self) -> bool:
        return bool(self.marked("checkout"))

    @property
    def file(self) -> Optional[Marker]:
        files = self.marked("file")
        return files[0] if files else None


def parse_marker(body: str, line: int, where: str) -> Marker:
    """One marker's text (what follows `doc-check:`), checked."""
    kind, _, rest = body.partition(" ")
    rest = rest.strip()
    if kind == "skip":
        text = None
        if rest.startswith('"'):
            end = rest.find('"', 1)
            assert end > 0, f"{where}: doc-check skip \"TEXT\": the TEXT is not closed"
            text, rest = rest[1:end], rest[end + 1 :].strip()
        m = REASON_SEP.match(rest)
        reason = rest[m.end() :].strip() if m else ""
        assert m and reason, f"{where}: `doc-check: skip` needs its reason: <!-- doc-check: skip — REASON -->"
        return Marker("skip", line, reason=reason, text=text)
    if kind == "with":
        words = shlex.split(rest)
        flags = []
        while words:
            flag = words.pop(0)
            assert flag.startswith("--") and words, f"{where}: `doc-check: with` takes FLAG VALUE pairs, got {rest!r}"
            value = words.pop(0)
            if flag == "--set":
                assert "=" in value, f"{where}: `doc-check: with --set` takes KEY=VALUE, got {value!r}"
            flags.append((flag, value))
        assert flags, f"{where}: `doc-check: with` names no flag"
        return Marker("with", line, flags=flags)
    if kind == "replace":
        parts = shlex.split(rest)
        assert len(parts) == 2 and parts[0], f'{where}: `doc-check: replace` takes "OLD" "NEW" (quoted as the shell quotes), got {rest!r}'
        return Marker("replace", line, old=parts[0], new=parts[1])
    if kind == "checkout":
        m = REASON_SEP.match(rest)
        reason = rest[m.end() :].strip() if m else ""
        assert m and reason, f"{where}: `doc-check: checkout` needs its reason: <!-- doc-check: checkout — REASON -->"
        return Marker("checkout", line, reason=reason)
    if kind == "file":
        assert rest and " " not in rest, f"{where}: `doc-check: file` takes one NAME, got {rest!r}"
        return Marker("file", line, name=rest)
    raise AssertionError(f"{where}: unknown doc-check marker {body!r} (skip, with, replace, file or checkout)")


def page_blocks(page: Path, rel: Optional[str] = None) -> Tuple[List[Block], List[str]]:
    """The fenced blocks of a page, with the markers just above each; and the problems
    (a marker above no block)."""
    rel = rel or page.relative_to(ROOT).as_posix()
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks, problems, pending = [], [], []
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i])
        fence = FENCE.match(lines[i])
        if marker:
            pending.append(parse_marker(marker.group("body"), i + 1, f"{rel}:{i + 1}"))
            i += 1
            continue
        if fence:
            indent = len(fence.group("indent"))
            j = i + 1
            while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
                j += 1
            body = [ln[indent:] if ln[:indent].strip() == "" else ln for ln in lines[i + 1 : j]]
            blocks.append(Block(rel, i + 1, fence.group("lang").lower(), "\n".join(body) + "\n", pending))
            pending = []
            i = j + 1
            continue
        if pending:
            problems.append(f"{rel}:{pending[0].line}: a doc-check marker must stand just above a fenced block")
            pending = []
        i += 1
    if pending:
        problems.append(f"{rel}:{pending[0].line}: a doc-check marker must stand just above a fenced block")
    return blocks, problems


def all_blocks() -> List[Block]:
    return [b for page in PAGES for b in page_blocks(page)[0]]


def commands(text: str) -> List[Tuple[int, int, str]]:
    """A shell block's commands: (first line, last line, the command joined), 0-based
    lines within the block; comment lines and blank lines are not commands."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        start, joined = i, lines[i]
        while joined.endswith("\\") and i + 1 < len(lines):
            i += 1
            joined = joined[:-1] + " " + lines[i].strip()
        if joined.strip() and not joined.lstrip().startswith("#"):
            out.append((start, i, joined))
        i += 1
    return out


PLAYTUNE = re.compile(r"^(?:\s*\w+=\S+\s+)*playtune\s")


def with_flags(command: str, flags: List[Tuple[str, str]]) -> Tuple[str, set]:
    """A `playtune` command with the marker's flags: a flag it has takes the marker's
    value (`--set KEY=...`: that KEY). Returns the command and the flags used."""
    used = set()
    if not PLAYTUNE.match(command):
        return command, used
    for flag, value in flags:
        if flag == "--set":
            key = value.split("=", 1)[0]
            pattern = re.compile(r"(--set\s+)" + re.escape(key) + r"=(\"[^\"]*\"|'[^']*'|\S+)")
            new = key + "=" + value.split("=", 1)[1]
        else:
            pattern = re.compile(r"(" + re.escape(flag) + r"\s+)(\"[^\"]*\"|'[^']*'|\S+)")
            new = value
        new = shlex.quote(new)
        command, n = pattern.subn(lambda m: m.group(1) + new, command)
        if n:
            used.add((flag, value))
    return command, used


def replaced(block: Block) -> str:
    """The block's text with its `replace` markers applied."""
    text = block.text
    for m in block.marked("replace"):
        assert m.old in text, f'{block.where}: `doc-check: replace "{m.old}"` is not in the block'
        text = text.replace(m.old, m.new)
    return text


def shell_script(block: Block) -> str:
    """The block as a bash script whose line numbers are the page's: a command changed
    by a marker (or not run) stands on its first line, its other lines left blank."""
    lines = replaced(block).split("\n")
    if block.lang == "console":
        lines = [ln[2:] if ln.startswith("$ ") else "" for ln in lines]
        block = Block(block.page, block.line, "sh", "\n".join(lines), block.markers)
    flags = [f for m in block.marked("with") for f in m.flags]
    skips = [m for m in block.marked("skip") if m.text is not None]
    used, matched = set(), set()
    for first, last, command in commands("\n".join(lines)):
        changed = command
        for m in skips:
            if m.text in command:
                matched.add(m.text)
                changed = ": skipped by doc-check"
        if flags and changed == command:
            changed, u = with_flags(command, flags)
            used |= u
        if changed != command:
            lines[first : last + 1] = [changed] + [""] * (last - first)
    for m in skips:
        assert m.text in matched, f"{block.where}: `doc-check: skip \"{m.text}\"` matches no command of the block"
    for f in flags:
        assert f in used, f"{block.where}: `doc-check: with {f[0]} {f[1]}` matches no command of the block"
    # The block's first line is the page's line block.line + 1.
    head = 'trap \'echo "doc-check: $DOC_PAGE:$LINENO failed" >&2\' ERR'
    return head + "\n" * block.line + "\n".join(lines)


PY_RUNNER = r"""
import sys
path, page, hide = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
code = open(path, encoding="utf-8").read()
if hide:
    # Optuna needs tqdm (no one has one without the other): it keeps what it imported.
    if "optuna" in code:
        try:
            import optuna  # noqa: F401
        except ImportError:
            pass
    # For playtune, `import tqdm` raises ImportError, as where it is not installed.
    for name in [m for m in sys.modules if m == "tqdm" or m.startswith("tqdm.")] + ["tqdm", "tqdm.auto"]:
        sys.modules[name] = None
sys.argv = [page]
exec(compile(code, page, "exec"), {"__name__": "__main__"})
"""


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def tqdm_installed() -> bool:
    return _importable("tqdm")


def missing(block: Block) -> Optional[str]:
    """What the block needs and this machine lacks, or None."""
    for words, what, present in NEEDS:
        if any(w in block.text for w in words) and not present():
            return what
    return None


def wheel_command() -> Optional[str]:
    """The `playtune` command the wheel installed beside the tests' interpreter."""
    exe = Path(sys.executable).parent / "playtune"
    return str(exe) if exe.is_file() and os.access(exe, os.X_OK) else None


def environment(folder: Path, exe: Optional[str]) -> dict:
    """The environment a page's examples run in: `playtune` on the PATH is `exe`, the
    package's interpreter next; nothing of the repository."""
    bindir = folder.parent / f"{folder.name}-bin"
    bindir.mkdir()
    if exe:
        (bindir / "playtune").symlink_to(exe)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(bindir), os.path.dirname(sys.executable), env.get("PATH", "")])
    for name in ("PLAYTUNE_BIN", "PLAYTUNE_PYTHON", "PYTHONPATH"):
        env.pop(name, None)
    if exe and Path(exe).resolve() != Path(sys.executable).parent.joinpath("playtune").resolve():
        # The cargo-built command: Python games run in the tests' interpreter, as
        # the wheel's command has them run in its own.
        env["PLAYTUNE_PYTHON"] = sys.executable
    return env


def checkout(folder: Path) -> None:
    """`folder` laid out as a checkout of the repository, for the blocks about it."""
    for name in COPIED:
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, folder / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "target"))
    for parent, child in LINKED:
        (folder / parent).mkdir(exist_ok=True)
        if (ROOT / parent / child).exists():
            (folder / parent / child).symlink_to(ROOT / parent / child)


def run_block(block: Block, folder: Path, env: dict, hide_tqdm: bool = False) -> Optional[str]:
    """Runs one block in `folder`; the failure's message, or None."""
    tmp = folder.parent / f"{folder.name}-block-{block.line}"
    if block.lang == "python":
        tmp.write_text("\n" * block.line + replaced(block), encoding="utf-8")
        argv = [sys.executable, "-c", PY_RUNNER, str(tmp), block.page, "1" if hide_tqdm else "0"]
    else:
        tmp.write_text(shell_script(block), encoding="utf-8")
        argv = ["bash", "-e", str(tmp)]
    env = dict(env, DOC_PAGE=block.page)
    # A session of its own, so that a block past its time is killed with what it started.
    p = subprocess.Popen(
        argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        stdin=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        out, err = p.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return f"{block.where}: the {block.lang} block ran past {TIMEOUT_S} s"
    if p.returncode != 0:
        tail = lambda s: "\n".join(s.strip().split("\n")[-25:])  # noqa: E731
        return (
            f"{block.where}: the {block.lang} block failed (exit {p.returncode})"
            f"{' with tqdm hidden' if hide_tqdm else ''}\n"
            f"--- stderr (end) ---\n{tail(err)}\n--- stdout (end) ---\n{tail(out)}"
        )
    return None


def pages_to_run():
    params = []
    for page in PAGES:
        blocks = page_blocks(page)[0]
        runs = [b for b in blocks if b.runnable and not b.skipped and not b.file]
        rel = page.relative_to(ROOT).as_posix()
        if runs:
            params.append(pytest.param(rel, False, id=rel))
        if any(b.lang == "python" for b in runs):
            params.append(pytest.param(rel, True, id=f"{rel}-no-tqdm"))
    return params


@pytest.mark.parametrize("page,hide_tqdm", pages_to_run())
def test_page_examples_run(page, hide_tqdm, tmp_path):
    """A page's examples, in order, in one fresh folder outside the repository; with
    tqdm hidden, only its Python examples (and the files they read: the page's
    `playtune examples` then runs first)."""
    if hide_tqdm and not tqdm_installed():
        pytest.skip("tqdm is not installed: the Python examples already ran without it")
    blocks = [b for b in page_blocks(ROOT / page)[0] if b.runnable and not b.skipped]
    fetches = any(b.lang in SHELL and "playtune examples" in b.text for b in blocks)
    if hide_tqdm:
        blocks = [b for b in blocks if b.lang == "python" or b.file]
    exe = wheel_command() or _binary()
    shell = [b for b in blocks if b.lang in SHELL and not b.file]
    if shell and exe is None:
        if os.environ.get("PLAYTUNE_REQUIRE_CLI"):
            pytest.fail("no playtune command: install the wheel, or build the binary with cargo build --release")
        pytest.skip(f"no playtune command for {page}'s shell examples (the wheel installs one)")
    # Outside the repository: the tests' temporary folder is elsewhere.
    assert ROOT not in tmp_path.resolve().parents, f"{tmp_path} is inside the repository"
    folder = tmp_path / "page"
    folder.mkdir()
    env = environment(folder, exe)
    repository = tmp_path / "checkout"
    if any(b.in_checkout for b in blocks):
        repository.mkdir()
        checkout(repository)
    for b in blocks:
        if b.file:
            (folder / b.file.name).write_text(b.text, encoding="utf-8")
    if hide_tqdm and fetches:
        subprocess.run(["playtune", "examples"], cwd=folder, env=env, check=True, capture_output=True)
    not_run = []
    for b in blocks:
        if b.file:
            continue
        lacking = missing(b)
        if lacking:
            not_run.append(f"{b.where} (needs {lacking})")
            continue
        start = time.monotonic()
        failure = run_block(b, repository if b.in_checkout else folder, env, hide_tqdm)
        print(f"{b.where}: {b.lang} block, {time.monotonic() - start:.1f} s")  # shown by pytest -rA
        if failure:
            pytest.fail(failure, pytrace=False)
    if not_run:
        pytest.skip(f"{page}: every block ran but {', '.join(not_run)}")


def test_every_runnable_block_is_run_or_marked():
    """Every block of a runnable language is run by test_page_examples_run, as written
    or as its markers say, or is marked `skip` or `file`, with its reason; every marker
    stands above a runnable block and still matches it (a `with` flag some command has,
    a `replace` text, a `skip "TEXT"` command that are in the block)."""
    problems = []
    counts = {"as written": 0, "smaller": 0, "partly skipped": 0, "skipped": 0, "files": 0}
    run_pages = {p.values[0] for p in pages_to_run() if not p.values[1]}
    for page in PAGES:
        blocks, stray = page_blocks(page)
        problems += stray
        for b in blocks:
            if not b.runnable:
                if b.markers:
                    problems.append(f"{b.where}: a doc-check marker above a {b.lang or 'plain'} block, which is not run")
                continue
            if b.in_checkout and len(b.marked("checkout")) > 1:
                problems.append(f"{b.where}: one `doc-check: checkout` a block")
            if b.skipped or b.file:
                if len(b.markers) > 1:
                    problems.append(f"{b.where}: a block skipped or a file takes no other marker")
                counts["skipped" if b.skipped else "files"] += 1
                continue
            if b.page not in run_pages:
                problems.append(f"{b.where}: a runnable block no test runs")
            if b.marked("with") and b.lang not in SHELL:
                problems.append(f"{b.where}: `doc-check: with` applies to shell blocks; use replace")
            if any(m.text is not None for m in b.marked("skip")) and b.lang not in SHELL:
                problems.append(f"{b.where}: `doc-check: skip \"TEXT\"` applies to shell blocks")
            try:
                shell_script(b) if b.lang in SHELL else replaced(b)
            except AssertionError as e:
                problems.append(str(e))
            if any(m.text is not None for m in b.marked("skip")):
                counts["partly skipped"] += 1
            elif b.marked("with") or b.marked("replace"):
                counts["smaller"] += 1
            else:
                counts["as written"] += 1
    print("runnable blocks:", ", ".join(f"{v} {k}" for k, v in counts.items()))  # shown by pytest -rA
    assert not problems, "\n".join(problems)


# Commands in a block of no language, whose first word is one of these, should be a
# runnable block (and so run or marked).
COMMAND_WORDS = {"playtune", "cargo", "pip", "python", "python3", "git", "bash", "sh", "time", "export", "cd"}


def test_command_blocks_say_their_language():
    """A block of commands says `sh` (so that it is run or marked); an output listing,
    a file or a fragment keeps a language that is not run (text, ron, json, ...)."""
    problems = []
    for b in all_blocks():
        if b.lang:
            continue
        first = next((ln.strip() for ln in b.text.split("\n") if ln.strip()), "")
        word = first.split(" ")[0]
        if word in COMMAND_WORDS or word.startswith("PLAYTUNE_") or word.endswith(".sh"):
            problems.append(f"{b.where}: a block of commands with no language (```sh, then run or marked)")
    assert not problems, "\n".join(problems)


def test_python_md_shows_the_three_uses():
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    for title in ("## Tune a game's rules", "## Tune a bot", "## Grow a play-style archive"):
        assert title in text


def test_markers_parse():
    """The marker syntax this module documents, on examples."""
    assert parse_marker("skip — needs a Slurm cluster", 1, "x").reason == "needs a Slurm cluster"
    m = parse_marker('skip "--preset full" — hours on 2 cores', 1, "x")
    assert (m.text, m.reason) == ("--preset full", "hours on 2 cores")
    with pytest.raises(AssertionError, match="reason"):
        parse_marker("skip", 1, "x")
    assert parse_marker("with --budget 10 --set games=4", 1, "x").flags == [("--budget", "10"), ("--set", "games=4")]
    command = 'playtune optimize --problem design --set game=x --set games=20 --budget 200 \\'
    changed, used = with_flags(command, [("--budget", "10"), ("--set", "games=4")])
    assert changed == 'playtune optimize --problem design --set game=x --set games=4 --budget 10 \\'
    assert len(used) == 2
    assert with_flags('playtune x --set ladder="a,b(c=1)"', [("--set", "ladder=a,b")])[0] == "playtune x --set ladder=a,b"
    m = parse_marker("""replace '"games": 20}' '"games": 4}, budget=20'""", 1, "x")
    assert (m.old, m.new) == ('"games": 20}', '"games": 4}, budget=20')
    assert parse_marker("file my_eval.py", 1, "x").name == "my_eval.py"
    assert commands("a \\\n  b\n# c\n\nd\n") == [(0, 1, "a  b"), (4, 4, "d")]
    block = Block("p.md", 10, "sh", "playtune x --budget 200 \\\n    --set games=20\nplaytune games\n", [
        parse_marker("with --budget 4", 9, "x"), parse_marker('skip "no such command" — r', 9, "x")])
    with pytest.raises(AssertionError, match="matches no command"):
        shell_script(block)
    block.markers[1] = parse_marker('skip "playtune games" — r', 9, "x")
    script = shell_script(block).split("\n")
    # The script's lines are the page's: the block's first line is the page's line 11.
    assert script[11 - 1] == "playtune x --budget 4  --set games=20"
    assert script[12 - 1] == ""
    assert script[13 - 1] == ": skipped by doc-check"
