//! The published learned-evaluation run (runs/published/learned-eval-full) against the
//! code and the README: the network still loads with the strategy game's encoding (a
//! change of features without a new encoding name fails here), and every score the
//! README quotes is the one in the run's files.

use playtune::experiments::learned_eval::{MatchRow, SpeedRow};
use playtune::learn::network::Network;
use std::path::Path;

const RUN: &str = "runs/published/learned-eval-full";

#[test]
fn the_published_network_fits_the_current_encoding() {
    let net = Network::load(&Path::new(RUN).join("strategy.evalnet")).unwrap();
    net.header
        .encoding
        .check_same(playtune::games::strategy::encoding::encoding(), "published")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(net.header.hidden, [512, 512]);
    let t = &net.header.training;
    assert!((t.validation_accuracy - 0.712).abs() < 5e-4, "{t:?}");
}

#[test]
fn the_readme_quotes_the_published_tables() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let read = |name: &str| std::fs::read_to_string(Path::new(RUN).join(name)).unwrap();
    let matches: Vec<MatchRow> = ron::from_str(&read("matches.ron")).unwrap();
    assert_eq!(matches.len(), 6);
    for m in &matches {
        let quoted = format!("{:.3} ± {:.3}", m.score, m.se);
        assert!(readme.contains(&quoted), "README lacks {quoted} ({m:?})");
    }
    let speed: Vec<SpeedRow> = ron::from_str(&read("speed.ron")).unwrap();
    for r in &speed {
        let quoted = format!("| {} |", r.evaluator);
        assert!(readme.contains(&quoted));
        let in_search = format!("{:.0}", r.in_search);
        let with_commas = in_search
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join(",");
        assert!(
            readme.contains(&with_commas),
            "README lacks {with_commas} ({r:?})"
        );
    }
}
