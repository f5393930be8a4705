//! A toy of each pluggable kind, written here, outside the crate, as a user's own
//! crate would write it: a problem searched into a run folder, an optimiser driven by
//! ask and tell, a game with an agent declared once (`GenericAgent`), and an
//! experiment declared once (`ExperimentDef`) run on an executor. What needs a line in
//! the crate's own registries (the command line's `--problem`, `--algo`, `experiment`
//! names) is in docs/layout.md; this test proves the declarations themselves are open.

use playtune::eval::Problem;
use playtune::game::{Acting, Agent, Game};
use playtune::harness::agents::GenericAgent;
use playtune::harness::{AgentEntry, DynGame, GameDef, GameRequest, Setting, Values};
use playtune::optim::{Candidate, Optimizer, Phase, Recommendation};
use playtune::rng::Rng;
use playtune::run::{ProblemSpec, RunConfig};
use playtune::{AlgoConfig, Dimension, Domain, EvalError, Evaluation, Space};
use rand::RngExt;
use tempfile::TempDir;

fn bits(n: usize) -> Space {
    Space {
        name: "toy".into(),
        dims: (0..n)
            .map(|i| Dimension {
                name: format!("b{i}"),
                domain: Domain::Bool,
                default: 0,
                fixed: false,
            })
            .collect(),
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

/// A problem: how many bits are set, with a little noise from the seed.
struct Ones(Space);

impl Problem for Ones {
    fn space(&self) -> &Space {
        &self.0
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let noise = (seed % 7) as f64 * 0.01;
        Ok(Evaluation::fitness(x.iter().sum::<f64>() + noise))
    }
}

#[test]
fn a_problem_of_ones_own_is_searched_into_a_run_folder() {
    let dir = TempDir::new().unwrap();
    let problem = Ones(bits(6));
    let config = RunConfig {
        playtune_version: "test".into(),
        problem: ProblemSpec {
            name: "ones".into(),
            settings: Default::default(),
        },
        space: problem.space().clone(),
        space_file: None,
        algorithm: AlgoConfig::Ntbea(Default::default()),
        budget: 120,
        trials: 2,
        seed: 3,
        log: true,
        faults: Default::default(),
        race: None,
        verdict: None,
        game: None,
    };
    let run = dir.path().join("ones");
    playtune::run::create_run_dir(&run, &config).unwrap();
    let result = playtune::run::execute(Some(&run), &config, &problem, None).unwrap();
    assert_eq!(result.trials.len(), 2);
    for f in ["config.ron", "evals.csv", "result.ron"] {
        assert!(run.join(f).exists(), "{f}");
    }
    // NTBEA at its defaults finds all six ones in 120 noisy evaluations.
    for t in &result.trials {
        assert_eq!(t.values, vec![1.0; 6], "trial {}", t.trial);
    }
}

/// An optimiser: every point of a small space in turn, then the best one seen.
struct Sweep {
    space: Space,
    next: u64,
    best: Option<(f64, Vec<f64>)>,
}

impl Optimizer for Sweep {
    fn ask(&mut self) -> Vec<Candidate> {
        let n = self.space.dims.len() as u32;
        if self.next >= 1 << n {
            return Vec::new();
        }
        let values = (0..n).map(|i| ((self.next >> i) & 1) as f64).collect();
        self.next += 1;
        vec![Candidate {
            values,
            phase: Phase::Search,
        }]
    }
    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        for (c, r) in asked.iter().zip(results) {
            if let Some(e) = r
                && self.best.as_ref().is_none_or(|(f, _)| e.fitness > *f)
            {
                self.best = Some((e.fitness, c.values.clone()));
            }
        }
    }
    fn recommend(&self) -> Recommendation {
        let (estimate, values) = self.best.clone().unwrap_or_default();
        Recommendation {
            values,
            estimate,
            se: 0.0,
            samples: 1,
        }
    }
}

#[test]
fn an_optimiser_of_ones_own_runs_by_ask_and_tell() {
    let problem = Ones(bits(4));
    let mut sweep = Sweep {
        space: bits(4),
        next: 0,
        best: None,
    };
    let mut asked_total = 0;
    loop {
        let asked = sweep.ask();
        if asked.is_empty() {
            break;
        }
        asked_total += asked.len();
        let told: Vec<_> = asked
            .iter()
            .map(|c| problem.evaluate(&c.values, 0).ok())
            .collect();
        sweep.tell(&asked, &told);
    }
    assert_eq!(asked_total, 16);
    assert_eq!(sweep.recommend().values, vec![1.0; 4]);
}

/// A game: a pile of `stones`; each turn a player takes 1 to 3; whoever takes the
/// last wins.
#[derive(Clone, Debug)]
struct Pile {
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
        (0..2)
            .map(|p| self.last == Some(p) && self.stones == 0)
            .collect()
    }
}

/// An agent written against any game and declared once: it plays the `nth` legal
/// action (counting from 0, wrapping), the first one by default.
struct Nth(usize);

impl<G: Game> Agent<G> for Nth {
    fn name(&self) -> String {
        format!("nth({})", self.0)
    }
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let mut legal = Vec::new();
        if state.legal_actions(player, &mut legal) && !legal.is_empty() {
            let i = self.0 % legal.len();
            return legal.swap_remove(i);
        }
        state
            .random_action(player, rng)
            .expect("the game offers an action")
    }
}

struct NthDecl;

impl GenericAgent for NthDecl {
    const NAME: &'static str = "nth";
    const ABOUT: &'static str = "the nth legal action";
    fn settings() -> Vec<Setting> {
        vec![Setting::new("nth", "0", "which legal action, from 0")]
    }
    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, playtune::harness::Error> {
        Ok(Box::new(Nth(v.whole("nth")?)))
    }
}

struct PileDef;

impl GameDef for PileDef {
    type State = Pile;
    fn name(&self) -> &'static str {
        "pile"
    }
    fn title(&self) -> &'static str {
        "Pile"
    }
    fn about(&self) -> &'static str {
        "take the last stone"
    }
    fn settings(&self) -> Vec<Setting> {
        vec![Setting::new("stones", "10", "stones at the start")]
    }
    fn new_state(&self, s: &Values, _: u64) -> Result<Pile, playtune::harness::Error> {
        Ok(Pile {
            stones: s.count("stones")? as u32,
            turn: 0,
            last: None,
        })
    }
    fn agents(&self) -> Vec<AgentEntry<Pile>> {
        // The declaration offered by this game: one entry, built from it.
        vec![AgentEntry::own(
            &[NthDecl::NAME],
            NthDecl::ABOUT,
            NthDecl::settings(),
            |v, _| NthDecl::build::<Pile>(v),
        )]
    }
    fn default_agents(&self, _: &Values) -> Result<Vec<String>, playtune::harness::Error> {
        Ok(vec!["nth".into(), "random".into()])
    }
    fn ended_by_rules(&self, state: &Pile) -> bool {
        state.stones == 0
    }
}

static PILE: PileDef = PileDef;

#[test]
fn an_agent_declared_outside_the_crate_plays_by_name_with_its_settings() {
    let game: &dyn DynGame = &PILE;
    let request = |agents: &[&str]| GameRequest {
        settings: vec![("stones".into(), "7".into())],
        agents: agents.iter().map(|a| a.to_string()).collect(),
        budget: None,
        seed: 5,
    };
    // It plays by name, with its setting, in a tournament.
    let r = game
        .tournament(&request(&["nth(nth=2)", "nth"]), 4)
        .unwrap();
    assert_eq!(r.agents.len(), 2);
    assert!(r.agents[0].games >= 4);
    // Two first-action players on 7 stones: 7 turns, the one who moves first wins.
    let record = game.play(&request(&["nth", "nth"])).unwrap();
    assert_eq!(record.length, 7);
    // A setting it does not declare is refused, naming it and the agent.
    let e = game
        .play(&request(&["nth(nht=1)", "random"]))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("nht") && e.contains("agent `nth`"), "{e}");
    // The generic agents are there too.
    assert!(
        game.play(&request(&["osla", "mcts(iterations=20)"]))
            .is_ok()
    );
}
