#!/usr/bin/env bash
# Adds a toy game crate in a test branch (a git worktree of HEAD, under a temporary
# folder) with the two edits outside it that docs/layout.md lists, then runs CI's own
# checks on it unchanged: the floors, the name search, clippy, and the command line
# playing it. Last, it shows the unchanged floors check refusing a toy that imports
# another game, and one that does not say its floor. Nothing here changes this
# checkout: the worktree and its branch are removed at the end.
#
#   bash scripts/check-new-game.sh
set -euo pipefail
cd "$(dirname "$0")/.."
here="$(pwd)"
tree="$(mktemp -d)/toy-branch"
branch="toy-game-check-$$"
git worktree add -q -b "$branch" "$tree" HEAD
cleanup() {
  git -C "$here" worktree remove --force "$tree" >/dev/null 2>&1 || true
  git -C "$here" branch -q -D "$branch" >/dev/null 2>&1 || true
}
trap cleanup EXIT
cd "$tree"
mkdir -p crates/playtune-toy/src
cat > crates/playtune-toy/Cargo.toml <<'TOML'
[package]
name = "playtune-toy"
version.workspace = true
edition.workspace = true
rust-version.workspace = true
description = "A toy game: a pile of stones, take 1 to 3, whoever takes the last wins."
license.workspace = true

[lints]
workspace = true

[dependencies]
playtune-optim = { workspace = true }
playtune-harness = { workspace = true }
rand = { workspace = true }

[package.metadata.playtune]
floor = 3
TOML
cat > crates/playtune-toy/src/lib.rs <<'RUST'
//! A toy game for the layout's check: a pile of stones; each turn a player takes 1 to
//! 3; whoever takes the last wins.

use playtune_harness::game::{Acting, Game};
use playtune_harness::{Error, GameDef, Setting, Values};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// The pile's state.
#[derive(Clone, Debug)]
pub struct Pile {
    stones: u32,
    turn: u32,
    last: Option<usize>,
}

impl Game for Pile {
    type Action = u32;
    fn num_players(&self) -> usize {
        2
    }
    fn acting(&self) -> Acting {
        Acting::Player((self.turn % 2) as usize)
    }
    fn is_over(&self) -> bool {
        self.stones == 0
    }
    fn step_count(&self) -> u32 {
        self.turn
    }
    fn random_action(&self, _: usize, rng: &mut Rng) -> Option<u32> {
        Some(rng.random_range(1..=self.stones.min(3)))
    }
    fn legal_actions(&self, _: usize, out: &mut Vec<u32>) -> bool {
        out.clear();
        out.extend(1..=self.stones.min(3));
        true
    }
    fn advance(&mut self, actions: &[u32]) {
        self.last = Some((self.turn % 2) as usize);
        self.stones -= actions[0].min(self.stones);
        self.turn += 1;
    }
    fn score(&self, player: usize) -> f64 {
        f64::from(self.last == Some(player))
    }
    fn winners(&self) -> Vec<bool> {
        (0..2).map(|p| self.last == Some(p) && self.stones == 0).collect()
    }
}

/// The game as the harness knows it.
pub struct Toy;

impl GameDef for Toy {
    type State = Pile;
    fn name(&self) -> &'static str {
        "toy"
    }
    fn title(&self) -> &'static str {
        "Toy"
    }
    fn about(&self) -> &'static str {
        "take the last stone"
    }
    fn settings(&self) -> Vec<Setting> {
        vec![Setting::new("stones", "10", "stones at the start")]
    }
    fn new_state(&self, s: &Values, _: u64) -> Result<Pile, Error> {
        Ok(Pile {
            stones: s.count("stones")? as u32,
            turn: 0,
            last: None,
        })
    }
    fn default_agents(&self, _: &Values) -> Result<Vec<String>, Error> {
        Ok(vec!["random".into(), "osla".into()])
    }
    fn ended_by_rules(&self, state: &Pile) -> bool {
        state.stones == 0
    }
}
RUST
# Edit 1 of 2: the root's dependency line.
sed -i 's/^playtune-strategy = { workspace = true }$/&\nplaytune-toy = { path = "crates\/playtune-toy" }/' Cargo.toml
# Edit 2 of 2: the registry's line.
sed -i 's/^    &crate::games::strategy::Strategy,$/&\n    \&playtune_toy::Toy,/' src/registry.rs
git add -A
echo "== edits outside the new crate:"
git diff --cached --stat -- . ':!crates/playtune-toy' ':!Cargo.lock'
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
echo "== CI's floors check, unchanged:"
python3 scripts/floors.py 2>&1 | grep -E "toy"
echo "== CI's name search, unchanged:"
python3 scripts/pub-names.py | grep -E "toy|workspace"
echo "== CI's clippy command:"
cargo clippy --release --all-targets -q -- -D warnings
echo "clippy: clean"
echo "== the command line knows it:"
cargo run --release -q -- games | grep -i toy
cargo run --release -q -- tournament --game toy --games 4 | tail -n 3
echo "== a toy that imports another game fails the unchanged floors check:"
sed -i 's/^rand = { workspace = true }$/&\nplaytune-strategy = { workspace = true }/' crates/playtune-toy/Cargo.toml
if python3 scripts/floors.py >/dev/null 2>/tmp/floors-$$.txt; then
  echo "not caught" >&2
  exit 1
fi
grep toy /tmp/floors-$$.txt
echo "== and one that does not say its floor:"
sed -i '/^playtune-strategy = { workspace = true }$/d; /^\[package.metadata.playtune\]/,$d' crates/playtune-toy/Cargo.toml
if python3 scripts/floors.py >/dev/null 2>/tmp/floors-$$.txt; then
  echo "not caught" >&2
  exit 1
fi
grep toy /tmp/floors-$$.txt
rm -f /tmp/floors-$$.txt
