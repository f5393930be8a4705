#!/usr/bin/env bash
# NTBEA against the reference Java NTBEA (S. M. Lucas, github.com/SimonLucas/ntbea, MIT),
# side by side in one sitting, one core each (taskset -c 0 where there is taskset):
# noisy OneMax, sigma 1, D = 20 with budget 500 and D = 10 with budget 200.
# Each round, for each problem, runs in turn
#   java      benches/java/NtbeaBench.java on the reference's classes: RUNS runs in one
#             JVM, 1+2+N tuples, k = 5, epsilon 0.5, 50 neighbours, the reference's
#             mutation and recommendation (the best evaluated point by model mean);
#   pt-ref    playtune with those settings: --trials RUNS --tuples 1+2+N --k 5
#             --k-absolute --epsilon 0.5 --neighbours 50 --mutation 2 --recommend evaluated;
#   pt-def    playtune at its defaults (no NTBEA flags);
#   own-ref, own-def
#             NTBEA alone at those settings, timed in one process by
#             examples/ntbea_runs.rs as the Java driver times the reference (no
#             process start, no convergence curve: NTBEA's own cost),
# with round i's seed i on every side and one thread for playtune (RAYON_NUM_THREADS=1).
# A side's time a run is the wall time of its process (start-up included, as in
# docs/benchmarks.md) over RUNS; the Java driver's own in-JVM mean (no JVM start) and
# playtune's in-process `seconds` are printed beside it. Success is the share of runs
# whose recommendation is the all-ones point. At the end: medians over rounds, the
# ratios java / playtune of the medians, the date, nproc and the Java version.
#
#   NTBEA_JAVA=/path/to/ntbea-checkout bash benches/compare_java_ntbea.sh [ROUNDS]
#
# ROUNDS defaults to 5; RUNS (environment) to 50; PLAYTUNE to target/release/playtune
# (built with cargo build --release if missing). NTBEA_JAVA is a checkout of the
# reference (its java/src is compiled: only the classes the driver uses, by javac
# -sourcepath, so none of its Kotlin). Without NTBEA_JAVA it says how to set it and
# exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
runs=${RUNS:-50}

if [ -z "${NTBEA_JAVA:-}" ]; then
  cat <<'EOF'
compare_java_ntbea.sh: NTBEA_JAVA is not set, so there is no reference to compare with; nothing run.
Set it to a checkout of the reference Java NTBEA, e.g.
  git clone https://github.com/SimonLucas/ntbea /tmp/ntbea-java
  NTBEA_JAVA=/tmp/ntbea-java bash benches/compare_java_ntbea.sh 5
EOF
  exit 0
fi

src=""
for d in "$NTBEA_JAVA/java/src" "$NTBEA_JAVA/src" "$NTBEA_JAVA"; do
  if [ -f "$d/ntbea/NTupleBanditEA.java" ]; then src=$d; break; fi
done
if [ -z "$src" ]; then
  echo "compare_java_ntbea.sh: no ntbea/NTupleBanditEA.java under $NTBEA_JAVA (java/src, src or itself)" >&2
  exit 1
fi
for tool in javac java python3; do
  command -v "$tool" >/dev/null || { echo "compare_java_ntbea.sh: $tool not found" >&2; exit 1; }
done

P=${PLAYTUNE:-target/release/playtune}
if [ ! -x "$P" ]; then
  cargo build --release -q
fi
# NTBEA's own cost, timed in one process as the Java driver times the reference's.
OWN=${NTBEA_RUNS:-target/release/examples/ntbea_runs}
if [ ! -x "$OWN" ]; then
  cargo build --release -q --example ntbea_runs
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
javac -nowarn -d "$out/classes" -sourcepath "$src" benches/java/NtbeaBench.java
compiled=$(cd "$out/classes" && find . -name '*.class' ! -name 'NtbeaBench.class' | sed 's|^\./||; s|\.class$||; s|/|.|g' | sort | tr '\n' ' ')

if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
  pin=(taskset -c 0); pinned="one core (taskset -c 0)"
else
  pin=(); pinned="not pinned (no taskset)"
fi

ref_flags=(--tuples 1+2+N --k 5 --k-absolute --epsilon 0.5 --neighbours 50 --mutation 2 --recommend evaluated)
now() { date +%s.%N; }

echo "Java NTBEA against playtune, $rounds alternating rounds of $runs runs a side, $pinned"
echo "reference: $src ($(git -C "$NTBEA_JAVA" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
echo "compiled from it: $compiled"
echo "playtune: $P ($(git rev-parse --short HEAD 2>/dev/null || echo '?') checkout)"
echo
printf '%-5s %-14s %-7s %12s %12s %8s %8s\n' round problem side "ms/run" "in-process" success "mean f"
for r in $(seq 1 "$rounds"); do
  for pb in "20 500" "10 200"; do
    read -r dims budget <<<"$pb"
    label="D=$dims B=$budget"
    t0=$(now)
    line=$("${pin[@]}" java -cp "$out/classes" NtbeaBench "$dims" "$budget" "$runs" "$r" 1 5 0.5 50)
    t1=$(now)
    python3 - "$r" "$dims" java "$t0" "$t1" "$runs" "$line" >>"$out/rows.tsv" <<'PY'
import json, sys
r, dims, side, t0, t1, runs, line = sys.argv[1:]
j = json.loads(line)
wall = (float(t1) - float(t0)) * 1000 / int(runs)
print(r, dims, side, wall, j["mean_ms"], j["success_share"], j["mean_true_fitness"], sep="\t")
PY
    for side in pt-ref pt-def; do
      flags=()
      [ "$side" = pt-ref ] && flags=("${ref_flags[@]}")
      t0=$(now)
      line=$(RAYON_NUM_THREADS=1 "${pin[@]}" "$P" optimize --problem noisy-onemax --set dims="$dims" \
        --set sigma=1 --budget "$budget" --trials "$runs" --seed "$r" --no-log -q --json \
        --runs-dir "$out/runs" "${flags[@]}" | tail -n 1)
      t1=$(now)
      python3 - "$r" "$dims" "$side" "$t0" "$t1" "$runs" "$line" >>"$out/rows.tsv" <<'PY'
import json, sys
r, dims, side, t0, t1, runs, line = sys.argv[1:]
j = json.loads(line)
wall = (float(t1) - float(t0)) * 1000 / int(runs)
print(r, dims, side, wall, j["seconds"] * 1000 / int(runs), j["success_rate"], j["mean_final_value"], sep="\t")
PY
    done
    for side in own-ref own-def; do
      settings=defaults
      [ "$side" = own-ref ] && settings=reference
      t0=$(now)
      line=$("${pin[@]}" "$OWN" "$dims" "$budget" "$runs" "$r" "$settings")
      t1=$(now)
      python3 - "$r" "$dims" "$side" "$t0" "$t1" "$runs" "$line" >>"$out/rows.tsv" <<'PY'
import json, sys
r, dims, side, t0, t1, runs, line = sys.argv[1:]
j = json.loads(line)
wall = (float(t1) - float(t0)) * 1000 / int(runs)
print(r, dims, side, wall, j["mean_ms"], j["success_share"], j["mean_true_fitness"], sep="\t")
PY
    done
    tail -n 5 "$out/rows.tsv" | while IFS=$'\t' read -r _ _ side wall inproc succ meanf; do
      printf '%-5s %-14s %-7s %12.2f %12.2f %8.2f %8.2f\n' "$r" "$label" "$side" "$wall" "$inproc" "$succ" "$meanf"
    done
  done
done

echo
python3 - "$out/rows.tsv" "$rounds" "$runs" <<'PY'
import statistics as st, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
rounds, runs = sys.argv[2], sys.argv[3]
print(f"medians over {rounds} rounds (ms a run; success pooled over all {int(rounds) * int(runs)} runs a side)")
print(f"{'problem':<14} {'side':<7} {'ms/run':>9} {'in-process':>11} {'success':>8} {'mean f':>7}")
med = {}
for dims, budget in (("20", 500), ("10", 200)):
    for side in ("java", "pt-ref", "pt-def", "own-ref", "own-def"):
        rs = [r for r in rows if r[1] == dims and r[2] == side]
        wall = st.median(float(r[3]) for r in rs)
        inproc = st.median(float(r[4]) for r in rs)
        succ = sum(float(r[5]) for r in rs) / len(rs)
        meanf = sum(float(r[6]) for r in rs) / len(rs)
        med[dims, side] = (wall, inproc)
        print(f"{'D=' + dims + ' B=' + str(budget):<14} {side:<7} {wall:>9.2f} {inproc:>11.2f} {succ:>8.3f} {meanf:>7.2f}")
print()
print("ratios java / playtune, of the medians (in-process: the JVM's own mean over playtune's `seconds`)")
for dims, budget in (("20", 500), ("10", 200)):
    for side, what in (("pt-ref", "the reference's settings"), ("pt-def", "playtune's defaults")):
        jw, ji = med[dims, "java"]
        pw, pi = med[dims, side]
        print(f"  D={dims} B={budget}, {what:<25} {jw / pw:6.1f}x   (in-process {ji / pi:.1f}x)")
print()
print("NTBEA's own cost: the JVM's own mean over playtune's in-process mean without the")
print("convergence curve (examples/ntbea_runs.rs; neither side's process start)")
for dims, budget in (("20", 500), ("10", 200)):
    for side, what in (("own-ref", "the reference's settings"), ("own-def", "playtune's defaults")):
        ji = med[dims, "java"][1]
        oi = med[dims, side][1]
        print(f"  D={dims} B={budget}, {what:<25} {ji / oi:6.1f}x")
PY
echo
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')   nproc: $(nproc)   java: $(java -version 2>&1 | head -n 1)"
