//! The command line selects Rinascimento's rules preset (issue 15, part 4); the
//! statistical test of the `reference` preset itself is the game crate's
//! (`crates/playtune-rinascimento/tests/reference.rs`).

/// The command line selects the preset: `tournament --rules`, and the problems'
/// `--set rules=`; the JSON carries the length statistics.
#[test]
fn command_line_selects_the_reference_rules() {
    use predicates::prelude::*;
    let tournament = |rules: &str| -> serde_json::Value {
        let out = crate::common::playtune()
            .args(["tournament", "--games", "2000", "--seed", "3", "--json"])
            .args(["--rules", rules])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8_lossy(&out);
        serde_json::from_str(text.lines().last().unwrap()).unwrap()
    };
    let (spec, reference) = (tournament("spec"), tournament("reference"));
    assert_eq!(spec["rules"], "spec");
    assert_eq!(reference["rules"], "reference");
    let get = |j: &serde_json::Value, k: &str| j[k].as_f64().unwrap();
    for k in [
        "mean_length_stalemated",
        "mean_length_finished",
        "share_under_100",
        "share_160_plus",
        "min_length",
        "max_length",
    ] {
        assert!(get(&spec, k) > 0.0 && get(&reference, k) > 0.0, "{k}");
    }
    // 2000 games: the stalemated games' lengths differ by some 15 actions, about 6 se.
    assert!(get(&reference, "mean_length_stalemated") > get(&spec, "mean_length_stalemated") + 6.0);
    assert!(get(&reference, "sd_length") < get(&spec, "sd_length") - 2.0);
    crate::common::playtune()
        .args(["tournament", "--rules", "java"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("spec, reference"));
    crate::common::playtune()
        .args([
            "optimize",
            "--problem",
            "rinascimento-rules",
            "--set",
            "rules=java",
        ])
        .args(["--budget", "1", "--no-log", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("rules=java"));
}
