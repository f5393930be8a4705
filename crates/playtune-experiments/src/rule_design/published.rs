//! The published rule-design study, as docs/results.md quotes it.

use super::{FreshRow, RuleDesignConfig};

/// docs/results.md quotes the published rule-design study as its files hold it.
#[test]
fn the_results_page_quotes_the_published_rule_design_study() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../runs/published/rule-design-rinascimento-full/fresh.ron"
    ))
    .unwrap();
    let (config, rows): (RuleDesignConfig, Vec<FreshRow>) = ron::from_str(&text).unwrap();
    assert_eq!(config.fresh_games, 1000);
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/results.md"
    ))
    .unwrap();
    let base = rows.iter().find(|r| r.trial.is_none()).unwrap();
    for r in &rows {
        let quoted = format!("{:.3} ± {:.3}", r.depth, r.depth_se);
        assert!(
            page.contains(&quoted),
            "docs/results.md lacks {quoted} ({})",
            r.source
        );
        assert!(r.feasible, "{}", r.source);
        if r.trial.is_some() {
            let z = (r.depth - base.depth) / (r.depth_se.powi(2) + base.depth_se.powi(2)).sqrt();
            assert!(
                page.contains(&format!("{z:+.1} se")),
                "docs/results.md lacks {z:+.1} se"
            );
        }
    }
}
