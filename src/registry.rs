//! The built-in games and problems by name. A game is one line in [`GAMES`], a
//! problem one line in [`PROBLEMS`]: each problem declares its
//! [`ProblemDef`] (name, settings with defaults, build) beside
//! its code; `design` and `tune-agent`, which take any game here, are declared below.

use crate::eval::def::{agents_budget, game_settings};
use crate::eval::{Problem, ProblemDef};
use crate::harness::DynGame;
use crate::run::ProblemSpec;
use crate::space::Space;

/// The game every game command (`play`, `render`, `tournament`, `experiment
/// rule-design`) takes when none is named, as the `design` problem does.
pub const DEFAULT_GAME: &str = "rinascimento";

/// Every game `playtune play`, `tournament`, `render` and `games` know. A game is a
/// crate under `crates/` with a [`crate::harness::GameDef`]; listing it here (and the
/// crate in the root's `[dependencies]`) is all the command line needs.
pub const GAMES: &[&dyn DynGame] = &[
    &crate::games::space_battle::SpaceBattle,
    &crate::games::rinascimento::Rinascimento,
    &crate::games::strategy::Strategy,
];

/// Every built-in problem, in the order `playtune problems` lists them.
pub const PROBLEMS: &[&ProblemDef] = &[
    &crate::eval::NOISY_ONEMAX,
    &crate::eval::CONSTRAINED_ONEMAX,
    &crate::eval::NOISY_TRAP,
    &crate::eval::NOISY_PAIRS,
    &crate::eval::NOISY_WINRATE,
    &crate::eval::SYNTHETIC_DESIGN,
    &crate::optim::ntbea::suite::NTBEA_SUITE,
    &crate::eval::SPHERE,
    &crate::games::space_battle::SKILL_DEPTH,
    &crate::games::rinascimento::AGENT_TUNING,
    &crate::games::rinascimento::RULE_DESIGN,
    &DESIGN,
    &TUNE_AGENT,
    &crate::games::strategy::problems::STYLES,
    &crate::games::strategy::problems::HPS_TUNING,
    &crate::eval::MANUAL,
    &crate::eval::COMMAND,
];

/// A name the registry does not know (the message lists the known ones), or a
/// problem that does not build.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A Python file named without the game it defines.
    #[error(
        "`{name}` is a Python file: name the game it defines as `{name}:NAME` (NAME the module-level variable or class holding it, e.g. `{name}:GAME`)"
    )]
    PythonFileWithoutName {
        /// The file as given.
        name: String,
    },
    /// A game neither built in nor a description file playtune can find.
    #[error("unknown game `{name}` (built in: {}; or a game description: PATH.ron, or NAME.ron in $PLAYTUNE_GAMES or ./games; or a Python game: FILE.py:NAME)", known.join(", "))]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The built-in games' names.
        known: Vec<&'static str>,
    },
    /// A problem name the registry does not know.
    #[error("unknown problem `{name}` (known: {})", known.join(", "))]
    UnknownProblem {
        /// The name asked for.
        name: String,
        /// The registered problems' names.
        known: Vec<&'static str>,
    },
    /// A game description that does not read or is refused (file, line, field).
    #[error(transparent)]
    Description(crate::space::SpaceError),
    /// A problem's build refused its settings or space: the refusing layer's own
    /// error ([`crate::harness::SettingError`], [`crate::eval::ProblemError`],
    /// [`crate::harness::Error`], ...), boxed: match it with `downcast_ref`.
    #[error(transparent)]
    Build(crate::harness::error::BoxError),
    /// A run's game does not load where the run found it (its file moved or went).
    #[error(
        "the run's game `{name}` was found at {at}, and it does not load from there now: {why}"
    )]
    GameGone {
        /// The game's name.
        name: String,
        /// Where the run found it.
        at: String,
        /// Why it does not load from there now.
        why: Box<Error>,
    },
    /// The code that plays a run's game, where the run found it, is not the code the
    /// run played: the same description over another program is another game.
    #[error(
        "the code that plays the run's game `{name}` (found at {at}) is not the code the run played (code fingerprint {now}, the run's {recorded}): evaluations of two programs would mix in one run"
    )]
    OtherCode {
        /// The game's name.
        name: String,
        /// Where the run found it.
        at: String,
        /// The fingerprint of the code the run played.
        recorded: String,
        /// The fingerprint of the code there now.
        now: String,
    },
    /// A game named for a run that plays none named by a file: there is none to find
    /// elsewhere.
    #[error("the run plays {plays}, which no file names: there is no game to name again")]
    NoGameToName {
        /// What the run plays.
        plays: String,
    },
    /// A run whose game a file names, read by a command that only reads runs, without
    /// the run's record of the game (runs begun before playtune recorded one): reading
    /// the game from its file would run the game's code.
    #[error(
        "the run's game `{name}` is named by a file and config.ron records no description of it (the run began before playtune recorded one); commands that only read a run never run the code a run names"
    )]
    NotRecorded {
        /// The game's name.
        name: String,
    },
}

/// The game called `name`: a built-in game, else a game registered in process (a
/// Python class), else a game description, by path
/// (`examples/duel/duel.ron`) or by name on the search path
/// ([`crate::games::external::find`]).
pub fn game(name: &str) -> Result<&'static dyn DynGame, Error> {
    if let Some(g) = GAMES.iter().copied().find(|g| g.name() == name.trim()) {
        return Ok(g);
    }
    if let Some(g) = crate::games::external::registered(name) {
        return Ok(g);
    }
    // A Python file is a game only with the name of what it defines.
    if name.trim().ends_with(".py") {
        return Err(Error::PythonFileWithoutName {
            name: name.trim().to_string(),
        });
    }
    if crate::games::external::python::is_reference(name) {
        return crate::games::external::load_python(name)
            .map(|g| g as &'static dyn DynGame)
            .map_err(Error::Description);
    }
    match crate::games::external::find(name) {
        Some(path) => crate::games::external::load(&path)
            .map(|g| g as &'static dyn DynGame)
            .map_err(Error::Description),
        None => Err(Error::UnknownGame {
            name: name.to_string(),
            known: GAMES.iter().map(|g| g.name()).collect(),
        }),
    }
}

/// A new run's folder name when its user gives none: `PROBLEM-GAME-ALGO-sSEED` for a
/// problem that plays a game (`design-duel-ntbea-s1`), the game by its name, and
/// `PROBLEM-ALGO-sSEED` otherwise: two runs on two games never share a name.
pub fn default_run_name(config: &crate::run::RunConfig) -> String {
    let spec = &config.problem;
    let declared = problem(&spec.name).ok().and_then(|d| {
        d.settings
            .iter()
            .find(|(name, _, _)| *name == "game")
            .map(|(_, default, _)| default.to_string())
    });
    let game = match (
        &config.game,
        spec.settings.get("game").cloned().or(declared),
    ) {
        (Some(identity), _) => Some(identity.name.clone()),
        (None, Some(text)) => {
            // A path or a Python reference by its file's stem.
            let stem = text.rsplit(['/', '\\']).next().unwrap_or(&text);
            let stem = stem.split([':', '.']).next().unwrap_or(stem);
            Some(stem.to_string())
        }
        (None, None) => None,
    }
    .map(|g| {
        g.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect::<String>()
    })
    .filter(|g| !g.is_empty());
    match game {
        Some(g) => format!(
            "{}-{g}-{}-s{}",
            spec.name,
            config.algorithm.name(),
            config.seed
        ),
        None => format!("{}-{}-s{}", spec.name, config.algorithm.name(), config.seed),
    }
}

/// The problem called `name`.
pub fn problem(name: &str) -> Result<&'static ProblemDef, Error> {
    PROBLEMS
        .iter()
        .copied()
        .find(|p| p.name == name)
        .ok_or_else(|| Error::UnknownProblem {
            name: name.to_string(),
            known: PROBLEMS.iter().map(|p| p.name).collect(),
        })
}

/// Reads a run folder's `config.ron` ([`crate::run::read_config`]) and checks that its
/// problem is one playtune has: a problem it does not have cannot have written the run,
/// so the file is named damaged. Run folders know no problem by name; the registry does.
pub fn read_config(dir: &std::path::Path) -> Result<crate::run::RunConfig, crate::run::RunError> {
    let config = crate::run::read_config(dir)?;
    problem(&config.problem.name).map_err(|e| crate::run::RunError::Damaged {
        file: dir.join(crate::run::CONFIG_FILE),
        field: "problem.name".to_string(),
        message: e.to_string(),
    })?;
    Ok(config)
}

/// Reads a run folder's `result.ron` ([`crate::run::read_result`], which reads the
/// `config.ron` it answers), then checks the config's problem as [`read_config`] does.
pub fn read_result(dir: &std::path::Path) -> Result<crate::run::RunResult, crate::run::RunError> {
    let result = crate::run::read_result(dir)?;
    read_config(dir)?;
    Ok(result)
}

/// Builds a problem from its spec. `space` is the user's search space, which the
/// external-command problem requires and the others bind to by name.
pub fn build_problem(spec: &ProblemSpec, space: Option<&Space>) -> Result<Box<dyn Problem>, Error> {
    let given: Vec<(String, String)> = spec
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    problem(&spec.name)?
        .build(&given, space)
        .map_err(Error::Build)
}

/// The problems that play a game named by their `game` setting, each built over a
/// game given: the game a run recorded, for the commands that only read the run.
type BuildOver = fn(
    &'static dyn DynGame,
    &crate::harness::Values,
    Option<&Space>,
) -> Result<Box<dyn Problem>, crate::harness::error::BoxError>;

fn over_a_game(problem: &str) -> Option<BuildOver> {
    match problem {
        "design" => Some(design_over),
        "tune-agent" => Some(tune_over),
        _ => None,
    }
}

/// The problem of a run, for the commands that only read it (`report`, `plot`,
/// `ask`, `tell`), from what its folder `dir` records and never from the code it
/// names: a game named by a file (a description and its command, a Python game) is
/// the game `config.ron` recorded, which plays nothing, and is never started,
/// imported or described; built-in problems and games are built as always.
pub fn recorded_problem(
    dir: &std::path::Path,
    config: &crate::run::RunConfig,
) -> Result<Box<dyn Problem>, Error> {
    let spec = &config.problem;
    let Some(build) = over_a_game(&spec.name) else {
        return build_problem(spec, Some(&config.space));
    };
    let given: Vec<(String, String)> = spec
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let def = problem(&spec.name)?;
    let v = def.values(&given).map_err(|e| Error::Build(e.into()))?;
    let named = v.get("game").trim();
    let game: &'static dyn DynGame = match &config.game {
        // A built-in game is the program's own code.
        None if GAMES.iter().any(|g| g.name() == named) => {
            return build_problem(spec, Some(&config.space));
        }
        None => {
            return Err(Error::NotRecorded {
                name: named.to_string(),
            });
        }
        Some(identity) => {
            let file = format!(
                "{}: game.description",
                dir.join(crate::run::CONFIG_FILE).display()
            );
            crate::games::external::ExternalGame::of_record(identity, &file)
                .ok_or_else(|| Error::NotRecorded {
                    name: identity.name.clone(),
                })?
                .map_err(Error::Description)?
        }
    };
    build(game, &v, Some(&config.space)).map_err(Error::Build)
}

/// The problem a run plays, for the commands that play it (`resume`, `reevaluate`):
/// its game found where the run found it (`config.ron`'s `game.source`, absolute), so
/// that the run plays the game it began with from any folder and never a file of the
/// same name elsewhere; or `game`, where the user names the game again on purpose
/// (a run moved away from its game, code changed on purpose). A game whose code is not
/// the code the run played is refused unless named again. A run recorded before
/// runs recorded where their game was finds it as its settings name it.
pub fn run_problem(
    config: &crate::run::RunConfig,
    game: Option<&str>,
) -> Result<Box<dyn Problem>, Error> {
    let recorded = config.game.as_ref();
    let at = match (game, recorded) {
        (Some(named), Some(_)) => named.to_string(),
        (Some(_), None) => {
            return Err(Error::NoGameToName {
                plays: if over_a_game(&config.problem.name).is_some() {
                    "a built-in game".to_string()
                } else {
                    format!("problem `{}`", config.problem.name)
                },
            });
        }
        (None, Some(r)) if over_a_game(&config.problem.name).is_some() => match &r.source {
            Some(source) => source.clone(),
            None => return build_problem(&config.problem, Some(&config.space)),
        },
        _ => return build_problem(&config.problem, Some(&config.space)),
    };
    // The game first, so that one that no longer loads where the run found it is
    // named so, not as a setting the problem refused.
    if let Err(e) = self::game(&at) {
        return Err(match (game, recorded) {
            (None, Some(r)) => Error::GameGone {
                name: r.name.clone(),
                at,
                why: Box::new(e),
            },
            _ => e,
        });
    }
    let mut spec = config.problem.clone();
    spec.settings.insert("game".to_string(), at.clone());
    let problem = build_problem(&spec, Some(&config.space))?;
    // Named again on purpose, its code is the user's call; the description must still
    // be the run's (`run::check_game`, where the run is driven).
    if game.is_none()
        && let (Some(r), Some(now)) = (recorded, problem.game_identity())
        && r.same_game(&now)
        && let Some(code) = &r.code
        && now.code.as_ref() != Some(code)
    {
        return Err(Error::OtherCode {
            name: r.name.clone(),
            at,
            recorded: code.clone(),
            now: now.code.unwrap_or_else(|| "none".to_string()),
        });
    }
    Ok(problem)
}

/// The ladder of `design` for a game without one of its own.
/// The ladder of a game that declares none and has no generic one of its own (the
/// built-in games).
const DEFAULT_LADDER: &str = "random,osla,mcts";

/// The ladder a design run plays: the one given (`ladder`), else the game's own (a
/// described game's bots, a forward-model game's generic ladder), else
/// [`DEFAULT_LADDER`]. An empty `ladder` is none given, so that a ladder given equal
/// to the default is played as given.
fn design_rungs(game: &dyn DynGame, given: &str) -> Vec<String> {
    if !given.trim().is_empty() {
        return crate::harness::split_agents(given);
    }
    game.default_ladder()
        .unwrap_or_else(|| crate::harness::split_agents(DEFAULT_LADDER))
}

/// `design`: any game's skill depth over its settings ([`crate::harness::design`]).
pub(crate) const DESIGN: ProblemDef = ProblemDef {
    name: "design",
    about: "any game's skill depth over its settings: min gap between ladder rungs (weakest first), each rung's win rate against the weakest; features: rung win rates and design metrics",
    settings: &[
        (
            "game",
            DEFAULT_GAME,
            "the game (`playtune games` lists them)",
        ),
        (
            "ladder",
            "",
            "agent specs, weakest first (empty: the game's own ladder, or one built to be ordered where it declares none; the built-in games: random,osla,mcts)",
        ),
        ("games", "20", "games each rung plays at every point"),
        (
            "budget",
            "",
            "every agent's default forward-model budget (empty: each agent's own)",
        ),
        (
            "game_settings",
            "",
            "game settings held fixed, NAME=VALUE NAME=VALUE",
        ),
        (
            "playable",
            "true",
            "hold the search to the game's playability constraints (`playtune games` lists them); false drops them",
        ),
    ],
    build: |v, space| design_over(game(v.get("game"))?, v, space),
};

/// [`DESIGN`] over `game`, the one its `game` setting names or, for a command that
/// only reads a run, the game as the run recorded it.
fn design_over(
    game: &'static dyn DynGame,
    v: &crate::harness::Values,
    space: Option<&Space>,
) -> Result<Box<dyn Problem>, crate::harness::error::BoxError> {
    use crate::harness::design::{DesignConfig, DesignProblem};
    // A game with a ladder of its own (a described game's bots) plays it unless the
    // user names one.
    let ladder = design_rungs(game, v.get("ladder"));
    Ok(Box::new(DesignProblem::new(
        game,
        DesignConfig {
            ladder,
            games: v.count("games")?,
            budget: agents_budget(v, "budget")?,
            settings: game_settings(v, "game_settings")?,
            metrics: true,
            playable: v.flag("playable")?,
        },
        space,
    )?))
}

/// What a `design` run's ladder plays: the game, its rungs (weakest first), the game's
/// own rules under the settings held fixed, and every agent's default budget. `None`
/// for any other problem.
pub struct DesignLadder {
    /// The game played.
    pub game: &'static dyn DynGame,
    /// The rungs, weakest first, as agent specs.
    pub ladder: Vec<String>,
    /// The game's own rules, with the settings the run holds fixed.
    pub own_rules: Vec<(String, String)>,
    /// Every agent's default budget, if the run sets one.
    pub budget: Option<usize>,
    /// Games each rung plays at every point.
    pub games: usize,
}

/// The ladder `spec` plays, where it is a `design` run (as `DESIGN`'s build reads it).
pub fn design_ladder(spec: &ProblemSpec) -> Result<Option<DesignLadder>, Error> {
    if spec.name != DESIGN.name {
        return Ok(None);
    }
    let given: Vec<(String, String)> = spec
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let build = |e: String| Error::Build(e.into());
    let v = DESIGN.values(&given).map_err(|e| build(e.to_string()))?;
    let game = game(v.get("game"))?;
    let ladder = design_rungs(game, v.get("ladder"));
    let fixed = game_settings(&v, "game_settings").map_err(|e| build(e.to_string()))?;
    let own_rules = game
        .settings_values(&fixed)
        .and_then(|v| game.own_rules(&v))
        .map_err(|e| build(e.to_string()))?;
    Ok(Some(DesignLadder {
        game,
        ladder,
        own_rules,
        budget: agents_budget(&v, "budget").map_err(|e| build(e.to_string()))?,
        games: v.count("games").map_err(|e| build(e.to_string()))?,
    }))
}

/// `tune-agent`: any agent of any game against opponents ([`crate::harness::tune`]).
pub(crate) const TUNE_AGENT: ProblemDef = ProblemDef {
    name: "tune-agent",
    about: "any agent of any game against opponents: its tunable settings (from the agent registry) searched for the best mean score; features: score against each opponent, mean length",
    settings: &[
        (
            "game",
            DEFAULT_GAME,
            "the game (`playtune games` lists them)",
        ),
        (
            "agent",
            "mcts",
            "the agent to tune, a spec; settings it gives stay fixed",
        ),
        (
            "opponents",
            "osla",
            "opponent specs; the agent plays `games` games against each",
        ),
        ("games", "20", "games against each opponent at every point"),
        (
            "budget",
            "",
            "every agent's default forward-model budget (empty: each agent's own)",
        ),
        (
            "game_settings",
            "",
            "game settings held fixed, NAME=VALUE NAME=VALUE",
        ),
    ],
    build: |v, space| tune_over(game(v.get("game"))?, v, space),
};

/// [`TUNE_AGENT`] over `game`, as [`design_over`].
fn tune_over(
    game: &'static dyn DynGame,
    v: &crate::harness::Values,
    space: Option<&Space>,
) -> Result<Box<dyn Problem>, crate::harness::error::BoxError> {
    use crate::harness::tune::{TuneConfig, TuneProblem};
    if space.is_some_and(|sp| sp.dims.is_empty()) {
        return Err("tune-agent: the space file has no dimensions".into());
    }
    Ok(Box::new(TuneProblem::new(
        game,
        TuneConfig {
            agent: v.get("agent").to_string(),
            opponents: crate::harness::split_agents(v.get("opponents")),
            games: v.count("games")?,
            budget: agents_budget(v, "budget")?,
            settings: game_settings(v, "game_settings")?,
        },
        space,
    )?))
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

    /// Every problem's settings are declared once, each name once, and a name it
    /// does not declare is refused naming the problem and its settings.
    #[test]
    fn problems_declare_their_settings_once() {
        for def in PROBLEMS {
            let mut names: Vec<&str> = def.settings.iter().map(|s| s.0).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), def.settings.len(), "{}", def.name);
            assert_eq!(problem(def.name).unwrap().name, def.name);
        }
        let e = build_problem(&spec("noisy-onemax", &[("dimz", "3")]), None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains(
                "problem `noisy-onemax` has no setting `dimz` (its settings: dims, sigma, scale)"
            ),
            "{e}"
        );
        let e = build_problem(&spec("sphere", &[("dims", "0")]), None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.starts_with("dims=0: problem `sphere` takes a whole number"),
            "{e}"
        );
        assert!(
            problem("chess")
                .unwrap_err()
                .to_string()
                .contains("unknown problem `chess`")
        );
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
        // Two rungs of one agent keep their settings in their names.
        let p = build_problem(
            &spec(
                "rinascimento-rules",
                &[("ladder", "rnd,mcts(budget=50),mcts(budget=200)")],
            ),
            None,
        )
        .unwrap();
        assert_eq!(
            p.feature_names()[..3],
            [
                "win_rate_0_rnd",
                "win_rate_1_mcts_budget_50",
                "win_rate_2_mcts_budget_200"
            ]
        );
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
            assert!(e.unwrap().to_string().contains("rules=java"));
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
            .unwrap()
            .to_string();
        assert!(e.contains("cannot read the network"), "{e}");
    }

    #[test]
    fn strategy_styles_builds_and_checks_its_settings() {
        let p = build_problem(&spec("strategy-styles", &[("games", "1")]), None).unwrap();
        assert_eq!(p.space().len(), 11);
        assert_eq!(p.tie_break().as_deref(), Some("mean_score"));
        for (k, v, says) in [
            ("levels", "0", "a whole number from 1 to 100 as levels"),
            ("levels", "21", "there are 20 training levels"),
            ("level_set", "test", "give training or validation"),
            ("turns", "65", "a whole number from 1 to 64 as turns"),
            ("opponent", "hal", "unknown strategy agent `hal`"),
        ] {
            let e = build_problem(&spec("strategy-styles", &[(k, v)]), None)
                .err()
                .map(|e| e.to_string());
            assert!(e.as_deref().unwrap_or("").contains(says), "{e:?}");
        }
    }
}
