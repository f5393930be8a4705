//! The agent registry builds every generic agent for a real game.

use playtune_harness::{AgentSpec, Generic, all_agents, build_agent};
use playtune_harness::{Error, Values};
use playtune_rinascimento::RinState;

#[test]
fn generic_defaults_build_the_agents_defaults() {
    let none = Values::new("game", &[], &[]).unwrap();
    let entries = all_agents::<RinState>(Vec::new());
    for g in Generic::ALL {
        let spec = AgentSpec::parse(g.name()).unwrap();
        assert!(
            build_agent("test", &entries, &spec, None, &none).is_ok(),
            "{g:?}"
        );
    }
    let bad = AgentSpec::parse("mcts(depht=3)").unwrap();
    let e = build_agent("test", &entries, &bad, None, &none)
        .err()
        .unwrap();
    assert!(matches!(e, Error::Setting(_)), "{e}");
    assert!(e.to_string().contains("no setting `depht`"), "{e}");
    let bad = AgentSpec::parse("osla(budget=-1)").unwrap();
    assert!(build_agent("test", &entries, &bad, None, &none).is_err());
    let e = build_agent(
        "test",
        &entries,
        &AgentSpec::parse("hal").unwrap(),
        None,
        &none,
    );
    let e = e.err().unwrap();
    assert!(matches!(&e, Error::UnknownAgent { name, .. } if name == "hal"));
    assert!(e.to_string().contains("unknown test agent `hal`"));
}
