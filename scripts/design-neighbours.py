#!/usr/bin/env python3
"""How much deeper than 2-player Splendor the rules one step away are: every rule set
that moves one dimension of `spaces/rinascimento_rules.ron` from 2-player Splendor's
value is played again with `playtune reevaluate RUN --point ... --n N` (RUN's problem
settings: the published design-landscape run plays 250 games a rung), all on the same
fresh seeds, Splendor itself with 4N evaluations. Prints the neighbours by skill depth,
each with its standard error, beside Splendor's.

    scripts/design-neighbours.py [PLAYTUNE] [RUN] [N]

Defaults: target/release/playtune, runs/published/design-landscape/random-400, 2
(about 3 minutes on 2 cores). Only the standard library: no package to install.
"""
import json
import re
import subprocess
import sys

playtune = sys.argv[1] if len(sys.argv) > 1 else "target/release/playtune"
run = sys.argv[2] if len(sys.argv) > 2 else "runs/published/design-landscape/random-400"
n = int(sys.argv[3]) if len(sys.argv) > 3 else 2

# The game's own rules at 2 players (`playtune games rinascimento`: Splendor's value for
# the player count), the point `reevaluate`'s verdict takes as its baseline.
SPLENDOR_2P = dict(token_types=5, jokers=5, decks=3, face_up=4, extra_nobles=1, coins=4,
                   max_tokens=10, max_reserved=3, end_points=15, pick_diff_types=3,
                   pick_diff_each=1, pick_same=2, pick_same_min=4)
ranges = {
    m[1]: range(int(m[2]), int(m[3]) + 1, int(m[4]))
    for m in re.finditer(r'name: "(\w+)", kind: Int\(min: (\d+), max: (\d+), step: (\d+)\)',
                         open("spaces/rinascimento_rules.ron").read())
}


def depth(point, evaluations):
    args = [a for k, v in point.items() for a in ("--point", f"{k}={v}")]
    out = subprocess.run([playtune, "reevaluate", run, "--n", str(evaluations), "--seed", "91",
                          "--no-verdict", "--json", *args], check=True, capture_output=True,
                         text=True).stdout
    p = json.loads(out.strip().splitlines()[-1])["points"][0]
    return p["mean"], p["se"]


base, base_se = depth(SPLENDOR_2P, 4 * n)
rows = []
for name, values in ranges.items():
    if name not in SPLENDOR_2P:
        continue  # players: fixed at 2 by the run's settings
    for v in values:
        if v != SPLENDOR_2P[name]:
            rows.append((*depth(dict(SPLENDOR_2P, **{name: v}), n), f"{name}={v}"))
            print(f"{rows[-1][2]:>20}  {rows[-1][0]:+.3f} ± {rows[-1][1]:.3f}", file=sys.stderr, flush=True)
rows.sort(reverse=True)
print(f"2-player Splendor: {base:.3f} ± {base_se:.3f} ({4 * n} evaluations)")
print(f"{len(rows)} neighbours ({n} evaluations each); the ten deepest:")
for mean, se, label in rows[:10]:
    print(f"  {label:<20} {mean:+.3f} ± {se:.3f}  ({mean - base:+.3f} against Splendor)")
deeper = sum(m - base > 2 * (se * se + base_se * base_se) ** 0.5 for m, se, _ in rows)
print(f"deeper than Splendor by 2 standard errors: {deeper} of {len(rows)}; "
      f"within 0.05 of it: {sum(abs(m - base) < 0.05 for m, _, _ in rows)}; "
      f"0.1 or more shallower: {sum(base - m >= 0.1 for m, _, _ in rows)}")
