//! The built-in problems and games by name, with their settings (`--set NAME=VALUE`).
//! A new problem adds one entry to [`PROBLEMS`], a new game one line to [`GAMES`].

use crate::eval::{
    CommandProblem, ConstrainedOneMax, NoisyOneMax, NoisyPairs, NoisyTrap, NoisyWinRate, Problem,
    Sphere,
};
use crate::harness::DynGame;
use crate::run::ProblemSpec;
use crate::space::Space;
use std::collections::BTreeMap;

/// Every game `playtune play`, `tournament`, `render` and `games` know. A game is a
/// folder under `src/games/` with a [`crate::harness::GameDef`]; listing it here is
/// all the command line needs.
pub const GAMES: &[&dyn DynGame] = &[
    &crate::games::space_battle::SpaceBattle,
    &crate::games::rinascimento::Rinascimento,
    &crate::games::strategy::Strategy,
];

/// Game settings written as `NAME=VALUE NAME=VALUE` (spaces between, since agent
/// lists take the commas), e.g. `players=2 rules=reference`.
fn game_settings(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split_whitespace()
        .map(|pair| {
            pair.split_once('=')
                .filter(|(k, _)| !k.is_empty())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("game_settings: `{pair}` is not NAME=VALUE"))
        })
        .collect()
}

/// Every agent's default forward-model budget from a problem setting: empty for each
/// agent's own.
fn agents_budget(text: &str) -> Result<Option<usize>, String> {
    match text.trim() {
        "" => Ok(None),
        b => Some(b.parse::<usize>().ok().filter(|&b| b > 0).ok_or_else(|| {
            format!("budget={b}: give a whole number of forward-model calls above 0, or leave it empty for each agent's own")
        }))
        .transpose(),
    }
}

/// The game called `name`, or a message listing the known ones.
pub fn game(name: &str) -> Result<&'static dyn DynGame, String> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.name() == name.trim())
        .ok_or_else(|| {
            let known: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
            format!("unknown game `{name}` (known: {})", known.join(", "))
        })
}

/// A problem's name, its settings with their defaults, and a one-line description.
pub type ProblemEntry = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

/// Every built-in problem.
pub const PROBLEMS: &[ProblemEntry] = &[
    (
        "noisy-onemax",
        &[("dims", "10"), ("sigma", "1"), ("scale", "1")],
        "count of ones plus Gaussian noise (all times scale); optimum all ones",
    ),
    (
        "constrained-onemax",
        &[("dims", "20"), ("sigma", "1"), ("cap", "0.7")],
        "count of ones plus noise, held to `load <= cap` (load: the share of ones); feasible optimum floor(cap x dims) ones",
    ),
    (
        "noisy-trap",
        &[
            ("dims", "5"),
            ("values", "4"),
            ("sigma", "1"),
            ("scale", "1"),
        ],
        "sum of values plus noise, the all-max point a trap worth 0",
    ),
    (
        "noisy-pairs",
        &[("dims", "12"), ("local", "0.8"), ("sigma", "0.5")],
        "bit pairs score 1 for 11, local for 00, 0 otherwise, plus noise; optimum all ones",
    ),
    (
        "noisy-winrate",
        &[
            ("dims", "6"),
            ("values", "2"),
            ("low", "0.2"),
            ("high", "0.8"),
        ],
        "each evaluation a win or a loss, won with probability low..high by the sum of values; optimum all top",
    ),
    (
        "ntbea-suite",
        &[("trials", "10")],
        "NTBEA's settings; fitness = mean success rate over a suite of noisy benchmarks (trials runs each)",
    ),
    (
        "sphere",
        &[("dims", "100")],
        "pyribs' sphere benchmark for MAP-Elites: objective in [0, 100], two measures",
    ),
    (
        "space-battle",
        &[
            ("ladder", "1sla,ras,mcts"),
            ("games", "1"),
            ("max_ticks", "2000"),
            ("mcts_iterations", "175"),
            ("mcts_depth", "10"),
            ("mcts_macro", "5"),
        ],
        "design on Space Battle Evolved with the NTBEA paper's defaults: min gap of T (Eq. 2-3) between ladder agents, weakest first, each flying ship 0 against ENEMY_ID's controller; mcts_* set every mcts rung",
    ),
    (
        "rinascimento-agent",
        &[
            ("agent", "bmrh"),
            ("players", "4"),
            ("opponents", "osla"),
            ("games", "1"),
            ("budget", "1000"),
            ("rules", "spec"),
        ],
        "tune-agent on Rinascimento with the paper's defaults: the agent (bmrh|srh|mcts, the spec's grids) against players-1 opponents, every agent at `budget` forward-model calls a decision",
    ),
    (
        "rinascimento-rules",
        &[
            ("ladder", "rnd,osla,mcts*"),
            ("games", "1"),
            ("budget", "1000"),
            ("rules", "spec"),
        ],
        "design on Rinascimento with the paper's defaults: skill depth of the ladder over the rule vector, each rung against the weakest, every agent at `budget` forward-model calls a decision",
    ),
    (
        "design",
        &[
            ("game", "rinascimento"),
            ("ladder", "random,osla,mcts"),
            ("games", "20"),
            ("budget", ""),
            ("game_settings", ""),
        ],
        "any game's skill depth over its settings: min gap between ladder rungs (weakest first), each rung's win rate against the weakest; features: rung win rates and design metrics",
    ),
    (
        "tune-agent",
        &[
            ("game", "rinascimento"),
            ("agent", "mcts"),
            ("opponents", "osla"),
            ("games", "20"),
            ("budget", ""),
            ("game_settings", ""),
        ],
        "any agent of any game against opponents: its tunable settings (from the agent registry) searched for the best mean score; features: score against each opponent, mean length",
    ),
    (
        "strategy-styles",
        &[
            ("levels", "2"),
            ("level_set", "training"),
            ("games", "5"),
            ("opponent", "mcts"),
            ("budget", "2000"),
            ("turns", "30"),
        ],
        "strategy play styles: P-MCTS(PU)'s 11 genome weights; win rate over levels x games against the opponent, features from the game logs",
    ),
    (
        "strategy-hps",
        &[
            ("games", "10"),
            ("opponent", "hps"),
            ("budget", "5000"),
            ("model", ""),
            ("turns", "30"),
        ],
        "tune-agent on the strategy game for HPS: search, depth, leaf (heuristic, playout, learned with model=FILE), partial-player caps; mean score against the opponent on levels drawn per game",
    ),
    (
        "manual",
        &[("features", "")],
        "points evaluated outside playtune: `playtune ask RUN` prints candidates as JSON lines, `playtune tell RUN` takes results (needs --space)",
    ),
    (
        "command",
        &[
            ("cmd", ""),
            ("features", ""),
            ("mode", "once"),
            ("workers", "cores"),
            ("timeout", "600"),
        ],
        "an external program (needs --space): mode=once runs it per evaluation, {\"seed\", \"point\"} JSON on stdin, fitness out; mode=worker keeps `workers` of them, one JSON line each way; each evaluation killed after `timeout` seconds",
    ),
];

/// A problem's settings: the user's values over the defaults, every name checked.
struct Settings<'a> {
    problem: &'a str,
    values: BTreeMap<String, String>,
}

impl Settings<'_> {
    fn get<T: std::str::FromStr>(&self, key: &str) -> Result<T, String> {
        let text = &self.values[key];
        text.parse().map_err(|_| {
            format!(
                "--set {key}={text}: `{text}` is not a valid {key} for problem `{}`",
                self.problem
            )
        })
    }
    /// A count from 1 to `max`: larger values would exhaust memory or time, or (as
    /// `max_ticks` once did) be cut silently to a smaller type.
    fn count(&self, key: &str, max: usize) -> Result<usize, String> {
        let text = &self.values[key];
        if text.parse::<i128>().is_err() {
            return self.get(key);
        }
        match text.parse::<usize>() {
            Ok(v) if (1..=max).contains(&v) => Ok(v),
            _ => Err(format!(
                "--set {key}={text}: problem `{}` takes {key} from 1 to {max}",
                self.problem
            )),
        }
    }
    fn positive(&self, key: &str) -> Result<usize, String> {
        self.count(key, MAX_SETTING)
    }
    /// A finite real number of at least `min`.
    fn real(&self, key: &str, min: f64) -> Result<f64, String> {
        let v: f64 = self.get(key)?;
        if !v.is_finite() || v < min {
            let text = &self.values[key];
            return Err(format!(
                "--set {key}={text}: problem `{}` needs a finite {key}{}",
                self.problem,
                if min > f64::MIN {
                    format!(" of at least {min}")
                } else {
                    String::new()
                }
            ));
        }
        Ok(v)
    }
}

/// Most of any count setting (games, iterations, budgets, ...).
const MAX_SETTING: usize = 1_000_000;
/// Most dimensions of a benchmark: a space of this many already takes a while.
const MAX_DIMS: usize = 100_000;
/// Most persistent evaluator processes: each is a process, with three threads here.
const MAX_WORKERS: usize = 1024;
/// Most ticks of a Space Battle game.
const MAX_TICKS: usize = 1_000_000;

/// The full settings of a problem: its defaults overridden by `given`, every name checked.
fn settings<'a>(name: &'a str, given: &BTreeMap<String, String>) -> Result<Settings<'a>, String> {
    let (_, defaults, _) = PROBLEMS
        .iter()
        .find(|p| p.0 == name)
        .ok_or_else(|| format!("unknown problem `{name}`"))?;
    let mut values: BTreeMap<String, String> = defaults
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for (k, v) in given {
        if !values.contains_key(k) {
            let known: Vec<&str> = defaults.iter().map(|d| d.0).collect();
            return Err(format!(
                "--set {k}={v}: problem `{name}` has no setting `{k}` (its settings: {})",
                known.join(", ")
            ));
        }
        values.insert(k.clone(), v.clone());
    }
    Ok(Settings {
        problem: name,
        values,
    })
}

/// The `space-battle` problem's ladder as agent specs: every `mcts` rung with the
/// problem's MCTS settings (the enemy ENEMY_ID names keeps the game's presets).
fn space_battle_ladder(s: &Settings) -> Result<Vec<String>, String> {
    let mcts = format!(
        "mcts(iterations={},depth={},macro={})",
        s.positive("mcts_iterations")?,
        s.positive("mcts_depth")?,
        s.positive("mcts_macro")?
    );
    let ladder: String = s.get("ladder")?;
    Ok(crate::harness::split_agents(&ladder)
        .into_iter()
        .map(|rung| {
            if rung.eq_ignore_ascii_case("mcts") {
                mcts.clone()
            } else {
                rung
            }
        })
        .collect())
}

/// The Rinascimento problems' `rules` setting: `spec` or `reference` (see
/// [`crate::games::rinascimento::Preset`]).
fn rinascimento_preset(s: &Settings) -> Result<crate::games::rinascimento::Preset, String> {
    let name: String = s.get("rules")?;
    crate::games::rinascimento::Preset::parse(&name).map_err(|e| format!("--set rules={name}: {e}"))
}

/// A `features=a,b` setting: names that head columns of the log, so checked as names;
/// an empty name (`a,,b`, a comma at an end) or one given twice is refused.
fn feature_list(text: &str) -> Result<Vec<String>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut features: Vec<String> = Vec::new();
    for f in text.split(',').map(str::trim) {
        if f.is_empty() {
            return Err(format!(
                "--set features={text}: an empty feature name (two commas in a row, or one at an end); give names separated by single commas"
            ));
        }
        crate::space::check_name("feature", f).map_err(|m| format!("--set features: {m}"))?;
        if features.iter().any(|g| g == f) {
            return Err(format!(
                "--set features={text}: `{f}` is given twice; each feature heads a column of the log, so give each name once"
            ));
        }
        features.push(f.to_string());
    }
    Ok(features)
}

/// Builds a problem from its spec. `space` is the user's search space, which the
/// external-command problem requires and the others bind to by name.
pub fn build_problem(
    spec: &ProblemSpec,
    space: Option<&Space>,
) -> Result<Box<dyn Problem>, String> {
    let Some((name, _, _)) = PROBLEMS.iter().find(|p| p.0 == spec.name) else {
        let names: Vec<&str> = PROBLEMS.iter().map(|p| p.0).collect();
        return Err(format!(
            "unknown problem `{}` (known: {})",
            spec.name,
            names.join(", ")
        ));
    };
    let s = settings(name, &spec.settings)?;
    Ok(match *name {
        "noisy-onemax" => Box::new(NoisyOneMax::scaled(
            s.count("dims", MAX_DIMS)?,
            s.real("sigma", 0.0)?,
            s.real("scale", f64::MIN)?,
        )),
        "constrained-onemax" => Box::new(ConstrainedOneMax::new(
            s.count("dims", MAX_DIMS)?,
            s.real("sigma", 0.0)?,
            s.real("cap", 0.0)?,
        )?),
        "noisy-trap" => {
            let values = s.count("values", 1 << 20)?;
            if values < 2 {
                return Err("--set values: the trap needs at least 2 values per dimension".into());
            }
            Box::new(NoisyTrap::scaled(
                s.count("dims", MAX_DIMS)?,
                values,
                s.real("sigma", 0.0)?,
                s.real("scale", f64::MIN)?,
            ))
        }
        "noisy-pairs" => Box::new(NoisyPairs::new(
            s.count("dims", MAX_DIMS)?,
            s.real("local", f64::MIN)?,
            s.real("sigma", 0.0)?,
        )),
        "noisy-winrate" => {
            let values = s.positive("values")?;
            let (low, high): (f64, f64) = (s.get("low")?, s.get("high")?);
            if values < 2 || !(0.0..=1.0).contains(&low) || !(low..=1.0).contains(&high) {
                return Err("noisy-winrate needs values >= 2 and 0 <= low <= high <= 1".into());
            }
            Box::new(NoisyWinRate::new(s.positive("dims")?, values, low, high))
        }
        "ntbea-suite" => Box::new(crate::optim::ntbea::suite::NtbeaSuite::new(
            s.positive("trials")? as u64,
        )),
        "sphere" => Box::new(Sphere::new(s.count("dims", MAX_DIMS)?)),
        // The NTBEA paper's problem: `design` on Space Battle with its measure (each rung
        // against ENEMY_ID's controller, Eq. 2's T) and the paper's features only.
        "space-battle" => {
            use crate::harness::design::{DesignConfig, DesignProblem};
            Box::new(DesignProblem::new(
                game("space-battle")?,
                DesignConfig {
                    ladder: space_battle_ladder(&s)?,
                    games: s.positive("games")?,
                    budget: None,
                    settings: vec![(
                        "max_ticks".into(),
                        s.count("max_ticks", MAX_TICKS)?.to_string(),
                    )],
                    metrics: false,
                },
                space,
            )?)
        }
        // The Rinascimento problems are the generic ones with the paper's defaults.
        "rinascimento-agent" => {
            use crate::harness::tune::{TuneConfig, TuneProblem};
            let preset = rinascimento_preset(&s)?.name().to_string();
            let budget = s.positive("budget")?;
            // The budget is part of the agent, so that a recommendation pastes whole.
            let mut agent = crate::harness::AgentSpec::parse(&s.get::<String>("agent")?)?;
            if !agent.settings.iter().any(|(k, _)| k == "budget") {
                agent.settings.push(("budget".into(), budget.to_string()));
            }
            Box::new(TuneProblem::new(
                game("rinascimento")?,
                TuneConfig {
                    agent: agent.to_string(),
                    opponents: vec![s.get("opponents")?],
                    games: s.positive("games")?,
                    budget: Some(budget),
                    settings: vec![
                        ("players".into(), s.positive("players")?.to_string()),
                        ("rules".into(), preset),
                    ],
                },
                space,
            )?)
        }
        "rinascimento-rules" => {
            use crate::harness::design::{DesignConfig, DesignProblem};
            let ladder: String = s.get("ladder")?;
            Box::new(DesignProblem::new(
                game("rinascimento")?,
                DesignConfig {
                    ladder: crate::harness::split_agents(&ladder),
                    games: s.positive("games")?,
                    budget: Some(s.positive("budget")?),
                    settings: vec![("rules".into(), rinascimento_preset(&s)?.name().to_string())],
                    metrics: true,
                },
                space,
            )?)
        }
        "design" => {
            use crate::harness::design::{DesignConfig, DesignProblem};
            let budget = agents_budget(&s.get::<String>("budget")?)?;
            let ladder: String = s.get("ladder")?;
            Box::new(DesignProblem::new(
                game(&s.get::<String>("game")?)?,
                DesignConfig {
                    ladder: crate::harness::split_agents(&ladder),
                    games: s.positive("games")?,
                    budget,
                    settings: game_settings(&s.get::<String>("game_settings")?)?,
                    metrics: true,
                },
                space,
            )?)
        }
        "tune-agent" => {
            use crate::harness::tune::{TuneConfig, TuneProblem};
            if space.is_some_and(|sp| sp.dims.is_empty()) {
                return Err("tune-agent: the space file has no dimensions".into());
            }
            Box::new(TuneProblem::new(
                game(&s.get::<String>("game")?)?,
                TuneConfig {
                    agent: s.get("agent")?,
                    opponents: crate::harness::split_agents(&s.get::<String>("opponents")?),
                    games: s.positive("games")?,
                    budget: agents_budget(&s.get::<String>("budget")?)?,
                    settings: game_settings(&s.get::<String>("game_settings")?)?,
                },
                space,
            )?)
        }
        "strategy-styles" => {
            use crate::games::strategy::styles::{StylesConfig, StylesProblem};
            Box::new(StylesProblem::new(StylesConfig {
                levels: s.count("levels", crate::games::strategy::validation_levels().len())?,
                level_set: s.get("level_set")?,
                games: s.positive("games")?,
                opponent: s.get("opponent")?,
                budget: s.positive("budget")?,
                turns: s.count("turns", crate::games::strategy::log::MAX_TURNS)?,
            })?)
        }
        // HPS tuning: `tune-agent` on the strategy game, on levels drawn per game, with
        // the learned leaf among the categories when a network is given.
        "strategy-hps" => {
            use crate::harness::tune::{TuneConfig, TuneProblem, tuning_space};
            let strategy = game("strategy")?;
            let agent = format!("hps(budget={})", s.positive("budget")?);
            let model: String = s.get("model")?;
            let own;
            let space = match space {
                Some(given) => Some(given),
                None if model.is_empty() => None,
                None => {
                    // The network must load before a search starts.
                    strategy.check(&crate::harness::GameRequest {
                        settings: vec![("level".into(), "any".into())],
                        agents: vec![format!("hps(leaf=learned:{model})"), "rule".into()],
                        budget: None,
                        seed: 0,
                    })?;
                    let mut with_learned =
                        tuning_space(strategy, &crate::harness::AgentSpec::parse(&agent)?)?;
                    let leaf = with_learned.position("leaf").ok_or("hps has no leaf")?;
                    if let crate::space::Domain::Categories(names) =
                        &mut with_learned.dims[leaf].domain
                    {
                        names.push(format!("learned:{model}"));
                    }
                    own = with_learned;
                    Some(&own)
                }
            };
            Box::new(TuneProblem::new(
                strategy,
                TuneConfig {
                    agent,
                    opponents: vec![s.get("opponent")?],
                    games: s.positive("games")?,
                    budget: None,
                    settings: vec![
                        ("level".into(), "any".into()),
                        (
                            "turns".into(),
                            s.count("turns", crate::games::strategy::log::MAX_TURNS)?
                                .to_string(),
                        ),
                    ],
                },
                space,
            )?)
        }
        "manual" => {
            let space = space.ok_or(
                "problem `manual` needs --space FILE: the points it asks for are yours to evaluate",
            )?;
            Box::new(crate::eval::ManualProblem::new(
                space.clone(),
                feature_list(&s.get::<String>("features")?)?,
            ))
        }
        "command" => {
            let cmd: String = s.get("cmd")?;
            if cmd.trim().is_empty() {
                return Err("problem `command` needs --set cmd=\"PROGRAM ARGS\"".into());
            }
            let space = space.ok_or("problem `command` needs --space FILE: playtune cannot guess an external program's parameters")?;
            let features = feature_list(&s.get::<String>("features")?)?;
            let text = &s.values["timeout"];
            let timeout: f64 = s.get("timeout")?;
            if !(timeout.is_finite() && timeout > 0.0) {
                return Err(format!(
                    "--set timeout={text}: problem `command` takes a timeout in seconds, a finite number above 0",
                ));
            }
            let timeout = std::time::Duration::try_from_secs_f64(timeout)
                .map_err(|_| format!("--set timeout={text}: too long a timeout"))?;
            let problem = CommandProblem::new(cmd, space.clone(), features).with_timeout(timeout);
            let workers = &s.values["workers"];
            match s.get::<String>("mode")?.as_str() {
                "once" if spec.settings.contains_key("workers") => {
                    return Err(format!(
                        "--set workers={workers}: workers serve --set mode=worker; mode once starts a process per evaluation"
                    ));
                }
                "once" => Box::new(problem),
                "worker" => Box::new(problem.with_workers(if workers == "cores" {
                    std::thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    s.count("workers", MAX_WORKERS)?
                })),
                other => {
                    return Err(format!(
                        "--set mode={other}: problem `command` takes mode once (a process per evaluation) or worker (persistent processes)"
                    ));
                }
            }
        }
        _ => unreachable!("every name in PROBLEMS is built above"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, settings: &[(&str, &str)]) -> ProblemSpec {
        ProblemSpec {
            name: name.into(),
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn rinascimento_problems_build_from_settings() {
        for agent in ["bmrh", "srh", "mcts"] {
            let p = build_problem(&spec("rinascimento-agent", &[("agent", agent)]), None).unwrap();
            assert_eq!(p.space().name, format!("rinascimento-{agent}"));
        }
        let p = build_problem(
            &spec("rinascimento-rules", &[("ladder", "rnd,bmrh*,srh")]),
            None,
        )
        .unwrap();
        // A win rate per rung, then the design metrics.
        assert_eq!(
            p.feature_names()[..3],
            ["win_rate_0_rnd", "win_rate_1_bmrh", "win_rate_2_srh"]
        );
        assert!(p.feature_names().contains(&"stalemate_rate".to_string()));
        assert!(build_problem(&spec("rinascimento-agent", &[("agent", "osla")]), None).is_err());
        assert!(build_problem(&spec("rinascimento-agent", &[("players", "5")]), None).is_err());
        assert!(build_problem(&spec("rinascimento-rules", &[("ladder", "rnd")]), None).is_err());
    }

    #[test]
    fn rinascimento_problems_take_the_rules_preset() {
        for name in ["rinascimento-agent", "rinascimento-rules"] {
            for rules in ["spec", "reference"] {
                assert!(build_problem(&spec(name, &[("rules", rules)]), None).is_ok());
            }
            let e = build_problem(&spec(name, &[("rules", "java")]), None).err();
            assert!(e.unwrap().contains("rules=java"));
        }
    }

    /// `strategy-hps` is `tune-agent` on HPS: points are HPS specs, the learned leaf is
    /// a category only with a network, and a missing network fails at setup.
    #[test]
    fn strategy_hps_tunes_the_hps_agent() {
        let settings = [
            ("games", "2"),
            ("opponent", "rule"),
            ("budget", "500"),
            ("turns", "8"),
        ];
        let p = build_problem(&spec("strategy-hps", &settings), None).unwrap();
        let leaf = p.space().position("leaf").unwrap();
        assert_eq!(
            p.space().dims[leaf].domain.len(),
            2,
            "no model, no learned leaf"
        );
        let mut x = p.space().decode(&p.space().default_indices());
        x[leaf] = 1.0;
        let agent = p.agent_spec(&x).unwrap();
        assert!(
            agent.starts_with("hps(budget=500,") && agent.contains("leaf=playout"),
            "{agent}"
        );
        let a = p.evaluate(&x, 9).unwrap();
        assert_eq!(a, p.evaluate(&x, 9).unwrap());
        assert!((0.0..=1.0).contains(&a.fitness));
        let mut with_model = settings.to_vec();
        with_model.push(("model", "/no/such.evalnet"));
        let e = build_problem(&spec("strategy-hps", &with_model), None)
            .err()
            .unwrap();
        assert!(e.contains("cannot read the network"), "{e}");
    }

    #[test]
    fn strategy_styles_builds_and_checks_its_settings() {
        let p = build_problem(&spec("strategy-styles", &[("games", "1")]), None).unwrap();
        assert_eq!(p.space().len(), 11);
        assert_eq!(p.tie_break().as_deref(), Some("mean_score"));
        for (k, v, says) in [
            ("levels", "0", "levels from 1 to 100"),
            ("levels", "21", "there are 20 training levels"),
            ("level_set", "test", "give training or validation"),
            ("turns", "65", "turns from 1 to 64"),
            ("opponent", "hal", "unknown strategy agent `hal`"),
        ] {
            let e = build_problem(&spec("strategy-styles", &[(k, v)]), None).err();
            assert!(e.as_deref().unwrap_or("").contains(says), "{e:?}");
        }
    }
}
