#!/usr/bin/env python3
"""CI's check of the floors (docs/layout.md), derived from the crates themselves.

Every workspace crate says its floor in its own Cargo.toml:

    [package.metadata.playtune]
    floor = 3
    may-use = ["candle-core"]   # heavy crates it may bring, if any

and this checks, from `cargo tree -p CRATE -e normal` (its own features only), that it
depends on no playtune crate of its floor or above and on none of the heavy crates
(candle, plotters, clap, indicatif) but those it names. A crate added under crates/ is
checked with no edit here; one that does not say its floor fails.

    python3 scripts/floors.py
"""

import json
import subprocess
import sys

HEAVY = {"candle-core", "candle-nn", "plotters", "clap", "indicatif"}


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    members = set(meta["workspace_members"])
    floors, allowed, failures = {}, {}, []
    for package in meta["packages"]:
        if package["id"] not in members:
            continue
        mine = (package.get("metadata") or {}).get("playtune") or {}
        if not isinstance(mine.get("floor"), int):
            failures.append(
                f"{package['name']} ({package['manifest_path']}) does not say its floor: "
                "add [package.metadata.playtune] floor = N (docs/layout.md)"
            )
            continue
        floors[package["name"]] = mine["floor"]
        allowed[package["name"]] = set(mine.get("may-use", []))
    for name, floor in sorted(floors.items(), key=lambda kv: (kv[1], kv[0])):
        tree = subprocess.run(
            ["cargo", "tree", "-p", name, "-e", "normal", "--prefix", "none"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.splitlines()[1:]
        deps = {line.split()[0] for line in tree if line.strip()}
        for dep in sorted(deps):
            if dep in floors and floors[dep] >= floor:
                failures.append(
                    f"{name} (floor {floor}) depends on {dep} (floor {floors[dep]}): "
                    "a crate imports only lower floors"
                )
            elif dep in HEAVY and dep not in allowed[name]:
                failures.append(
                    f"{name} (floor {floor}) depends on {dep}, which it does not name in may-use"
                )
        print(f"floor {floor}: {name} ({len(deps)} crates in its tree) ok" if not any(
            f.startswith(f"{name} ") for f in failures) else f"floor {floor}: {name} FAILS")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
