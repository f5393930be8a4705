//! A small game defined here, outside the crate (a race to a target), designed through
//! the library's generic `design` problem as a new game's author would.

use playtune::eval::Problem;
use playtune::game::{Acting, Game};
use playtune::harness::design::{DesignConfig, DesignProblem};
use playtune::harness::{AgentEntry, DynGame, GameDef, Setting, Values};
use playtune::rng::Rng;
use playtune::space::{Dimension, Domain, Space};
use rand::RngExt;

/// Race to a target: two players take turns adding 1 to `max_step` to their own total;
/// whoever lands exactly on `target` wins, and overshooting sends a total back to 0.
/// After `max_turns` steps the game stops with no winner. Landing exactly takes aim,
/// so a one-step look-ahead beats a random player, by how much depends on the rules.
#[derive(Clone, Debug)]
struct Race {
    totals: [u32; 2],
    target: u32,
    max_step: u32,
    max_turns: u32,
    turn: u32,
}

impl Game for Race {
    type Action = u32;
    fn num_players(&self) -> usize {
        2
    }
    fn acting(&self) -> Acting {
        Acting::Player((self.turn % 2) as usize)
    }
    fn is_over(&self) -> bool {
        self.totals.contains(&self.target) || self.turn >= self.max_turns
    }
    fn step_count(&self) -> u32 {
        self.turn
    }
    fn random_action(&self, _: usize, rng: &mut Rng) -> Option<u32> {
        Some(rng.random_range(1..=self.max_step))
    }
    fn legal_actions(&self, _: usize, out: &mut Vec<u32>) -> bool {
        out.clear();
        out.extend(1..=self.max_step);
        true
    }
    fn advance(&mut self, actions: &[u32]) {
        let p = (self.turn % 2) as usize;
        let next = self.totals[p] + actions[0];
        self.totals[p] = if next > self.target { 0 } else { next };
        self.turn += 1;
    }
    fn score(&self, player: usize) -> f64 {
        f64::from(self.totals[player])
    }
    fn winners(&self) -> Vec<bool> {
        self.totals.iter().map(|&t| t == self.target).collect()
    }
}

struct RaceDef;

impl GameDef for RaceDef {
    type State = Race;
    type Rules = Values;
    fn name(&self) -> &'static str {
        "race"
    }
    fn title(&self) -> &'static str {
        "Race"
    }
    fn about(&self) -> &'static str {
        "land exactly on the target"
    }
    fn settings(&self) -> Vec<Setting> {
        vec![
            Setting::new("target", "12", "the total that wins"),
            Setting::new("max_step", "3", "the most a turn adds"),
            Setting::new("max_turns", "60", "steps before the game stops"),
        ]
    }
    // The settings as read are all its rules: it reads them as it sets a game up.
    fn rules(&self, s: &Values) -> Result<Values, playtune::harness::Error> {
        Ok(s.clone())
    }

    fn new_state(&self, s: &Values, _seed: u64) -> Result<Race, playtune::harness::Error> {
        Ok(Race {
            totals: [0, 0],
            target: s.count("target")? as u32,
            max_step: s.count("max_step")?.max(1) as u32,
            max_turns: s.count("max_turns")? as u32,
            turn: 0,
        })
    }
    fn agents(&self) -> Vec<AgentEntry<Race>> {
        Vec::new()
    }
    fn default_agents(&self, _: &Values) -> Result<Vec<String>, playtune::harness::Error> {
        Ok(vec!["random".into(), "osla".into()])
    }
    fn ended_by_rules(&self, state: &Race) -> bool {
        state.totals.contains(&state.target)
    }
}

static RACE: RaceDef = RaceDef;

fn race_space() -> Space {
    let int = |name: &str, min, max, default| Dimension {
        name: name.into(),
        domain: Domain::Int { min, max, step: 1 },
        default,
        fixed: false,
    };
    Space {
        name: "race-rules".into(),
        dims: vec![int("target", 4, 30, 8), int("max_step", 1, 6, 2)],
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

fn race_design(games: usize) -> DesignProblem {
    let game: &'static dyn DynGame = &RACE;
    DesignProblem::new(
        game,
        DesignConfig {
            ladder: vec!["random".into(), "osla(budget=20)".into()],
            games,
            budget: None,
            settings: Vec::new(),
            metrics: true,
            playable: false,
        },
        Some(&race_space()),
    )
    .unwrap()
}

#[test]
fn a_game_defined_outside_the_crate_is_designed_through_the_generic_problem() {
    let problem = race_design(60);
    let names = problem.feature_names();
    assert_eq!(names[..2], ["win_rate_0_random", "win_rate_1_osla"]);
    assert!(names.contains(&"ended_by_rules".to_string()));
    let space = problem.space().clone();
    let at = |target: f64, step: f64| -> Vec<f64> {
        let mut x = space.decode(&space.default_indices());
        x[0] = target;
        x[1] = step;
        x
    };
    // With steps of 1 there is nothing to aim: both players land on the target in the
    // same number of turns and the first to move wins, whoever it is. With steps up
    // to 6 and a far target, aim decides: the look-ahead player wins far more often.
    let flat = problem.evaluate(&at(8.0, 1.0), 3).unwrap();
    let deep = problem.evaluate(&at(25.0, 6.0), 3).unwrap();
    assert!(
        flat.fitness.abs() < 0.2,
        "steps of 1: depth {}",
        flat.fitness
    );
    assert!(deep.fitness > 0.3, "aim matters: depth {}", deep.fitness);
    // Same seed, same evaluation; the metrics are shares where they should be.
    assert_eq!(problem.evaluate(&at(25.0, 6.0), 3).unwrap(), deep);
    let metric = |e: &playtune::eval::Evaluation, name: &str| {
        e.features[names.iter().position(|n| n == name).unwrap()]
    };
    assert!((0.0..=1.0).contains(&metric(&deep, "ended_by_rules")));
    // Steps of 1 to 8: every game ends on the target within 60 turns.
    assert_eq!(metric(&flat, "ended_by_rules"), 1.0);
    assert!(
        metric(&flat, "seat_advantage") > 0.9,
        "the first mover always wins"
    );

    // An optimiser over the space finds rules deeper than the flat ones.
    let config = playtune::run::RunConfig {
        playtune_version: "test".into(),
        problem: playtune::run::ProblemSpec {
            name: "race-design".into(),
            settings: Default::default(),
        },
        space: space.clone(),
        space_file: None,
        algorithm: playtune::optim::AlgoConfig::Ntbea(Default::default()),
        budget: 40,
        trials: 1,
        seed: 9,
        log: false,
        faults: Default::default(),
        race: None,
        intensify: None,
        verdict: None,
        game: None,
    };
    let small = race_design(20);
    let result = playtune::run::execute_with(None, &config, &small, Default::default()).unwrap();
    let best = &result.trials[0].values;
    let truth = race_design(200).evaluate(best, 77).unwrap().fitness;
    assert!(
        truth > 0.25,
        "the recommended rules {best:?} have depth {truth}"
    );
}

#[test]
fn a_design_point_names_settings_the_game_does_not_have() {
    let mut space = race_space();
    space.dims[1].name = "speed".into();
    let game: &'static dyn DynGame = &RACE;
    let err = DesignProblem::new(
        game,
        DesignConfig {
            ladder: vec!["random".into(), "osla".into()],
            games: 4,
            budget: None,
            settings: Vec::new(),
            metrics: true,
            playable: false,
        },
        Some(&space),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.contains("`speed` is not a setting of game `race`"),
        "{err}"
    );
    assert!(err.contains("target, max_step, max_turns"), "{err}");
}

/// The weakest rung is not played: its result is its share of a game among equals.
/// The rungs share seeds, and an evaluation reports its depth's standard error.
#[test]
fn the_weakest_rung_is_known_and_the_depth_has_a_standard_error() {
    let problem = race_design(40);
    let names = problem.feature_names();
    assert_eq!(
        names[..3],
        ["win_rate_0_random", "win_rate_1_osla", "skill_depth_se"]
    );
    let space = problem.space().clone();
    let mut x = space.decode(&space.default_indices());
    x[0] = 25.0;
    x[1] = 6.0;
    let mut largest: f64 = 0.0;
    for (seed, target) in (0..6).zip([25.0, 8.0, 10.0, 12.0, 6.0, 9.0]) {
        x[0] = target;
        let e = problem.evaluate(&x, seed).unwrap();
        assert_eq!(e.features[0], 0.5, "two players: the weakest rung's share");
        assert!((e.fitness - (e.features[1] - 0.5)).abs() < 1e-12);
        // The standard error of a rate over 40 games: at most 0.5 / sqrt(40).
        let se = e.features[2];
        assert!((0.0..=0.08).contains(&se), "se {se}");
        // Where the rate is r, the se is sqrt(r (1 - r) / 39) for wins of 0 or 1.
        let r = e.features[1];
        assert!(
            (se - (r * (1.0 - r) / 39.0).sqrt()).abs() < 1e-9,
            "se {se}, rate {r}"
        );
        largest = largest.max(se);
    }
    assert!(largest > 0.02, "some point is uncertain: {largest}");
    x[0] = 25.0;
    // A ladder naming the weakest agent twice knows both rungs without playing.
    let game: &'static dyn DynGame = &RACE;
    let twice = DesignProblem::new(
        game,
        DesignConfig {
            ladder: vec!["random".into(), "random".into(), "osla(budget=20)".into()],
            games: 10,
            budget: None,
            settings: Vec::new(),
            metrics: false,
            playable: false,
        },
        Some(&race_space()),
    )
    .unwrap();
    let e = twice.evaluate(&x, 1).unwrap();
    assert_eq!(e.features[..2], [0.5, 0.5]);
    assert_eq!(e.fitness, 0.0, "the first step is 0 by symmetry");
}
