#!/usr/bin/env bash
# The Slurm executor against the local one, in one sitting on one machine: a slice of
# the Space Battle medium preset (its settings and seed, --trials T of each algorithm:
# 3T work items) run locally, then through the one-node test cluster declaring 1, 2, 4
# and 8 CPUs (scripts/slurm-test-cluster.sh restarts it for each; past the real cores,
# tasks share them, so wall time is bounded by the machine and what is measured is the
# array spreading and the executor's own cost).
#
# Per CPU count it prints: wall time and its ratio to the local run; tasks in flight at
# once (the most, and the mean over the run: the sum of the tasks' own work time over
# the wall time); the executor's cost (planning, sbatch, collection and the summary
# replay) per task, and as a share of a task's work here and at the paper preset's task
# size (TASK_SECONDS, measured from the published paper run's evaluation rate, see
# below); and whether summary.ron is byte-identical to the local run's.
#
# Usage: benches/slurm_scaling.sh [TRIALS] [path/to/playtune]   (default: 2, target/release/playtune)
# Needs root (or sudo) for the test cluster. Leaves the cluster stopped.
set -euo pipefail
T=${1:-2}
P=$(realpath "${2:-target/release/playtune}")
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"; bash "$here/scripts/slurm-test-cluster.sh" stop' EXIT
export SLURM_CONF=${PLAYTUNE_SLURM_DIR:-/tmp/playtune-slurm}/slurm.conf
args=(experiment space-battle --preset medium --trials "$T" --name slice -q)

start=$(date +%s.%N)
"$P" "${args[@]}" --runs-dir "$out/local" --plots-dir "$out/plots" >/dev/null
local_s=$(python3 -c "print($(date +%s.%N) - $start)")

echo "Space Battle medium preset, --trials $T ($((3 * T)) work items), $(nproc) real cores, $(date -u +%F)"
printf "local executor: %.0f s\n" "$local_s"
echo
echo "| CPUs declared | wall s | wall / local | most in flight | mean in flight | executor cost per task, s | share of a task here | share of a paper-size task | summary.ron |"
echo "|---|---|---|---|---|---|---|---|---|"
for cpus in 1 2 4 8; do
  bash "$here/scripts/slurm-test-cluster.sh" start "$cpus" >/dev/null 2>&1
  start=$(date +%s.%N)
  "$P" "${args[@]}" --runs-dir "$out/c$cpus" --plots-dir "$out/plots" --executor slurm --poll 1 \
    >/dev/null 2>"$out/c$cpus.err"
  wall=$(python3 -c "print($(date +%s.%N) - $start)")
  same=$(cmp -s "$out/local/slice/summary.ron" "$out/c$cpus/slice/summary.ron" && echo identical || echo DIFFERENT)
  python3 - "$out/c$cpus" "$out/c$cpus.err" "$wall" "$local_s" "$cpus" "$same" <<'PY'
import json, re, sys
home, err, wall, local, cpus, same = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
tasks = [json.loads(l) for l in open(f"{home}/slice/slurm/done.jsonl")]
work = sum(t["seconds"] for t in tasks)
events = sorted([(t["started_at"], 1) for t in tasks] + [(t["finished_at"], -1) for t in tasks])
most = now = 0
for _, d in events:
    now += d
    most = max(most, now)
m = re.search(r"cluster overhead: ([0-9.]+) s to plan and submit (\d+) task\(s\), ([0-9.]+) s to collect", open(err).read())
cost = (float(m.group(1)) + float(m.group(3))) / len(tasks)
# A paper-preset task: 100 search evaluations (B-RMHC: +95 pre-processing) and 100
# re-evaluations of three full games (2000 ticks, MCTS 175 iterations); the published
# paper run logged 29 to 39 evaluations a minute on 2 cores: about 3.5 core-seconds an
# evaluation, 200 evaluations a task: about 700 core-seconds.
paper_task = 700.0
print(f"| {cpus} | {wall:.0f} | {wall / local:.2f} | {most} | {work / wall:.2f} | {cost:.3f} | {100 * cost / (work / len(tasks)):.3f}% | {100 * cost / paper_task:.4f}% | {same} |")
PY
done
