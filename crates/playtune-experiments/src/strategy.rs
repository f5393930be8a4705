//! The strategy game's experiments:
//! - `strategy-portfolio`: the Tribes paper's Table I (portfolio MCTS against MCTS and
//!   RHEA): win rate, score, share of technologies, cities and production at the end,
//!   with standard errors, over the training levels with alternating seats.
//! - `strategy-difficulty`: the Prismata paper's Table 2: bots made by configuration
//!   alone play a round robin; the row averages should order them as intended.
//!
//! Every game is one work item, seeded by (experiment seed, pairing, level, game) and
//! appended to `games.csv` as it finishes, so an interrupted experiment resumes where
//! it stopped and the result does not depend on the number of threads.

use super::Error;
use playtune::game::{Agent, Game};
use playtune::games::strategy::{
    Level, Strategy, StrategyState, training_levels, validation_levels,
};
use playtune::harness::agents::{AgentSpec, all_agents, build_agent};
use playtune::harness::ladder::PairScore;
use playtune::harness::{GameDef, Values};
use playtune::rng::derive_seed;
pub use playtune_exec::{BoxError, ExecError, Executor, Task, map_each};
use playtune_optim::stats::Summary;
use playtune_report::plot::{Heatmap, category_error_bars, heatmap};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// One game of an experiment: its pairing, level and game index (which give its seed
/// and seats), with the experiment it belongs to.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct StrategyGame {
    pub(crate) experiment: StrategyExperiment,
    pub(crate) pairing: usize,
    pub(crate) level: u64,
    pub(crate) game: usize,
}

impl Task for StrategyGame {
    const KIND: &'static str = "strategy-game";
    type Output = GameRow;
    fn run(&self) -> Result<GameRow, BoxError> {
        let x = &self.experiment;
        let values = Values::new("game `strategy`", &Strategy.settings(), &x.settings)?;
        Ok(play_game(x, &values, self.pairing, self.level, self.game)?)
    }
}

/// The Tribes paper's Table I win rates, in the order of
/// [`StrategyExperiment::portfolio`]'s pairings: P-MCTS, P-MCTS(B), P-MCTS(PU) against
/// MCTS; MCTS, P-MCTS, P-MCTS(B), P-MCTS(PU) against RHEA.
pub(crate) const TRIBES_TABLE_I: [f64; 7] = [0.656, 0.654, 0.686, 0.370, 0.564, 0.556, 0.678];

/// Which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Table {
    /// Table I: each pairing's first agent against its second.
    Portfolio,
    /// Round robin of every pair of agents.
    Difficulty,
}

/// One experiment's settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StrategyExperiment {
    /// The experiment's name (its folders').
    pub name: String,
    pub(crate) table: Table,
    /// The agents, as on the command line (`p-mcts-pu(budget=500)`); for the
    /// difficulty table, weakest first as intended.
    pub(crate) agents: Vec<String>,
    /// Pairs of agent indices to play (the first is the row's agent).
    pub(crate) pairings: Vec<(usize, usize)>,
    /// Level seeds (the training levels by default).
    pub levels: Vec<u64>,
    /// Games per pairing and level; seats alternate game by game.
    pub(crate) games_per_level: usize,
    /// The game's settings (turns, size, ...), NAME=VALUE.
    pub settings: Vec<(String, String)>,
    pub(crate) seed: u64,
}

impl StrategyExperiment {
    /// The Tribes paper's Table I: P-MCTS, P-MCTS(B), P-MCTS(PU) against MCTS; MCTS and
    /// the three against RHEA.
    pub(crate) fn portfolio(name: &str, levels: usize, games_per_level: usize, seed: u64) -> Self {
        let agents = ["p-mcts", "p-mcts-b", "p-mcts-pu", "mcts", "rhea"];
        StrategyExperiment {
            name: name.into(),
            table: Table::Portfolio,
            agents: agents.iter().map(|s| s.to_string()).collect(),
            pairings: vec![(0, 3), (1, 3), (2, 3), (3, 4), (0, 4), (1, 4), (2, 4)],
            levels: training_levels().into_iter().take(levels).collect(),
            games_per_level,
            settings: Vec::new(),
            seed,
        }
    }

    /// The difficulty ladder: bots by configuration alone (`DIFFICULTY_LADDER`),
    /// weakest first as intended, in a round robin on the first `levels` validation
    /// levels (levels no bot was set up on).
    pub(crate) fn difficulty(name: &str, levels: usize, games_per_level: usize, seed: u64) -> Self {
        let agents = DIFFICULTY_LADDER.iter().map(|s| s.to_string()).collect();
        let levels = validation_levels().into_iter().take(levels).collect();
        Self::round_robin(name, agents, levels, games_per_level, seed)
    }

    /// Every pair of `agents` (listed weakest first as intended) on `levels`.
    pub fn round_robin(
        name: &str,
        agents: Vec<String>,
        levels: Vec<u64>,
        games_per_level: usize,
        seed: u64,
    ) -> Self {
        let n = agents.len();
        StrategyExperiment {
            name: name.into(),
            table: Table::Difficulty,
            agents,
            pairings: (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            levels,
            games_per_level,
            settings: Vec::new(),
            seed,
        }
    }
}

/// Bots of graded difficulty made by configuration alone (agent, budget, search
/// depth), weakest first. The order was set from a pilot round robin (40 games a pair,
/// validation levels, another seed) and holds in the published one
/// (`runs/published/strategy-difficulty-full`): raw-action MCTS with a tiny budget,
/// portfolio MCTS at 100 and 2000 calls, HPS searching one turn, HPS searching three.
/// The rule-based bot is left out: it beats the portfolio bots nearly always but HPS
/// only sometimes, so no place in the order is right for it.
pub const DIFFICULTY_LADDER: [&str; 6] = [
    "random",
    "mcts(budget=200)",
    "p-mcts-pu(budget=100)",
    "p-mcts-pu(budget=2000)",
    "hps(depth=1,budget=5000)",
    "hps(depth=3,budget=50000)",
];

/// A difficulty ladder from a play-style archive: `picked` elites (weights in the
/// order of `space`) as P-MCTS(PU) agents with `agent_settings` (e.g. `budget=2000`),
/// listed as given (the caller orders them by archive win rate, weakest first), in a
/// round robin on `levels`.
pub fn ladder(
    name: &str,
    space: &playtune::space::Space,
    picked: &[Vec<f64>],
    agent_settings: &str,
    levels: Vec<u64>,
    games_per_level: usize,
    seed: u64,
) -> Result<StrategyExperiment, Error> {
    let agents = picked
        .iter()
        .map(|values| {
            let w = playtune::games::strategy::scripts::weights_from_point(space, values)?;
            if w.0[playtune::games::strategy::GENOME_LEN..]
                .iter()
                .any(|&v| v != 0.5)
            {
                return Err(Error::NotGenomeWeights);
            }
            let extra = if agent_settings.is_empty() {
                String::new()
            } else {
                format!(",{agent_settings}")
            };
            Ok(format!(
                "p-mcts-pu(weights={}{extra})",
                playtune::games::strategy::scripts::genome_text(&w)
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(StrategyExperiment::round_robin(
        name,
        agents,
        levels,
        games_per_level,
        seed,
    ))
}

/// One finished game, from the pairing's first agent's side (`a`) and its second's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct GameRow {
    pub(crate) pairing: usize,
    pub(crate) level: u64,
    pub(crate) game: usize,
    /// The seat `a` played (0 moves first).
    pub(crate) seat_a: usize,
    /// 1 win, 0.5 draw, 0 loss for `a`.
    pub(crate) result_a: f64,
    pub(crate) score: [f64; 2],
    pub(crate) techs: [f64; 2],
    pub(crate) cities: [f64; 2],
    pub(crate) production: [f64; 2],
    pub(crate) turns: f64,
}

/// The header of a `games.csv` written before rows carried a check: still read (its
/// rows unchecked) and kept in that form, so that older folders resume byte for byte.
const HEADER: &str = "pairing,level,game,seat_a,result_a,score_a,score_b,techs_a,techs_b,cities_a,cities_b,production_a,production_b,turns";
/// The header of a `games.csv` whose rows end in a check: 64-bit FNV-1a of the row
/// before it, in 16 hex digits, as `evals.csv` rows do, so that a row changed after
/// it was written (a flipped result) is named and played again, not used.
const CHECKED_HEADER: &str = "pairing,level,game,seat_a,result_a,score_a,score_b,techs_a,techs_b,cities_a,cities_b,production_a,production_b,turns,check";

/// The header of a `games.csv` in the form (checked or not) its rows take.
fn header(checked: bool) -> &'static str {
    if checked { CHECKED_HEADER } else { HEADER }
}

impl GameRow {
    /// The row as a line of `games.csv` (without its end of line), its check at the
    /// end where `checked`.
    fn to_csv(&self, checked: bool) -> String {
        let body = self.body();
        if checked {
            let check = playtune::damage::fnv1a(body.as_bytes());
            format!("{body},{check:016x}")
        } else {
            body
        }
    }

    fn body(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            self.pairing,
            self.level,
            self.game,
            self.seat_a,
            self.result_a,
            self.score[0],
            self.score[1],
            self.techs[0],
            self.techs[1],
            self.cities[0],
            self.cities[1],
            self.production[0],
            self.production[1],
            self.turns
        )
    }

    /// Reads a line of `games.csv`; Err says why it is no row (a check that does not
    /// match where `checked`, or not 14 numbers).
    fn from_csv(line: &str, checked: bool) -> Result<GameRow, String> {
        let body = if checked {
            let (body, check) = line
                .rsplit_once(',')
                .ok_or_else(|| "no check at the end of the row".to_string())?;
            if check.len() != 16
                || u64::from_str_radix(check, 16).ok()
                    != Some(playtune::damage::fnv1a(body.as_bytes()))
            {
                return Err(
                    "its check does not match the row (changed after it was written)".into(),
                );
            }
            body
        } else {
            line
        };
        Self::from_numbers(body).ok_or_else(|| "not 14 numbers".to_string())
    }

    fn from_numbers(line: &str) -> Option<GameRow> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 14 {
            return None;
        }
        let r = |i: usize| f[i].parse::<f64>().ok().filter(|v| v.is_finite());
        Some(GameRow {
            pairing: f[0].parse().ok()?,
            level: f[1].parse().ok()?,
            game: f[2].parse().ok()?,
            seat_a: f[3].parse().ok()?,
            result_a: r(4)?,
            score: [r(5)?, r(6)?],
            techs: [r(7)?, r(8)?],
            cities: [r(9)?, r(10)?],
            production: [r(11)?, r(12)?],
            turns: r(13)?,
        })
    }
}

/// Plays one game of `pairing` on `level`: agent `a` in seat `game % 2`.
fn play_game(
    x: &StrategyExperiment,
    values: &Values,
    pairing: usize,
    level: u64,
    game: usize,
) -> Result<GameRow, Error> {
    let (ia, ib) = x.pairings[pairing];
    let entries = all_agents(Strategy.agents());
    let build = |i: usize| -> Result<Box<dyn Agent<StrategyState>>, Error> {
        Ok(build_agent(
            "strategy",
            &entries,
            &AgentSpec::parse(&x.agents[i])?,
            None,
            values,
        )?)
    };
    let (mut a, mut b) = (build(ia)?, build(ib)?);
    let (game_config, level_config) = playtune::games::strategy::def::configs(values)?;
    let state = StrategyState::new(&Level::generate(level, &level_config)?, &game_config)?;
    let seat_a = game % 2;
    let seed = derive_seed(x.seed, &[pairing as u64, level, game as u64]);
    let mut refs: Vec<&mut dyn Agent<StrategyState>> = vec![a.as_mut(), b.as_mut()];
    let seats = [seat_a, 1 - seat_a];
    let end = playtune::harness::play::play(
        state,
        &mut refs,
        &seats,
        playtune::harness::play::AGENTS,
        seed,
        &mut |_, _| {},
    )?;
    let w = end.winners();
    let sb = 1 - seat_a;
    let result_a = match (w[seat_a], w[sb]) {
        (true, false) => 1.0,
        (true, true) => 0.5,
        _ => 0.0,
    };
    let pair = |f: &dyn Fn(usize) -> f64| [f(seat_a), f(sb)];
    Ok(GameRow {
        pairing,
        level,
        game,
        seat_a,
        result_a,
        score: pair(&|p| end.score(p)),
        techs: pair(&|p| f64::from(end.tech_count(p))),
        cities: pair(&|p| end.city_count(p) as f64),
        production: pair(&|p| f64::from(end.production(p))),
        turns: f64::from(end.log().end_turn),
    })
}

impl GameRow {
    /// Why the row cannot be a game of `x`: a pairing, level or game index the
    /// experiment does not have, a seat other than the game's, a result other than a
    /// win, a draw or a loss, or a count that is not a whole number in its range.
    fn impossible(&self, x: &StrategyExperiment) -> Option<String> {
        if self.pairing >= x.pairings.len() {
            return Some(format!(
                "pairing {}: the experiment has {}",
                self.pairing,
                x.pairings.len()
            ));
        }
        if !x.levels.contains(&self.level) {
            return Some(format!("level {}: not one of the experiment's", self.level));
        }
        if self.game >= x.games_per_level {
            return Some(format!(
                "game {}: the experiment plays {} a pairing and level",
                self.game, x.games_per_level
            ));
        }
        if self.seat_a != self.game % 2 {
            return Some(format!(
                "seat_a {}: game {} is played from seat {}",
                self.seat_a,
                self.game,
                self.game % 2
            ));
        }
        if ![0.0, 0.5, 1.0].contains(&self.result_a) {
            return Some(format!(
                "result_a {}: a game's result is 0, 0.5 or 1",
                self.result_a
            ));
        }
        let techs = playtune::games::strategy::rules::ALL_TECHS.len() as f64;
        let counts: [(&str, [f64; 2], f64); 4] = [
            ("score", self.score, f64::from(u32::MAX)),
            ("techs", self.techs, techs),
            ("cities", self.cities, f64::from(u16::MAX)),
            ("production", self.production, f64::from(u16::MAX)),
        ];
        for (name, pair, max) in counts {
            for (side, v) in ["a", "b"].iter().zip(pair) {
                if !(v.fract() == 0.0 && (0.0..=max).contains(&v)) {
                    return Some(format!("{name}_{side} {v}: a whole number from 0 to {max}"));
                }
            }
        }
        if !(self.turns.fract() == 0.0 && (0.0..=f64::from(u16::MAX)).contains(&self.turns)) {
            return Some(format!("turns {}: not a number of turns", self.turns));
        }
        None
    }
}

/// The games already in `games.csv`: every row read back is checked (its check
/// where the file has them, [`GameRow::impossible`]). A row that does not parse, was
/// changed, cannot be a game of `x` or is a copy of a game with other results (all
/// copies go) is left out, named in `damaged` (line from 1, why), and played again;
/// an identical copy is left out too. A last line an interruption cut short is dropped
/// without a word.
struct Rows {
    /// In the file's order (a resumed file is rewritten as it was); every figure
    /// orders them first ([`rows_of`]), so a resumed experiment's figures are those of
    /// one run straight through.
    rows: Vec<GameRow>,
    damaged: Vec<(usize, String)>,
    /// Whether the file's rows carry checks (a new file's do).
    checked: bool,
}

fn read_rows(path: &Path, x: &StrategyExperiment) -> Rows {
    let Ok(bytes) = std::fs::read(path) else {
        return Rows {
            rows: Vec::new(),
            damaged: Vec::new(),
            checked: true,
        };
    };
    let mut damaged = Vec::new();
    let mut rows: Vec<(usize, GameRow)> = Vec::new();
    let mut checked = true;
    for (number, line) in playtune::damage::lines(&bytes) {
        let line = String::from_utf8_lossy(line);
        if number == 1 {
            if line == HEADER {
                checked = false;
            } else if line != CHECKED_HEADER {
                damaged.push((1, "not the games.csv header".to_string()));
            }
            continue;
        }
        match GameRow::from_csv(&line, checked) {
            Err(why) => damaged.push((number, why)),
            Ok(r) => match r.impossible(x) {
                Some(why) => damaged.push((number, why)),
                None => rows.push((number, r)),
            },
        }
    }
    // Copies of one game: identical ones are one game; differing ones are all wrong
    // but one, and which is not known, so the game is played again.
    let mut first: std::collections::HashMap<(usize, u64, usize), usize> =
        std::collections::HashMap::new();
    let mut conflicting = std::collections::HashSet::new();
    let mut keep = vec![true; rows.len()];
    for (i, (number, r)) in rows.iter().enumerate() {
        let key = (r.pairing, r.level, r.game);
        match first.get(&key) {
            None => {
                first.insert(key, i);
            }
            Some(&j) => {
                keep[i] = false;
                let (first_line, first_row) = &rows[j];
                if first_row == r {
                    damaged.push((
                        *number,
                        format!("a copy of line {first_line} (the same game)"),
                    ));
                } else {
                    conflicting.insert(key);
                    damaged.push((
                        *number,
                        format!(
                            "game {} of pairing {} on level {} again, with other results than line {first_line}: both are played again",
                            r.game, r.pairing, r.level
                        ),
                    ));
                }
            }
        }
    }
    let mut out = Vec::new();
    for (i, (number, r)) in rows.into_iter().enumerate() {
        let key = (r.pairing, r.level, r.game);
        if conflicting.contains(&key) {
            if keep[i] {
                damaged.push((number, "a game logged twice with different results".into()));
            }
        } else if keep[i] {
            out.push(r);
        }
    }
    damaged.sort_by_key(|d| d.0);
    Rows {
        rows: out,
        damaged,
        checked,
    }
}

/// Runs (or resumes) the experiment: every game not yet in `games.csv`, then the
/// table and its plot. Returns the table in Markdown.
pub fn run(
    x: &StrategyExperiment,
    exec: &dyn Executor,
    runs_dir: &Path,
    plots_dir: &Path,
    progress: bool,
) -> Result<String, Error> {
    let dir = runs_dir.join(&x.name);
    std::fs::create_dir_all(&dir).map_err(|e| Error::file(&dir, e))?;
    let values = Values::new("game `strategy`", &Strategy.settings(), &x.settings)?;
    // Every agent builds before any game is played.
    let entries = all_agents(Strategy.agents());
    for a in &x.agents {
        build_agent("strategy", &entries, &AgentSpec::parse(a)?, None, &values)?;
    }
    // Games are keyed by pairing, level and game: a folder that holds another
    // experiment's games must not be resumed.
    let described = dir.join("experiment.txt");
    if let Ok(old) = std::fs::read_to_string(&described)
        && old != describe(x)
        && dir.join("games.csv").exists()
    {
        return Err(Error::OtherGames(dir));
    }
    playtune::run::lock::write_whole(&described, describe(x)).map_err(|e| Error::file(&dir, e))?;
    let path = dir.join("games.csv");
    let Rows {
        mut rows,
        damaged,
        checked,
    } = read_rows(&path, x);
    playtune::damage::warn(&path, &damaged, "their games are played again");
    // Rewrite the file with the good rows only (damaged rows and a torn last line
    // go), in the form it had, then append.
    let mut text = format!("{}\n", header(checked));
    for r in &rows {
        text.push_str(&r.to_csv(checked));
        text.push('\n');
    }
    // Through a temporary file, so that a kill now loses nothing.
    let tmp = dir.join("games.csv.tmp");
    std::fs::write(&tmp, text).map_err(|e| Error::file(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| Error::file(&path, e))?;
    let done: std::collections::HashSet<(usize, u64, usize)> =
        rows.iter().map(|r| (r.pairing, r.level, r.game)).collect();
    let todo: Vec<(usize, u64, usize)> = (0..x.pairings.len())
        .flat_map(|p| {
            x.levels
                .iter()
                .flat_map(move |&l| (0..x.games_per_level).map(move |g| (p, l, g)))
        })
        .filter(|k| !done.contains(k))
        .collect();
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .map_err(|e| Error::file(&path, e))?;
    let file = Mutex::new(file);
    let bar = if progress {
        indicatif::ProgressBar::new(todo.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let tasks: Vec<StrategyGame> = todo
        .iter()
        .map(|&(pairing, level, game)| StrategyGame {
            experiment: x.clone(),
            pairing,
            level,
            game,
        })
        .collect();
    let keep = |_: usize, row: &GameRow| -> Result<(), ExecError> {
        let mut f = file
            .lock()
            .map_err(|_| ExecError::file(Path::new("games.csv"), "lock poisoned"))?;
        writeln!(f, "{}", row.to_csv(checked))
            .map_err(|e| ExecError::file(Path::new("games.csv"), e))?;
        bar.inc(1);
        Ok(())
    };
    let new = map_each(exec, "games", &tasks, &keep)?;
    bar.finish_and_clear();
    rows.extend(new);
    rows.sort_by_key(|r| (r.pairing, r.level, r.game));
    let md = match x.table {
        Table::Portfolio => portfolio_table(x, &rows),
        Table::Difficulty => difficulty_table(x, &rows),
    };
    playtune::run::lock::write_whole(dir.join("summary.md"), &md)
        .map_err(|e| Error::file("summary.md", e))?;
    let plots = plots_dir.join(&x.name);
    std::fs::create_dir_all(&plots).map_err(|e| Error::file(&plots, e))?;
    plot(x, &rows, &plots)?;
    Ok(md)
}

/// The experiment's settings, for the run folder.
fn describe(x: &StrategyExperiment) -> String {
    let pairings: Vec<String> = x
        .pairings
        .iter()
        .map(|&(a, b)| format!("{} vs {}", x.agents[a], x.agents[b]))
        .collect();
    format!(
        "experiment: {}\ntable: {:?}\nagents: {}\npairings: {}\nlevels: {:?}\ngames per pairing and level: {} (seats alternate)\ngame settings: {:?}\nseed: {}\n",
        x.name,
        x.table,
        x.agents.join(" | "),
        pairings.join(" | "),
        x.levels,
        x.games_per_level,
        x.settings,
        x.seed
    )
}

/// Mean and standard error of `f` over `rows`.
fn stat(rows: &[&GameRow], f: impl Fn(&GameRow) -> f64) -> (f64, f64) {
    let v: Vec<f64> = rows.iter().map(|r| f(r)).collect();
    let s = Summary::of(&v);
    (s.mean, s.se())
}

fn pm((m, se): (f64, f64), digits: usize) -> String {
    format!("{m:.digits$} ± {se:.digits$}")
}

/// The games of `pairing` by level and game, whatever order `rows` has: sums over them
/// (and so every figure) do not depend on the order games finished in.
fn rows_of(rows: &[GameRow], pairing: usize) -> Vec<&GameRow> {
    let mut of: Vec<&GameRow> = rows.iter().filter(|r| r.pairing == pairing).collect();
    of.sort_by_key(|r| (r.level, r.game));
    of
}

/// Table I: one line per pairing, the first agent's figures at the end of the game.
fn portfolio_table(x: &StrategyExperiment, rows: &[GameRow]) -> String {
    let techs = playtune::games::strategy::rules::ALL_TECHS.len() as f64;
    let mut md = String::from(
        "| agent | opponent | games | win rate % | score | technologies % | cities | production |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (p, &(a, b)) in x.pairings.iter().enumerate() {
        let r = rows_of(rows, p);
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            x.agents[a],
            x.agents[b],
            r.len(),
            pm(stat(&r, |g| 100.0 * g.result_a), 1),
            pm(stat(&r, |g| g.score[0]), 0),
            pm(stat(&r, |g| 100.0 * g.techs[0] / techs), 1),
            pm(stat(&r, |g| g.cities[0]), 2),
            pm(stat(&r, |g| g.production[0]), 1),
        ));
    }
    md.push_str(&format!(
        "\nMean ± standard error over {} training levels x {} games per pairing, seats alternating; a draw counts half.\n",
        x.levels.len(),
        x.games_per_level
    ));
    md
}

/// One cell of the round robin: the row agent's mean result against the column agent.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    mean: f64,
    games: usize,
    /// Sample variance of one game's result.
    variance: f64,
}

/// Each agent's results against each other agent.
fn win_matrix(x: &StrategyExperiment, rows: &[GameRow]) -> Vec<Vec<Option<Cell>>> {
    let n = x.agents.len();
    let mut m = vec![vec![None; n]; n];
    for (p, &(a, b)) in x.pairings.iter().enumerate() {
        let r = rows_of(rows, p);
        if r.is_empty() {
            continue;
        }
        let results: Vec<f64> = r.iter().map(|g| g.result_a).collect();
        let mean = Summary::of(&results).mean;
        // The spread with one pseudo-win and one pseudo-loss added (as Agresti and
        // Coull's interval does): a pair that one agent won every time still has a
        // standard error above zero.
        let smoothed: Vec<f64> = results.iter().copied().chain([0.0, 1.0]).collect();
        let variance = Summary::of(&smoothed).sd().powi(2);
        m[a][b] = Some(Cell {
            mean,
            games: r.len(),
            variance,
        });
        m[b][a] = Some(Cell {
            mean: 1.0 - mean,
            games: r.len(),
            variance,
        });
    }
    m
}

/// A row's average result over its opponents and the average's standard error (the
/// cells are independent games: the variances of their means add).
fn row_average(row: &[Option<Cell>]) -> (f64, f64) {
    let cells: Vec<&Cell> = row.iter().flatten().collect();
    if cells.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let k = cells.len() as f64;
    let mean = cells.iter().map(|c| c.mean).sum::<f64>() / k;
    let var: f64 = cells
        .iter()
        .map(|c| c.variance / c.games.max(1) as f64)
        .sum();
    (mean, var.sqrt() / k)
}

pub(crate) use playtune::harness::ladder::steps;

/// A round robin's results so far, read from its folder under `runs_dir`: `m[i][j]` is
/// agent `i`'s mean score against agent `j` with the variance of that mean.
pub fn pair_scores(x: &StrategyExperiment, runs_dir: &Path) -> Vec<Vec<Option<PairScore>>> {
    let rows = read_rows(&runs_dir.join(&x.name).join("games.csv"), x).rows;
    win_matrix(x, &rows)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|c| {
                    c.map(|c| PairScore {
                        mean: c.mean,
                        variance_of_mean: c.variance / c.games.max(1) as f64,
                    })
                })
                .collect()
        })
        .collect()
}

/// The round-robin table: row agent's win rate against each column agent, row average
/// with its standard error, and each step of the intended order.
fn difficulty_table(x: &StrategyExperiment, rows: &[GameRow]) -> String {
    let m = win_matrix(x, rows);
    let n = x.agents.len();
    let mut md = String::from("| # | agent |");
    for j in 0..n {
        md.push_str(&format!(" vs {j} |"));
    }
    md.push_str(" average |\n|---|---|");
    md.push_str(&"---|".repeat(n + 1));
    md.push('\n');
    let mut averages = Vec::new();
    for (i, row) in m.iter().enumerate() {
        md.push_str(&format!("| {i} | {} |", x.agents[i]));
        for cell in row {
            match cell {
                Some(c) => md.push_str(&format!(" {:.1} |", 100.0 * c.mean)),
                None => md.push_str(" |"),
            }
        }
        let (avg, se) = row_average(row);
        averages.push((avg, se));
        md.push_str(&format!(" **{:.1}** ± {:.1} |\n", 100.0 * avg, 100.0 * se));
    }
    let steps = steps(&averages);
    let bad: Vec<String> = steps
        .iter()
        .filter(|s| !s.separated())
        .map(|s| format!("{} and {}", s.from, s.from + 1))
        .collect();
    let games = x.levels.len() * x.games_per_level;
    md.push_str(&format!(
        "\nWin rate % of the row's agent against the column's, {games} games per pair ({} levels x {}, seats alternating; a draw counts half; a cell's standard error is at most {:.1} points). The average is over the row's opponents, ± its standard error. Agents are listed weakest first as intended.\n\n",
        x.levels.len(),
        x.games_per_level,
        100.0 * 0.5 / (games as f64).sqrt(),
    ));
    md.push_str("| step | gain (points) | se | gain / se |\n|---|---|---|---|\n");
    for s in &steps {
        md.push_str(&format!(
            "| {} to {} | {:+.1} | {:.1} | {:.1}{} |\n",
            s.from,
            s.from + 1,
            100.0 * s.gain,
            100.0 * s.se,
            s.gain / s.se,
            if s.separated() {
                ""
            } else {
                " (not separated)"
            }
        ));
    }
    md.push_str(&format!(
        "\nThe ordering by row average {}.\n",
        if bad.is_empty() {
            "holds: every rung beats the one below by more than 2 standard errors".to_string()
        } else {
            format!(
                "does not hold (by more than 2 standard errors) between {}",
                bad.join(", ")
            )
        }
    ));
    md
}

fn plot(x: &StrategyExperiment, rows: &[GameRow], dir: &Path) -> Result<(), Error> {
    match x.table {
        Table::Portfolio => {
            let bars: Vec<(String, f64, f64)> = x
                .pairings
                .iter()
                .enumerate()
                .map(|(p, &(a, b))| {
                    let (m, se) = stat(&rows_of(rows, p), |g| g.result_a);
                    (format!("{} v {}", x.agents[a], x.agents[b]), m, se)
                })
                .collect();
            // The paper's figures where the pairings are the paper's.
            let paper = StrategyExperiment::portfolio("", 1, 1, 0);
            let reference = (x.agents == paper.agents && x.pairings == paper.pairings)
                .then_some(("Tribes paper (Table I)", &TRIBES_TABLE_I[..]));
            for ext in ["png", "svg"] {
                category_error_bars(
                    &dir.join(format!("win_rates.{ext}")),
                    "Win rate of the first agent against the second",
                    "win rate",
                    &bars,
                    reference,
                    Some(0.5),
                )?;
            }
        }
        Table::Difficulty => {
            let m = win_matrix(x, rows);
            let n = x.agents.len();
            // Short labels: the number, the agent's name and its settings' values
            // (`hps(depth=1,budget=300)` is `4 hps 1/300`).
            let agents: Vec<String> = (0..n)
                .map(|i| match AgentSpec::parse(&x.agents[i]) {
                    Ok(spec) if !spec.settings.is_empty() => {
                        let values: Vec<&str> =
                            spec.settings.iter().map(|(_, v)| v.as_str()).collect();
                        format!("{i} {} {}", spec.name, values.join("/"))
                    }
                    _ => format!("{i} {}", x.agents[i]),
                })
                .collect();
            let h = Heatmap {
                title: "Row agent's win rate vs column agent (0 = weakest intended)".into(),
                x_label: "column agent".into(),
                y_label: "row agent".into(),
                x_buckets: agents.clone(),
                y_buckets: agents,
                value_label: "row agent's win rate".into(),
                values: m
                    .iter()
                    .map(|row| row.iter().map(|c| c.map(|c| c.mean)).collect())
                    .collect(),
                range: Some((0.0, 1.0)),
                annotate: true,
                ..Heatmap::default()
            };
            for ext in ["png", "svg"] {
                heatmap(&dir.join(format!("round_robin.{ext}")), &h)?;
            }
        }
    }
    Ok(())
}

/// Each preset of the two tables: name, meaning (portfolio, difficulty), levels and
/// games a pairing and level.
const SIZES: [(&str, &str, &str, usize, usize); 4] = [
    (
        "quick",
        "4 training levels x 2 games a pairing (a minute or two on 2 cores)",
        "4 validation levels x 2 games a pair (about 10 seconds on 2 cores)",
        4,
        2,
    ),
    (
        "medium",
        "10 levels x 4 games",
        "10 levels x 4 games",
        10,
        4,
    ),
    (
        "paper",
        "all 20 training levels x 10 games a pairing, seats alternating (about 25 minutes on 2 cores, published)",
        "all 20 validation levels x 10 games, 200 games a pair (about 12 minutes on 2 cores, published)",
        20,
        10,
    ),
    ("full", "the same as paper", "the same as paper", 20, 10),
];

fn game_settings() -> Vec<playtune::settings::Setting> {
    vec![super::declaration::set_setting("game", ", e.g. turns=20")]
}

/// Either table at the request's preset.
fn declared(
    request: &super::declaration::Request<'_>,
    exec: &dyn Executor,
    portfolio: bool,
) -> Result<super::declaration::Outcome, Error> {
    let &(_, _, _, levels, games) = SIZES
        .iter()
        .find(|p| p.0 == request.preset)
        .unwrap_or(&SIZES[0]);
    let mut x = match portfolio {
        true => StrategyExperiment::portfolio(&request.name, levels, games, request.seed),
        false => StrategyExperiment::difficulty(&request.name, levels, games, request.seed),
    };
    x.settings.extend(request.pairs("set")?);
    super::declaration::Outcome::after(request, |runs, plots, progress| {
        run(&x, exec, runs, plots, progress)
    })
}

/// The Tribes paper's Table I, declared for the command line.
pub(crate) static PORTFOLIO: super::declaration::ExperimentDef =
    super::declaration::ExperimentDef {
        name: "strategy-portfolio",
        about: "Portfolio MCTS against MCTS and RHEA in the strategy game (the Tribes paper's Table I)",
        details: "P-MCTS, P-MCTS(B) and P-MCTS(PU) against MCTS; MCTS and the three against RHEA, on the training levels.",
        presets: super::declaration::presets_from!(SIZES),
        settings: game_settings,
        folder_carries: None,
        run: |request, exec| declared(request, exec, true),
    };

/// The round robin of bots made by configuration, declared for the command line.
pub(crate) static DIFFICULTY: super::declaration::ExperimentDef =
    super::declaration::ExperimentDef {
        name: "strategy-difficulty",
        about: "A round robin of strategy-game bots made by configuration alone",
        details: "Six bots, weakest first as intended, on the validation levels; each step of the ladder is checked against two standard errors.",
        presets: || {
            SIZES
                .iter()
                .map(|&(name, _, about, ..)| super::declaration::Preset { name, about })
                .collect()
        },
        settings: game_settings,
        folder_carries: None,
        run: |request, exec| declared(request, exec, false),
    };

#[cfg(test)]
mod tests;
