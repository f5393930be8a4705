//! The strategy game as the harness sees it: level choice, map size and turn limit as
//! settings; the rule-based bot, the portfolio agents (P-MCTS, P-MCTS(B), P-MCTS(PU)),
//! HPS and the Tribes paper's MCTS and RHEA settings as agents; the game log's
//! statistics per game; maps at chosen steps.

use super::bot::RuleBased;
use super::encoding::{StrategyEncoding, StrategyPositions};
use super::level::{Level, LevelConfig, training_levels, validation_levels};
use super::log::features;
use super::phases::StrategyPhases;
#[cfg(feature = "draw")]
use super::render::{Snapshot, game_map_of};
use super::rules::{Building, DEFAULT_RULES, RuleSet, UnitKind};
use super::scripts::{SCRIPTS, StrategyScripts, read_weights};
use super::state::{GameConfig, StrategyState};
use playtune_harness::agents::{
    Hps, HpsConfig, HpsSearch, LeafEvaluation, Mcts, PortfolioSearch, ScriptWeights, StateEvaluator,
};
use playtune_harness::game::Agent;
use playtune_harness::learn::{LearnedEvaluator, StateEncoding};
use playtune_harness::{AgentEntry, Error, GameDef, Generic, Setting, Values};
use playtune_harness::{list, mcts_config};
use playtune_optim::space::Domain;
use std::sync::Arc;

/// The strategy game's descriptor.
pub struct Strategy;

/// Forward-model calls per decision of the search agents (the Tribes paper's budget).
pub(crate) const DECISION_BUDGET: &str = "2000";
/// Rollout and individual length of MCTS, P-MCTS and RHEA (the Tribes paper's).
pub(crate) const HORIZON: &str = "20";

/// The MCTS settings every MCTS-based agent of this game starts from.
const MCTS_DEFAULTS: &[(&str, &str)] = &[
    ("iterations", "max"),
    ("depth", HORIZON),
    ("budget", DECISION_BUDGET),
];

/// Setting `level`, read: the level a game is played on. `training` and
/// `validation` pick one of those levels by the game's seed, `any` generates one from
/// the seed, a number is that level's seed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LevelChoice {
    /// One of the training levels, picked by the game's seed.
    Training,
    /// One of the validation levels, picked by the game's seed.
    Validation,
    /// A level generated from the game's seed.
    Any,
    /// The level of this seed.
    Seed(u64),
}

impl LevelChoice {
    pub(crate) fn parse(choice: &str) -> Result<LevelChoice, Error> {
        match choice {
            "training" => Ok(LevelChoice::Training),
            "validation" => Ok(LevelChoice::Validation),
            "any" => Ok(LevelChoice::Any),
            n => n.parse::<u64>().map(LevelChoice::Seed).map_err(|_| {
                Error::value(
                    "level",
                    n,
                    "expected training, validation, any or a level's seed",
                )
            }),
        }
    }

    /// The seed of the level a game seeded `seed` plays on.
    pub(crate) fn seed(self, seed: u64) -> u64 {
        let pick = |set: Vec<u64>| set[(seed % set.len() as u64) as usize];
        match self {
            LevelChoice::Training => pick(training_levels()),
            LevelChoice::Validation => pick(validation_levels()),
            LevelChoice::Any => seed,
            LevelChoice::Seed(n) => n,
        }
    }
}

/// The strategy game's rules as its settings set them: the game's and the levels'
/// configurations, and which level a game plays on.
#[derive(Clone, Debug)]
pub struct StrategyRules {
    game: GameConfig,
    level: LevelConfig,
    choice: LevelChoice,
}

/// A rule a designer may change: its setting name, what it is, its range and step
/// (the design space's grid, which holds the published value), and where it lives in
/// a [`RuleSet`].
struct Rule {
    name: &'static str,
    about: &'static str,
    min: i64,
    max: i64,
    step: i64,
    field: fn(&mut RuleSet) -> RuleField<'_>,
}

/// A rule's place in a [`RuleSet`].
enum RuleField<'a> {
    Byte(&'a mut u8),
    Word(&'a mut u16),
}

macro_rules! unit_rule {
    ($name:expr, $about:expr, $min:expr, $max:expr, $step:expr, $unit:expr, $field:ident) => {
        Rule {
            name: $name,
            about: $about,
            min: $min,
            max: $max,
            step: $step,
            field: |r| RuleField::Byte(&mut r.units[$unit as usize].$field),
        }
    };
}

/// The strategy game's tunable rules (the published values are the defaults).
#[rustfmt::skip]
const RULES: &[Rule] = &[
    unit_rule!("cost_warrior", "stars to train a warrior", 1, 15, 1, UnitKind::Warrior, cost),
    unit_rule!("cost_archer", "stars to train an archer", 1, 15, 1, UnitKind::Archer, cost),
    unit_rule!("cost_defender", "stars to train a defender", 1, 15, 1, UnitKind::Defender, cost),
    unit_rule!("cost_rider", "stars to train a rider", 1, 15, 1, UnitKind::Rider, cost),
    unit_rule!("cost_swordsman", "stars to train a swordsman", 1, 15, 1, UnitKind::Swordsman, cost),
    unit_rule!("cost_catapult", "stars to train a catapult", 1, 15, 1, UnitKind::Catapult, cost),
    unit_rule!("cost_knight", "stars to train a knight", 1, 15, 1, UnitKind::Knight, cost),
    unit_rule!("attack_warrior", "a warrior's attack, in tenths", 5, 60, 5, UnitKind::Warrior, attack),
    unit_rule!("attack_archer", "an archer's attack, in tenths", 5, 60, 5, UnitKind::Archer, attack),
    unit_rule!("attack_defender", "a defender's attack, in tenths", 5, 60, 5, UnitKind::Defender, attack),
    unit_rule!("attack_rider", "a rider's attack, in tenths", 5, 60, 5, UnitKind::Rider, attack),
    unit_rule!("attack_swordsman", "a swordsman's attack, in tenths", 5, 60, 5, UnitKind::Swordsman, attack),
    unit_rule!("attack_catapult", "a catapult's attack, in tenths", 5, 60, 5, UnitKind::Catapult, attack),
    unit_rule!("attack_knight", "a knight's attack, in tenths", 5, 60, 5, UnitKind::Knight, attack),
    unit_rule!("defence_warrior", "a warrior's defence, in tenths", 0, 50, 5, UnitKind::Warrior, defence),
    unit_rule!("defence_defender", "a defender's defence, in tenths", 0, 50, 5, UnitKind::Defender, defence),
    unit_rule!("movement_rider", "tiles a rider moves", 1, 3, 1, UnitKind::Rider, movement),
    unit_rule!("movement_knight", "tiles a knight moves", 1, 3, 1, UnitKind::Knight, movement),
    Rule { name: "cost_farm", about: "stars to build a farm (+2 population)", min: 1, max: 12, step: 1,
        field: |r| RuleField::Byte(&mut r.building_cost[Building::Farm as usize]) },
    Rule { name: "cost_mine", about: "stars to build a mine (+2 population)", min: 1, max: 12, step: 1,
        field: |r| RuleField::Byte(&mut r.building_cost[Building::Mine as usize]) },
    Rule { name: "cost_walls", about: "stars to build city walls", min: 1, max: 12, step: 1,
        field: |r| RuleField::Byte(&mut r.building_cost[Building::Walls as usize]) },
    Rule { name: "research_offset", about: "a technology of tier t costs t x (cities + this)", min: 0, max: 8, step: 1,
        field: |r| RuleField::Word(&mut r.research_offset) },
    Rule { name: "start_stars", about: "stars each tribe starts with", min: 0, max: 15, step: 1,
        field: |r| RuleField::Word(&mut r.start_stars) },
    Rule { name: "heal", about: "hit points a resting unit recovers (twice at home)", min: 0, max: 6, step: 1,
        field: |r| RuleField::Byte(&mut r.heal) },
];

impl Rule {
    fn read(&self, rules: &RuleSet) -> i64 {
        let mut r = rules.clone();
        match (self.field)(&mut r) {
            RuleField::Byte(v) => i64::from(*v),
            RuleField::Word(v) => i64::from(*v),
        }
    }

    fn write(&self, rules: &mut RuleSet, value: i64) {
        match (self.field)(rules) {
            RuleField::Byte(v) => *v = value as u8,
            RuleField::Word(v) => *v = value as u16,
        }
    }
}

/// The rule set of the settings: the published rules with every rule setting applied,
/// each checked against its range.
fn rule_set(settings: &Values) -> Result<&'static RuleSet, Error> {
    let mut rules = DEFAULT_RULES.clone();
    for rule in RULES {
        let text = settings.get(rule.name);
        let value: i64 = text
            .trim()
            .parse()
            .ok()
            .filter(|v| (rule.min..=rule.max).contains(v))
            .ok_or_else(|| {
                Error::value(
                    rule.name,
                    text,
                    format!(
                        "give a whole number from {} to {} ({})",
                        rule.min, rule.max, rule.about
                    ),
                )
            })?;
        rule.write(&mut rules, value);
    }
    Ok(rules.shared())
}

/// The design space of the strategy game's rules (`spaces/strategy_rules.ron`), the
/// published rules its default point.
pub(crate) fn rules_space() -> playtune_optim::space::Space {
    use playtune_optim::space::{Dimension, Space};
    Space {
        name: "strategy-rules".into(),
        dims: RULES
            .iter()
            .map(|r| Dimension {
                name: r.name.into(),
                domain: Domain::Int {
                    min: r.min,
                    max: r.max,
                    step: r.step,
                },
                default: ((r.read(&DEFAULT_RULES) - r.min) / r.step) as usize,
                fixed: false,
            })
            .collect(),
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

/// The game config and level config of the settings.
pub fn configs(settings: &Values) -> Result<(GameConfig, LevelConfig), Error> {
    let turns = settings.count("turns")?;
    let cap = settings.count("action_cap")?;
    let game = GameConfig {
        turn_limit: u16::try_from(turns)
            .map_err(|_| Error::value("turns", turns.to_string(), "at most 64"))?,
        action_cap: u16::try_from(cap)
            .map_err(|_| Error::value("action_cap", cap.to_string(), "too many"))?,
        rules: rule_set(settings)?,
    };
    let level = LevelConfig {
        size: settings.count("size")?,
        ..LevelConfig::default()
    };
    Ok((game, level))
}

/// Script weights from an agent's `weights` setting: `default` (every script 0.5), a
/// RON file of script names and weights, or the 11 genome weights (research then
/// spawn scripts) separated by `/`, e.g. `1/0/0.5/0/0/1/0/0/0/0/0`.
pub(crate) fn weights_setting(text: &str) -> Result<ScriptWeights, Error> {
    let mut weights = ScriptWeights::uniform(SCRIPTS.len(), 0.5);
    if text == "default" {
        return Ok(weights);
    }
    if text.contains('/') || text.parse::<f64>().is_ok() {
        let genome: Vec<&str> = text.split('/').collect();
        if genome.len() != super::GENOME_LEN {
            return Err(Error::value(
                "weights",
                text,
                format!(
                    "give {} genome weights separated by `/` (research, then spawn scripts)",
                    super::GENOME_LEN
                ),
            ));
        }
        for (i, w) in genome.iter().enumerate() {
            match w.trim().parse::<f64>() {
                Ok(v) if (0.0..=1.0).contains(&v) => weights.0[i] = v,
                _ => {
                    return Err(Error::value(
                        "weights",
                        text,
                        format!("`{w}` (script {}) is not a weight from 0 to 1", SCRIPTS[i]),
                    ));
                }
            }
        }
        return Ok(weights);
    }
    Ok(read_weights(std::path::Path::new(text))?)
}

/// The learned evaluator named by a `leaf` setting's `learned:FILE`, if it names one
/// (`None` for the other leaf settings). The file's encoding must be this game's.
pub fn learned_leaf(text: &str) -> Result<Option<Arc<dyn StateEvaluator<StrategyState>>>, Error> {
    let Some(file) = text.strip_prefix("learned:") else {
        return Ok(None);
    };
    if file.trim().is_empty() {
        return Err(Error::value(
            "leaf",
            "learned:FILE",
            "name the network file (made by `playtune train-eval`)",
        ));
    }
    let evaluator =
        LearnedEvaluator::load_matching(std::path::Path::new(file.trim()), &encodings())
            .map_err(super::Error::from)?;
    Ok(Some(Arc::new(evaluator)))
}

/// The game's state encodings, the default (counts, as in the paper) first.
fn encodings() -> Vec<Arc<dyn StateEncoding<StrategyState>>> {
    vec![Arc::new(StrategyEncoding), Arc::new(StrategyPositions)]
}

/// The `leaf` setting of the MCTS agents.
fn mcts_leaf_setting() -> Setting {
    Setting::new(
        "leaf",
        "rollout",
        "rollout (random, to the depth), or learned:FILE (a network from `playtune train-eval` values the state instead)",
    )
}

/// An MCTS agent's learned leaf evaluator from its `leaf` setting.
fn mcts_leaf(v: &Values) -> Result<Option<Arc<dyn StateEvaluator<StrategyState>>>, Error> {
    match v.get("leaf") {
        "rollout" => Ok(None),
        other => learned_leaf(other)?
            .map(Some)
            .ok_or_else(|| Error::value("leaf", other, "expected rollout or learned:FILE")),
    }
}

/// MCTS over raw actions with this game's defaults, plus the leaf setting.
fn mcts_settings() -> Vec<Setting> {
    let mut settings =
        AgentEntry::<StrategyState>::preset(&["m"], "", Generic::Mcts, MCTS_DEFAULTS).settings;
    settings.push(mcts_leaf_setting());
    settings
}

fn mcts(v: &Values) -> Result<Box<dyn Agent<StrategyState>>, Error> {
    let agent = Mcts::new(mcts_config(v)?);
    Ok(Box::new(match mcts_leaf(v)? {
        Some(e) => agent.with_evaluator(e),
        None => agent,
    }))
}

/// The settings of a portfolio MCTS: MCTS's with this game's defaults, plus weights
/// and the leaf setting.
fn portfolio_settings() -> Vec<Setting> {
    let mut settings = mcts_settings();
    settings.push(Setting::new(
        "weights",
        "default",
        "script weights: default (all 0.5), a RON file, or 11 genome weights a/b/...",
    ));
    settings
}

/// A portfolio MCTS from its settings.
fn portfolio_mcts(
    v: &Values,
    bias: bool,
    unpruning: bool,
) -> Result<Box<dyn Agent<StrategyState>>, Error> {
    let agent = Mcts::with_portfolio(
        mcts_config(v)?,
        PortfolioSearch {
            portfolio: Arc::new(StrategyScripts),
            weights: weights_setting(v.get("weights"))?,
            bias,
            unpruning,
        },
    );
    Ok(Box::new(match mcts_leaf(v)? {
        Some(e) => agent.with_evaluator(e),
        None => agent,
    }))
}

/// HPS's settings, with the grids `--problem tune-agent` (and `strategy-hps`) search:
/// the leaf evaluator is one more categorical setting, tuned with the rest.
fn hps_settings() -> Vec<Setting> {
    let d = HpsConfig::default();
    let s = Setting::new;
    let names = |n: &[&str]| Domain::Categories(n.iter().map(|s| s.to_string()).collect());
    vec![
        s("search", "alphabeta", "alphabeta or uct over turn plans")
            .tuned(names(&["alphabeta", "uct"])),
        s("depth", &d.depth.to_string(), "turns searched ahead").tuned(list(&[1.0, 2.0, 3.0, 4.0])),
        s(
            "leaf",
            "heuristic",
            "heuristic, playout (symmetric, then heuristic), learned:FILE (a network from `playtune train-eval`) or playout+learned:FILE (the playout, then the network)",
        )
        .tuned(names(&["heuristic", "playout"])),
        s(
            "playout_turns",
            &d.playout_turns.to_string(),
            "turns of a symmetric playout",
        )
        .tuned(list(&[1.0, 2.0, 4.0, 8.0])),
        s(
            "budget",
            &d.budget.to_string(),
            "forward-model calls per turn (about 10 decisions)",
        ),
        s("c", &d.c.to_string(), "UCT exploration constant")
            .tuned(list(&[0.5, 1.0, 1.41, 2.0, 4.0])),
        s(
            "phase_cap",
            &d.phase_cap.to_string(),
            "most actions of one partial player in a phase",
        )
        .tuned(list(&[10.0, 20.0, 40.0])),
        s(
            "time",
            "0",
            "thinking time per turn in ms of the thread's CPU time, 0 for none (timed games are not reproducible)",
        ),
    ]
}

/// The most thinking time a turn an HPS agent may be given: an hour (in ms).
const MAX_THINKING_MS: f64 = 3_600_000.0;

fn hps(v: &Values) -> Result<Box<dyn Agent<StrategyState>>, Error> {
    let config = HpsConfig {
        search: match v.choice("search", &["alphabeta", "uct"])? {
            0 => HpsSearch::AlphaBeta,
            _ => HpsSearch::Uct,
        },
        depth: v.count("depth")?,
        leaf: match v.get("leaf") {
            "heuristic" => LeafEvaluation::Heuristic,
            "playout" => LeafEvaluation::Playout,
            other if other.starts_with("playout+") => LeafEvaluation::PlayoutLearned,
            _ => LeafEvaluation::Learned,
        },
        playout_turns: v.whole("playout_turns")?,
        budget: v.limit("budget")?,
        c: v.non_negative("c")?,
        phase_cap: v.count("phase_cap")?,
        time: match v
            .real_in("time", 0.0, MAX_THINKING_MS)
            .map_err(|e| Error::from(e).note("milliseconds of thinking a turn, 0 for no limit"))?
        {
            0.0 => None,
            t => Some(std::time::Duration::from_secs_f64(t / 1e3)),
        },
    };
    if config.budget == usize::MAX && config.time.is_none() {
        return Err(Error::Combination {
            settings: "budget=max, time=0".into(),
            owner: v.owner().to_string(),
            why: "would think forever: give budget a number, or time (milliseconds a turn)".into(),
        });
    }
    let agent = Hps::new(config, Arc::new(StrategyPhases));
    Ok(Box::new(match v.get("leaf") {
        "heuristic" | "playout" => agent,
        other => {
            let network = other.strip_prefix("playout+").unwrap_or(other);
            agent.with_evaluator(learned_leaf(network)?.ok_or_else(|| {
                Error::value(
                    "leaf",
                    other,
                    "expected heuristic, playout, learned:FILE or playout+learned:FILE",
                )
            })?)
        }
    }))
}

impl GameDef for Strategy {
    type State = StrategyState;
    type Rules = StrategyRules;

    fn name(&self) -> &'static str {
        "strategy"
    }

    fn title(&self) -> &'static str {
        "the strategy game"
    }

    fn about(&self) -> &'static str {
        "a compact two-player Polytopia-like strategy game: cities, research, seven units (docs/strategy.md)"
    }

    fn settings(&self) -> Vec<Setting> {
        let g = GameConfig::default();
        vec![
            Setting::new(
                "level",
                "training",
                "training or validation (a level of that set by the game's seed), any, or a level's seed",
            ),
            Setting::new(
                "size",
                &LevelConfig::default().size.to_string(),
                "side of the map, 7 to 16",
            ),
            Setting::new(
                "turns",
                &g.turn_limit.to_string(),
                "turns each before the score decides, 1 to 64",
            ),
            Setting::new(
                "action_cap",
                &g.action_cap.to_string(),
                "actions in a turn after which it ends by itself",
            ),
        ]
        .into_iter()
        .chain(RULES.iter().map(|r| {
            Setting::new(r.name, &r.read(&DEFAULT_RULES).to_string(), r.about)
        }))
        .collect()
    }

    fn design_space(&self) -> Option<playtune_optim::space::Space> {
        Some(rules_space())
    }

    fn rules(&self, settings: &Values) -> Result<StrategyRules, Error> {
        let (game, level) = configs(settings)?;
        Ok(StrategyRules {
            game,
            level,
            choice: LevelChoice::parse(settings.get("level"))?,
        })
    }

    fn new_state(&self, rules: &StrategyRules, seed: u64) -> Result<StrategyState, Error> {
        let level = Level::generate(rules.choice.seed(seed), &rules.level)?;
        Ok(StrategyState::new(&level, &rules.game)?)
    }

    fn agents(&self) -> Vec<AgentEntry<StrategyState>> {
        vec![
            AgentEntry::own(
                &["rule", "rule-based"],
                "the rule-based bot: capture, favourable attacks, fixed build and research priorities",
                Vec::new(),
                |_, _| Ok(Box::new(RuleBased::new())),
            ),
            AgentEntry::own(
                &["mcts"],
                "MCTS over raw actions, the Tribes paper's settings (depth 20, 2000 calls a decision)",
                mcts_settings(),
                |v, _| mcts(v),
            ),
            AgentEntry::preset(
                &["rhea", "bmrh"],
                "rolling-horizon EA (BMRH, population 1) with the Tribes paper's length 20 and 2000 calls",
                Generic::Bmrh,
                &[
                    ("length", HORIZON),
                    ("evaluations", "max"),
                    ("budget", DECISION_BUDGET),
                ],
            ),
            AgentEntry::own(
                &["p-mcts", "pmcts"],
                "portfolio MCTS: children are the scripts' suggestions",
                portfolio_settings(),
                |v, _| portfolio_mcts(v, false, false),
            ),
            AgentEntry::own(
                &["p-mcts-b", "pmcts-b"],
                "portfolio MCTS with progressive bias by script weight x value",
                portfolio_settings(),
                |v, _| portfolio_mcts(v, true, false),
            ),
            AgentEntry::own(
                &["p-mcts-pu", "pmcts-pu"],
                "portfolio MCTS with progressive unpruning by script weight x value",
                portfolio_settings(),
                |v, _| portfolio_mcts(v, false, true),
            ),
            AgentEntry::own(
                &["hps"],
                "hierarchical portfolio search over partial players per turn phase",
                hps_settings(),
                |v, _| hps(v),
            ),
        ]
    }

    fn default_agents(&self, _: &Values) -> Result<Vec<String>, Error> {
        Ok(vec!["p-mcts-pu".into(), "mcts".into()])
    }

    fn encoding(&self) -> Option<Arc<dyn StateEncoding<StrategyState>>> {
        Some(Arc::new(StrategyEncoding))
    }

    fn encodings(&self) -> Vec<Arc<dyn StateEncoding<StrategyState>>> {
        encodings()
    }

    /// The turn limit is the cap (the score decides there); a capture is the rules.
    fn ended_by_rules(&self, state: &StrategyState) -> bool {
        state.log().by_capture
    }

    fn summary(&self, state: &StrategyState) -> Vec<(String, f64)> {
        let log = state.log();
        let mut out = vec![
            ("turns".to_string(), f64::from(log.end_turn)),
            (
                "by_capture".to_string(),
                f64::from(u8::from(log.by_capture)),
            ),
        ];
        for p in 0..2 {
            let f = features(log, p);
            out.extend([
                (format!("techs_{p}"), f64::from(state.tech_count(p))),
                (format!("cities_{p}"), state.city_count(p) as f64),
                (format!("production_{p}"), f64::from(state.production(p))),
                (format!("attacks_{p}"), f.attacks),
                (format!("ranged_minus_melee_{p}"), f.ranged_minus_melee),
                (format!("defender_spawns_{p}"), f.defender_spawns),
                (format!("research_slope_{p}"), f.research_slope),
                (format!("tile_dominance_slope_{p}"), f.tile_dominance_slope),
            ]);
        }
        out
    }

    #[cfg(feature = "draw")]
    fn render(
        &self,
        history: &[StrategyState],
        at: &[u32],
        title: &str,
        agents: &[String],
        out: &std::path::Path,
    ) -> Option<Result<(), Error>> {
        let turns: Vec<u32> = history.iter().map(|s| u32::from(s.turn())).collect();
        let snapshots: Vec<Snapshot> = playtune_harness::draw::frames(&turns, at)
            .iter()
            .map(|f| {
                let state = history[f.index].clone();
                let caption = if f.end {
                    let log = state.log();
                    let how = match state.winner() {
                        Some(w) if log.by_capture => format!("tribe {w} won by capture"),
                        Some(w) => format!("tribe {w} won on score"),
                        None => "a draw".into(),
                    };
                    format!("end, after {} turns: {how}", log.end_turn)
                } else if f.turn == 0 {
                    "start".into()
                } else {
                    format!("after {} turns", f.turn)
                };
                Snapshot { caption, state }
            })
            .collect();
        Some(game_map_of(out, title, &snapshots, agents).map_err(Error::from))
    }
}

#[cfg(test)]
mod tests;
