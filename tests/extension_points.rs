//! A toy of each pluggable kind, written here, outside the crate, as a user's own
//! crate would write it: a problem searched into a run folder, an optimiser driven by
//! ask and tell and driving a run folder of its own, a game with an agent declared once (`GenericAgent`), and an
//! experiment declared once (`ExperimentDef`) run on an executor. What needs a line in
//! the crate's own registries (the command line's `--problem`, `--algo`, `experiment`
//! names) is in docs/layout.md; this test proves the declarations themselves are open.

use playtune::eval::Problem;
use playtune::game::{Acting, Agent, Game};
use playtune::harness::agents::GenericAgent;
use playtune::harness::{AgentEntry, AgentSpec, DynGame, GameDef, GameRequest, Setting, Values};
use playtune::optim::{Candidate, Optimizer, Phase, Recommendation};
use playtune::rng::Rng;
use playtune::run::verdict::{Outcome, VerdictSettings};
use playtune::run::{
    OwnOptimizer, ProblemSpec, RunConfig, RunError, RunOptimizer, Spent, Stop, create_run_dir,
    execute_own, resume_own,
};
use playtune::{AlgoConfig, BoxError, Dimension, Domain, EvalError, Evaluation, Space};
use rand::RngExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
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
    let config = RunConfig::plain(
        ProblemSpec {
            name: "ones".into(),
            settings: Default::default(),
        },
        problem.space().clone(),
        AlgoConfig::Ntbea(Default::default()),
        120,
        2,
        3,
    );
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
            common: None,
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

/// What drives a run folder with [`Sweep`]: one sweep per trial. A sweep spends no
/// randomness, so the trial's seed goes unused.
struct Sweeping {
    /// Where each sweep starts: its settings, recorded in `config.ron`.
    from: u64,
}

impl RunOptimizer for Sweeping {
    fn name(&self) -> &str {
        "sweep"
    }
    fn settings(&self) -> String {
        format!("from={}", self.from)
    }
    fn build(&self, space: &Space, _: u64, _: u64) -> Result<Box<dyn Optimizer>, BoxError> {
        if space.dims.iter().any(|d| !matches!(d.domain, Domain::Bool)) {
            return Err("a sweep searches yes-or-no dimensions only".into());
        }
        Ok(Box::new(Sweep {
            space: space.clone(),
            next: self.from,
            best: None,
        }))
    }
}

/// Another optimiser of one's own, under another name: it may not resume a sweep's run.
struct Other;

impl RunOptimizer for Other {
    fn name(&self) -> &str {
        "other"
    }
    fn build(&self, space: &Space, budget: u64, seed: u64) -> Result<Box<dyn Optimizer>, BoxError> {
        Sweeping { from: 0 }.build(space, budget, seed)
    }
}

/// [`Ones`] that asks its run to stop after `after` evaluations.
struct Stopping<'a> {
    ones: &'a Ones,
    stop: &'a Stop,
    after: u64,
    done: AtomicU64,
}

impl Problem for Stopping<'_> {
    fn space(&self) -> &Space {
        self.ones.space()
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        if self.done.fetch_add(1, Ordering::SeqCst) + 1 >= self.after {
            self.stop.after_batch();
        }
        self.ones.evaluate(x, seed)
    }
}

/// A run of [`Sweeping`] over `space`: two trials of every point, judged against all
/// zeros.
fn sweep_config(space: &Space, sweeping: &Sweeping) -> RunConfig<OwnOptimizer> {
    RunConfig {
        playtune_version: "test".into(),
        problem: ProblemSpec {
            name: "ones".into(),
            settings: Default::default(),
        },
        space: space.clone(),
        space_file: None,
        algorithm: OwnOptimizer::of(sweeping),
        budget: 1 << space.dims.len(),
        trials: 2,
        seed: 3,
        log: true,
        faults: Default::default(),
        race: None,
        intensify: None,
        verdict: Some(VerdictSettings {
            evaluations: 12,
            baseline: Some(vec![0.0; space.dims.len()]),
            margin: None,
        }),
        game: None,
    }
}

fn text(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn an_optimiser_of_ones_own_drives_a_run_folder_and_resumes_it() {
    let root = TempDir::new().unwrap();
    let problem = Ones(bits(4));
    let sweeping = Sweeping { from: 0 };
    let config = sweep_config(problem.space(), &sweeping);

    // Never interrupted: config.ron names the optimiser, the log holds every
    // evaluation, the result its recommendation and verdict.
    let whole = root.path().join("whole");
    create_run_dir(&whole, &config).unwrap();
    let once = execute_own(&whole, &config, &problem, &sweeping, None).unwrap();
    let recorded: String = text(&whole, "config.ron").split_whitespace().collect();
    assert!(
        recorded.contains(r#"algorithm:Own(name:"sweep",settings:"from=0",),"#),
        "{recorded}"
    );
    assert_eq!(text(&whole, "evals.csv").lines().count(), 1 + 2 * 16);
    assert_eq!(once.algorithm, "sweep");
    // Every evaluation was the search's, none failed, none came from a log.
    assert_eq!(
        once.spent,
        Spent {
            search: 2 * 16,
            ..Spent::default()
        }
    );
    for t in &once.trials {
        assert_eq!(t.values, vec![1.0; 4], "trial {}", t.trial);
        let v = t.verdict.as_ref().expect("judged against all zeros");
        assert_eq!((v.evaluations, v.outcome), (12, Outcome::Better));
    }
    assert_eq!(
        playtune::run::read_result(&whole).unwrap().trials,
        once.trials
    );
    // The command line's reader names the optimiser rather than misreading the run.
    let e = playtune::run::read_config(&whole).unwrap_err();
    assert!(
        matches!(&e, RunError::OwnOptimizer { name, .. } if name == "sweep"),
        "{e}"
    );

    // Stopped after 5 evaluations, then resumed: the same files as the run never
    // interrupted, the evaluations logged before the stop told again, not repeated.
    let cut = root.path().join("cut");
    create_run_dir(&cut, &config).unwrap();
    let stop = Stop::default();
    let stopping = Stopping {
        ones: &problem,
        stop: &stop,
        after: 5,
        done: AtomicU64::new(0),
    };
    let e = execute_own(&cut, &config, &stopping, &sweeping, Some(&stop)).unwrap_err();
    assert!(matches!(e, RunError::Interrupted), "{e}");
    let logged = text(&cut, "evals.csv").lines().count() - 1;
    assert!((5..2 * 16).contains(&logged), "{logged} logged");
    assert!(!cut.join("result.ron").exists());
    let resumed = resume_own(&cut, &problem, &sweeping, None).unwrap();
    assert_eq!(
        resumed.spent,
        Spent {
            search: 2 * 16,
            reused: logged as u64,
            ..Spent::default()
        }
    );
    // What a run keeps of itself (not `reused`, which only this drive knows).
    let read = |dir: &Path| playtune::run::read_result(dir).unwrap().trials;
    assert_eq!(read(&cut), read(&whole));
    for f in ["evals.csv", "result.ron"] {
        assert_eq!(text(&cut, f), text(&whole, f), "{f}");
    }
    // verdict.jsonl is appended as each of the verdict's parallel evaluations finishes,
    // so its order is the threads'; its lines are the same measurements.
    let lines = |dir: &Path| {
        let mut l: Vec<String> = text(dir, "verdict.jsonl")
            .lines()
            .map(String::from)
            .collect();
        l.sort();
        l
    };
    assert_eq!(lines(&cut), lines(&whole));

    // Another optimiser, or the same with other settings, may not resume it: the log
    // replays only into the optimiser that wrote it.
    for (other, says) in [
        (
            &Other as &dyn RunOptimizer,
            "now given the optimiser `other`",
        ),
        (&Sweeping { from: 3 }, "settings `from=3`"),
    ] {
        let e = resume_own(&cut, &problem, other, None).unwrap_err();
        assert!(
            matches!(e, RunError::OtherOptimizer { .. })
                && e.to_string().contains(says)
                && e.to_string().contains("driven by the optimiser `sweep`"),
            "{e}"
        );
    }
    // Nor a run of one of playtune's own optimisers.
    let built_in = root.path().join("built-in");
    let mut ntbea = RunConfig::plain(
        config.problem.clone(),
        config.space.clone(),
        AlgoConfig::Ntbea(Default::default()),
        16,
        1,
        3,
    );
    create_run_dir(&built_in, &ntbea).unwrap();
    let e = resume_own(&built_in, &problem, &sweeping, None).unwrap_err();
    assert!(
        e.to_string()
            .contains("driven by playtune's own optimiser `ntbea`"),
        "{e}"
    );
    ntbea.trials = 2;
    create_run_dir(&built_in, &ntbea).unwrap();
    assert_eq!(playtune::run::read_config(&built_in).unwrap(), ntbea);
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
    type Rules = Values;
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
    // The settings as read are all its rules: it reads them as it sets a game up.
    fn rules(&self, s: &Values) -> Result<Values, playtune::harness::Error> {
        Ok(s.clone())
    }

    fn new_state(&self, s: &Values, _: u64) -> Result<Pile, playtune::harness::Error> {
        let stones = s.count("stones")?;
        if stones > MAX_STONES {
            return Err(playtune::harness::Error::Game(Box::new(
                PileError::TooHigh(stones),
            )));
        }
        Ok(Pile {
            stones: stones as u32,
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

/// The most stones a pile may hold: above it, the game's own error.
const MAX_STONES: usize = 1000;

/// The pile game's own error, carried by the harness as `harness::Error::Game`.
#[derive(Debug, thiserror::Error)]
enum PileError {
    #[error("a pile of {0} stones is too high to play")]
    TooHigh(usize),
}

/// A game's own error reaches its caller typed: `game_error` finds it under the
/// harness's context, whatever the harness was doing.
#[test]
fn a_games_own_error_reaches_its_caller_typed() {
    let game: &dyn DynGame = &PILE;
    let e = game
        .play(&GameRequest {
            settings: game
                .settings_values(&[("stones".into(), "5000".into())])
                .unwrap(),
            agents: AgentSpec::parse_all(&["nth", "nth"]).unwrap(),
            budget: None,
            seed: 1,
        })
        .unwrap_err();
    assert!(
        matches!(e.game_error::<PileError>(), Some(PileError::TooHigh(5000))),
        "{e}"
    );
    assert!(e.to_string().contains("5000 stones"), "{e}");
}

#[test]
fn an_agent_declared_outside_the_crate_plays_by_name_with_its_settings() {
    let game: &dyn DynGame = &PILE;
    let request = |agents: &[&str]| GameRequest {
        settings: game
            .settings_values(&[("stones".into(), "7".into())])
            .unwrap(),
        agents: AgentSpec::parse_all(agents).unwrap(),
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
