//! The maps as pictures (the `draw` feature).

use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::rng_from_seed;
use playtune_strategy::bot::RuleBased;
use playtune_strategy::render::{Snapshot, game_map, level_map};
use playtune_strategy::*;

/// Snapshots of a rule-based mirror game on level `seed` at the starts of `turns`.
fn snapshots(seed: u64, turns: &[u16]) -> Vec<Snapshot> {
    let mut rng = rng_from_seed(seed);
    let (mut a, mut b) = (RuleBased, RuleBased);
    let mut s = StrategyState::from_seed(seed);
    let mut out = Vec::new();
    for &t in turns {
        while !s.is_over() && (s.turn() < t) {
            let p = s.current();
            let act = if p == 0 {
                a.act(&s, p, &mut rng)
            } else {
                b.act(&s, p, &mut rng)
            };
            s.advance(&[act]);
        }
        out.push(Snapshot {
            caption: format!("turn {}", s.turn() + 1),
            state: s.clone(),
        });
    }
    out
}

#[test]
fn maps_are_drawn_as_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let level = Level::generate(3, &LevelConfig::default()).unwrap();
    for ext in ["png", "svg"] {
        let path = dir.path().join(format!("level.{ext}"));
        level_map(&path, "level 3", &level).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    }
    let path = dir.path().join("game.svg");
    game_map(&path, "game", &snapshots(3, &[0, 6])).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("turn 7"));
    assert!(game_map(&dir.path().join("x.gif"), "x", &[]).is_err());
}

/// Writes the pictures of docs/strategy.md:
/// `cargo test --release -p playtune-strategy --features draw strategy_docs_pictures -- --ignored`.
#[test]
#[ignore]
fn strategy_docs_pictures() {
    let level = Level::generate(1, &LevelConfig::default()).unwrap();
    level_map(
        std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/img/strategy_level.png"
        )),
        "Training level 1",
        &level,
    )
    .unwrap();
    game_map(
        std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/img/strategy_game.png"
        )),
        "Rule-based bot against itself, level 2",
        &snapshots(2, &[0, 6, 12]),
    )
    .unwrap();
}
