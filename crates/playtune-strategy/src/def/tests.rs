use super::*;

const HPS_HEADER: &str = "// HPS's tuning grid in the strategy game (crates/playtune-strategy/src/def.rs), what\n// --problem strategy-hps and --problem tune-agent --set game=strategy --set agent=hps\n// search. With --set model=FILE, strategy-hps adds the category learned:FILE to leaf.\n";

fn hps_space() -> playtune_optim::space::Space {
    let spec = playtune_harness::AgentSpec::parse("hps").unwrap();
    let mut space = playtune_harness::tune::tuning_space(&Strategy, &spec).unwrap();
    space.name = "strategy-hps".into();
    space
}

#[test]
fn the_shipped_hps_space_is_the_agents_tuning_grid() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spaces/strategy_hps.ron"
    ))
    .unwrap();
    let file = format!(
        "{HPS_HEADER}{}",
        playtune_optim::space::to_space_file(&hps_space())
    );
    assert_eq!(text, file);
}

/// Writes the shipped space file:
/// `cargo test --release --lib export_strategy_hps_space -- --ignored`.
#[test]
#[ignore]
fn export_strategy_hps_space() {
    let text = format!(
        "{HPS_HEADER}{}",
        playtune_optim::space::to_space_file(&hps_space())
    );
    std::fs::write(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../spaces/strategy_hps.ron"),
        text,
    )
    .unwrap();
}

#[test]
fn weights_come_from_genomes_and_refuse_bad_ones() {
    let w = weights_setting("1/0/0.5/0/0/1/0/0/0/0/0.25").unwrap();
    assert_eq!(w.0[0], 1.0);
    assert_eq!(w.0[10], 0.25);
    assert_eq!(w.0[11], 0.5, "scripts beyond the genome keep 0.5");
    assert!(
        weights_setting("1/0")
            .unwrap_err()
            .to_string()
            .contains("11 genome weights")
    );
    assert!(weights_setting("1/0/0.5/0/0/1/0/0/0/0/2").is_err());
    assert!(weights_setting("/no/such/file.ron").is_err());
    assert_eq!(
        weights_setting("default").unwrap().0,
        vec![0.5; SCRIPTS.len()]
    );
}

#[test]
fn levels_come_from_their_sets() {
    assert!(training_levels().contains(&LevelChoice::parse("training").unwrap().seed(12345)));
    assert!(validation_levels().contains(&LevelChoice::parse("validation").unwrap().seed(7)));
    assert_eq!(LevelChoice::parse("42").unwrap().seed(7), 42);
    assert!(LevelChoice::parse("nowhere").is_err());
}

#[test]
fn rule_settings_default_to_the_published_rules_and_the_file_matches() {
    let space = rules_space();
    assert!(space.len() >= 15);
    let defaults: Vec<(String, String)> = space.render(&space.decode(&space.default_indices()));
    let values =
        playtune_harness::Values::new("the strategy game", &Strategy.settings(), &defaults)
            .unwrap();
    let (game, _) = configs(&values).unwrap();
    assert!(
        std::ptr::eq(game.rules, &DEFAULT_RULES),
        "the defaults are the published rules"
    );
    let file = playtune_optim::space::load_space(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spaces/strategy_rules.ron"
    )))
    .unwrap();
    assert_eq!(file, space);
    // A rule changed is a rule set of its own, shared by every game under it.
    let mut changed = defaults.clone();
    changed[0].1 = "7".into();
    let values =
        playtune_harness::Values::new("the strategy game", &Strategy.settings(), &changed).unwrap();
    let (a, _) = configs(&values).unwrap();
    let (b, _) = configs(&values).unwrap();
    assert!(std::ptr::eq(a.rules, b.rules));
    assert_eq!(a.rules.unit(UnitKind::Warrior).cost, 7);
    // Out of range: refused, naming the rule.
    changed[0].1 = "0".into();
    let values =
        playtune_harness::Values::new("the strategy game", &Strategy.settings(), &changed).unwrap();
    let e = configs(&values).unwrap_err();
    assert!(matches!(&e, Error::Value { name, .. } if name == "cost_warrior"));
    assert!(e.to_string().contains("cost_warrior=0"));
}
