//! The published learned-evaluation run (runs/published/learned-eval-full) against the
//! code and the docs: the network still loads with the strategy game's encoding (a
//! change of features without a new encoding name fails here), and every score
//! docs/results.md quotes is the one in the run's files.

use super::{MatchRow, SpeedRow};
use playtune::learn::network::Network;
use std::path::Path;

const RUN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../runs/published/learned-eval-full"
);

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
fn the_results_page_quotes_the_published_tables() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results.md"
    ))
    .unwrap();
    let read = |name: &str| std::fs::read_to_string(Path::new(RUN).join(name)).unwrap();
    let matches: Vec<MatchRow> = ron::from_str(&read("matches.ron")).unwrap();
    assert_eq!(matches.len(), 6);
    for m in &matches {
        let quoted = format!("{:.3} ± {:.3}", m.score, m.se);
        assert!(
            page.contains(&quoted),
            "docs/results.md lacks {quoted} ({m:?})"
        );
    }
    let speed: Vec<SpeedRow> = ron::from_str(&read("speed.ron")).unwrap();
    for r in &speed {
        let quoted = format!("| {} |", r.evaluator);
        assert!(page.contains(&quoted));
        let in_search = format!("{:.0}", r.in_search);
        let with_commas = in_search
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join(",");
        assert!(
            page.contains(&with_commas),
            "docs/results.md lacks {with_commas} ({r:?})"
        );
    }
}

#[test]
fn the_published_tables_pass_the_checks_a_resumed_run_makes() {
    use super::{LearnedEvalConfig, check_match_rows, check_speed_rows};
    let read = |name: &str| std::fs::read_to_string(Path::new(RUN).join(name)).unwrap();
    let x = LearnedEvalConfig::full("learned-eval-full", 1);
    let mut matches: Vec<MatchRow> = ron::from_str(&read("matches.ron")).unwrap();
    check_match_rows(&x, &matches).unwrap();
    let speed: Vec<SpeedRow> = ron::from_str(&read("speed.ron")).unwrap();
    check_speed_rows(&speed).unwrap();
    // Counts that do not add up, or a score its counts do not give, are refused.
    matches[1].wins += 1;
    let e = check_match_rows(&x, &matches).unwrap_err();
    assert!(e.contains("row 1: wins"), "{e}");
    matches[1].wins -= 1;
    matches[4].score = 7.0;
    let e = check_match_rows(&x, &matches).unwrap_err();
    assert!(e.contains("row 4: score 7"), "{e}");
}
