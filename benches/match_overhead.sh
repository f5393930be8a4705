#!/usr/bin/env bash
# What the match protocol costs (docs/benchmarks.md): examples/duel played by its
# Python and JavaScript processes over the protocol, by the same rules in Rust in
# process, and by its Python class in process, on one thread. Two tables, each with
# its own baseline run in the same process: the Rust rules (cargo bench) and the Python
# process (the Python package, which must be installed: pip install ./python).
#
#   benches/match_overhead.sh [ROUNDS] [MATCHES] [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
MATCHES=${2:-4000}
PYTHON=${3:-python3}
export RAYON_NUM_THREADS=1
cargo bench --bench match_overhead -- "$ROUNDS" "$MATCHES" 2>/dev/null | tail -4
echo
if "$PYTHON" -c 'import playtune' 2>/dev/null; then
  "$PYTHON" benches/match_overhead.py "$ROUNDS" "$MATCHES"
else
  echo "the Python package is not installed for $PYTHON: pip install ./python"
fi
