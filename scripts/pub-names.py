#!/usr/bin/env python3
"""Which `pub` items are named nowhere outside their crate (a name search).

Each crate is a folder with a Cargo.toml and a src/. An item is a `pub` fn, struct,
enum, trait, type, const, static or macro in the crate's src/ (methods included;
`pub use`, `pub mod` and fields are left out). It is named outside when its name
appears as a whole word in a .rs file anywhere outside the crate's src/: another
crate, or the tests, benches and examples of any crate (those see only its public API).
A type a caller gets without writing its name, as what a `pub fn` named outside takes
or gives back, or a trait's associated type in an impl (`type Rules = SbeRules;`), is
API too: the words of such a signature, and such a type, count as named.

    python3 scripts/pub-names.py            # counts per crate, then the items
    python3 scripts/pub-names.py --max 20   # exit 1 when more than 20 are unnamed
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ITEM = re.compile(
    r"^\s*pub\s+(?:const\s+fn|async\s+fn|unsafe\s+fn|fn|struct|enum|trait|type|const|static)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# An associated type given in a trait's impl: `    type Rules = SbeRules;`.
ASSOCIATED = re.compile(r"^\s+type\s+[A-Za-z_][A-Za-z0-9_]*\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\s*;")


def crates():
    for manifest in sorted([ROOT / "Cargo.toml", *ROOT.glob("crates/*/Cargo.toml"), ROOT / "python/Cargo.toml"]):
        src = manifest.parent / "src"
        if src.is_dir():
            yield manifest.parent, src


def words(paths):
    seen = set()
    for path in paths:
        seen.update(WORD.findall(path.read_text(errors="replace")))
    return seen


def signature(lines, start):
    """A function's signature: from its `pub fn` line to its body's `{` (or `;`)."""
    text = ""
    for line in lines[start:]:
        text += line + "\n"
        if line.rstrip().endswith(("{", ";")):
            break
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max", type=int, help="fail when more items than this are unnamed")
    args = parser.parse_args()
    all_crates = list(crates())
    every = [p for p in ROOT.rglob("*.rs") if "target" not in p.relative_to(ROOT).parts]
    sources = {folder: [p for p in every if p.is_relative_to(src)] for folder, src in all_crates}
    total_items = total_unnamed = 0
    unnamed_all = []
    for folder, src in all_crates:
        outside = [p for p in every if not p.is_relative_to(src)]
        named = words(outside)
        items = []
        for path in sources[folder]:
            lines = path.read_text().splitlines()
            for lineno, line in enumerate(lines, 1):
                m = ITEM.match(line)
                if m:
                    items.append((path.relative_to(ROOT), lineno, m.group(1)))
                    if m.group(1) in named and re.match(r"^\s*pub\s+(?:const\s+)?fn\b", line):
                        named |= set(WORD.findall(signature(lines, lineno - 1)))
                assoc = ASSOCIATED.match(line)
                if assoc:
                    named.add(assoc.group(1))
        unnamed = [i for i in items if i[2] not in named]
        total_items += len(items)
        total_unnamed += len(unnamed)
        unnamed_all += unnamed
        print(f"{folder.relative_to(ROOT) if folder != ROOT else '(root)'}: {len(unnamed)} of {len(items)} pub items named nowhere outside")
    print(f"workspace: {total_unnamed} of {total_items}")
    for path, lineno, name in unnamed_all:
        print(f"  {path}:{lineno}: {name}")
    if args.max is not None and total_unnamed > args.max:
        print(f"more than {args.max} pub items are named nowhere outside their crate", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
