//! The portfolio of scripts ([`StrategyScripts`], for portfolio MCTS), script weights
//! read from RON files or space points, and the helpers the partial players and the
//! rule-based bot share.
//!
//! The first 11 scripts are the 5 research and 6 spawn scripts, so the first 11
//! weights of a weight vector are the play-style genome ([`GENOME_LEN`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::Error;

use super::level::MAX_CITIES;
use super::level::{Grid, distance};
use super::rules::*;
use super::state::{Action, MAX_UNITS, StrategyState};
use playtune_harness::agents::portfolio::{Portfolio, ScriptWeights, Suggestion};
use playtune_optim::space::Space;

/// Every script's name, in weight order.
pub const SCRIPTS: [&str; 31] = [
    "research_farming",
    "research_riding",
    "research_archery",
    "research_mining",
    "research_defence",
    "spawn_strongest",
    "spawn_defensive",
    "spawn_cheapest",
    "spawn_fastest",
    "spawn_most_hp",
    "spawn_longest_range",
    "end_turn",
    "capture",
    "level_up_growth",
    "level_up_military",
    "attack_closest",
    "attack_weakest",
    "attack_most_damaged",
    "attack_strongest",
    "move_to_capture",
    "move_defensively",
    "move_offensively",
    "move_converge",
    "move_diverge",
    "build_harvest",
    "build_farm",
    "build_windmill",
    "build_lumber_hut",
    "build_mine",
    "build_forge",
    "build_walls",
];

/// Weights that form the play-style genome: the research and spawn scripts.
pub const GENOME_LEN: usize = 11;

const END_TURN: usize = 11;
const CAPTURE: usize = 12;
const LEVEL_UP: usize = 13;
const ATTACK: usize = 15;
const MOVE: usize = 19;
const BUILD: usize = 24;

/// How the spawn scripts rank unit types, in script order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpawnStyle {
    Strongest,
    Defensive,
    Cheapest,
    Fastest,
    MostHp,
    LongestRange,
}

pub(crate) const SPAWN_STYLES: [SpawnStyle; 6] = [
    SpawnStyle::Strongest,
    SpawnStyle::Defensive,
    SpawnStyle::Cheapest,
    SpawnStyle::Fastest,
    SpawnStyle::MostHp,
    SpawnStyle::LongestRange,
];

impl SpawnStyle {
    /// The unit's merit under this style in [0, 1] (higher first; ties go to the
    /// stronger attack, then the lower cost).
    pub(crate) fn merit(self, s: &UnitStats) -> f64 {
        match self {
            SpawnStyle::Strongest => s.attack as f64 / 40.0,
            SpawnStyle::Defensive => s.defence as f64 / 30.0,
            SpawnStyle::Cheapest => 1.0 - (s.cost as f64 - 2.0) / 8.0,
            SpawnStyle::Fastest => s.movement as f64 / 3.0,
            SpawnStyle::MostHp => s.hp as f64 / 15.0,
            SpawnStyle::LongestRange => s.range as f64 / 3.0,
        }
    }
}

/// The unit type city `city` of `p` would train under `style` now, with its merit.
pub(crate) fn spawn_choice(
    s: &StrategyState,
    p: usize,
    city: usize,
    style: SpawnStyle,
) -> Option<(UnitKind, f64)> {
    let (kinds, k) = spawnable(s, p, city);
    spawn_choice_among(s, style, &kinds[..k])
}

/// The unit types city `city` of `p` may train now, in type order, and how many.
fn spawnable(s: &StrategyState, p: usize, city: usize) -> ([UnitKind; 7], usize) {
    let mut kinds = [UnitKind::Warrior; 7];
    let mut k = 0;
    if s.can_spawn_in(p, city) {
        for kind in UNIT_KINDS {
            if s.can_spawn(p, city, kind) {
                kinds[k] = kind;
                k += 1;
            }
        }
    }
    (kinds, k)
}

/// [`spawn_choice`] among `kinds`, the types the city may train.
fn spawn_choice_among(
    s: &StrategyState,
    style: SpawnStyle,
    kinds: &[UnitKind],
) -> Option<(UnitKind, f64)> {
    let key = |k: UnitKind| {
        let u = s.unit_stats(k);
        (style.merit(u), u.attack, u8::MAX - u.cost)
    };
    kinds
        .iter()
        .copied()
        .max_by(|&a, &b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|k| (k, style.merit(s.unit_stats(k))))
}

/// The lowest-tier technology of `branch` that `p` has not researched, if affordable.
pub(crate) fn branch_research(s: &StrategyState, p: usize, branch: usize) -> Option<Tech> {
    let next = ALL_TECHS
        .into_iter()
        .find(|&t| t.info().branch as usize == branch && !s.has_tech(p, t))?;
    s.can_research(p, next).then_some(next)
}

/// How good an attack looks in [0, 1]: 0.5 plus half the difference between the share
/// of the target's health taken and the share of the attacker's lost (a kill counts 1).
pub(crate) fn attack_value(s: &StrategyState, id: usize, target: usize) -> f64 {
    let c = s.combat(id, target);
    let (a, d) = (s.unit(id), s.unit(target));
    let dealt = (c.dealt as f64 / d.hp as f64).min(1.0);
    let taken = (c.taken as f64 / a.hp as f64).min(1.0);
    (0.5 + (dealt - taken) / 2.0).clamp(0.0, 1.0)
}

/// The best build of each type for each city of `p`: `best[city][building]` is the
/// tile with the most population gained (walls: the city tile), if any.
pub(crate) fn best_builds(s: &StrategyState, p: usize) -> [[Option<(u8, u8)>; 7]; 16] {
    let mut best = [[None; 7]; 16];
    // By building, the tiles `can_build` accepts in tile order: each slot sees its
    // candidates in the order a scan of the tiles would.
    for b in BUILDINGS {
        for t in s.build_sites(p, b).iter() {
            let c = s.tile(t).city;
            let gain = s.build_gain(t, b);
            let slot = &mut best[c as usize][b as usize];
            if slot.is_none_or(|(_, g)| gain > g) {
                *slot = Some((t as u8, gain));
            }
        }
    }
    best
}

/// The build of `p` that adds the most population (at least `min_gain`; ties: the
/// lowest tile), if any.
pub(crate) fn growth_build(s: &StrategyState, p: usize, min_gain: u8) -> Option<Action> {
    best_builds(s, p)
        .iter()
        .take(s.cities().len())
        .flat_map(|row| {
            row.iter()
                .enumerate()
                .filter_map(|(b, x)| x.map(|(t, g)| (g, t, b)))
        })
        .filter(|&(g, _, _)| g >= min_gain.max(1))
        .max_by_key(|&(g, t, _)| (g, u8::MAX - t))
        .map(|(_, tile, b)| Action::Build {
            tile,
            building: Building::from_index(b),
        })
}

/// The distance from tile `t` to the nearest city that `keep` accepts.
pub(crate) fn nearest_city(
    s: &StrategyState,
    t: usize,
    keep: impl Fn(u8) -> bool,
) -> Option<usize> {
    s.cities()
        .iter()
        .filter(|c| keep(c.owner))
        .map(|c| distance(s.size(), t, c.pos as usize))
        .min()
}

/// The tile in unit `id`'s reach that minimises `cost` (ties: the first), if that
/// beats staying put; with the improvement.
pub(crate) fn best_step(
    s: &StrategyState,
    id: usize,
    cost: impl Fn(usize) -> f64,
) -> Option<(u8, f64)> {
    best_step_in(s, id, s.reach(id).as_slice(), cost)
}

/// [`best_step`] over `reach`, unit `id`'s reach computed beforehand.
fn best_step_in(
    s: &StrategyState,
    id: usize,
    reach: &[u8],
    cost: impl Fn(usize) -> f64,
) -> Option<(u8, f64)> {
    if reach.is_empty() {
        return None;
    }
    let here = cost(s.unit(id).pos as usize);
    let mut best: Option<(u8, f64)> = None;
    for &t in reach {
        let c = cost(t as usize);
        if c < here && best.is_none_or(|(_, b)| c < here - b) {
            best = Some((t, here - c));
        }
    }
    best
}

/// Move styles, in script order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveStyle {
    ToCapture,
    Defensively,
    Offensively,
    Converge,
    Diverge,
}

pub(crate) const MOVE_STYLES: [MoveStyle; 5] = [
    MoveStyle::ToCapture,
    MoveStyle::Defensively,
    MoveStyle::Offensively,
    MoveStyle::Converge,
    MoveStyle::Diverge,
];

/// Unit `id`'s move under `style`, with a value in [0, 1], if the style wants one:
/// to capture: onto a city or village not its tribe's within reach; defensively:
/// toward its tribe's nearest city; offensively: toward the nearest enemy city (or
/// village, when the enemy holds no city it can see); converge / diverge: closer to or
/// farther from its friends (sum of distances).
pub(crate) fn move_choice(s: &StrategyState, id: usize, style: MoveStyle) -> Option<(Action, f64)> {
    let reach = s.reach(id);
    if reach.as_slice().is_empty() {
        return None;
    }
    // Moving to capture heads for no place.
    let places = match style {
        MoveStyle::ToCapture => Places::NONE,
        _ => Places::of(s, s.unit(id).owner),
    };
    move_choice_in(s, id, style, reach.as_slice(), &places)
}

/// [`move_choice`] with unit `id`'s tribe's `places` gathered beforehand (see
/// [`Places::of`]), for callers that ask for many units.
pub(crate) fn move_choice_with(
    s: &StrategyState,
    id: usize,
    style: MoveStyle,
    places: &Places,
) -> Option<(Action, f64)> {
    let reach = s.reach(id);
    move_choice_in(s, id, style, reach.as_slice(), places)
}

/// Where a tribe's move scripts head: the tiles of its own cities, of the enemy's
/// cities, of every city not its own (villages too), and of its units; gathered once
/// for all of the tribe's units.
pub(crate) struct Places {
    own: ([u8; MAX_CITIES], usize),
    enemy: ([u8; MAX_CITIES], usize),
    other: ([u8; MAX_CITIES], usize),
    units: ([u8; MAX_UNITS], usize),
}

impl Places {
    const NONE: Places = Places {
        own: ([0; MAX_CITIES], 0),
        enemy: ([0; MAX_CITIES], 0),
        other: ([0; MAX_CITIES], 0),
        units: ([0; MAX_UNITS], 0),
    };

    /// Tribe `p`'s places in `s`.
    pub(crate) fn of(s: &StrategyState, p: u8) -> Places {
        fn add<const N: usize>(list: &mut ([u8; N], usize), t: u8) {
            list.0[list.1] = t;
            list.1 += 1;
        }
        let mut places = Places::NONE;
        for c in s.cities() {
            if c.owner == p {
                add(&mut places.own, c.pos);
            } else {
                add(&mut places.other, c.pos);
                if c.owner != super::state::NONE {
                    add(&mut places.enemy, c.pos);
                }
            }
        }
        for (_, u) in s.units_of(p as usize) {
            add(&mut places.units, u.pos);
        }
        places
    }
}

/// The distance from tile `t` to the nearest tile of `list`, as [`nearest_city`].
fn nearest(grid: &Grid, t: usize, list: &([u8; MAX_CITIES], usize)) -> Option<usize> {
    list.0[..list.1]
        .iter()
        .map(|&c| grid.distance(t, c as usize))
        .min()
}

/// [`move_choice`] over `reach`, unit `id`'s reach computed beforehand, with its
/// tribe's `places`.
fn move_choice_in(
    s: &StrategyState,
    id: usize,
    style: MoveStyle,
    reach: &[u8],
    places: &Places,
) -> Option<(Action, f64)> {
    if reach.is_empty() {
        return None;
    }
    let u = *s.unit(id);
    let p = u.owner;
    let n = s.size();
    let grid = Grid::of(n);
    let big = 4.0 * n as f64;
    let step = match style {
        MoveStyle::ToCapture => {
            let t = reach.iter().copied().find(|&t| {
                s.city_on(t as usize)
                    .is_some_and(|c| s.cities()[c].owner != p)
            })?;
            return Some((
                Action::Move {
                    unit: id as u8,
                    to: t,
                },
                1.0,
            ));
        }
        MoveStyle::Defensively => best_step_in(s, id, reach, |t| {
            nearest(grid, t, &places.own).map_or(big, |d| d as f64)
        }),
        MoveStyle::Offensively => best_step_in(s, id, reach, |t| {
            nearest(grid, t, &places.enemy)
                .or_else(|| nearest(grid, t, &places.other))
                .map_or(big, |d| d as f64)
        }),
        MoveStyle::Converge | MoveStyle::Diverge => {
            let sign = if style == MoveStyle::Converge {
                1.0
            } else {
                -1.0
            };
            // The sum over the other units of the tribe: over all of them, less the
            // unit's own distance (whole numbers, so exactly the same f64).
            let units = &places.units.0[..places.units.1];
            best_step_in(s, id, reach, |t| {
                let all: usize = units.iter().map(|&f| grid.distance(t, f as usize)).sum();
                sign * (all - grid.distance(t, u.pos as usize)) as f64
            })
        }
    }?;
    let moves = s.unit_stats(u.kind).movement as f64;
    let value = match style {
        MoveStyle::Converge | MoveStyle::Diverge => {
            let friends = (s.unit_count(p as usize) - 1).max(1) as f64;
            step.1 / (friends * moves)
        }
        _ => step.1 / moves,
    };
    Some((
        Action::Move {
            unit: id as u8,
            to: step.0,
        },
        value.clamp(0.0, 1.0),
    ))
}

/// Attack styles, in script order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttackStyle {
    Closest,
    Weakest,
    MostDamaged,
    Strongest,
}

pub(crate) const ATTACK_STYLES: [AttackStyle; 4] = [
    AttackStyle::Closest,
    AttackStyle::Weakest,
    AttackStyle::MostDamaged,
    AttackStyle::Strongest,
];

/// Unit `id`'s target under `style` (closest; fewest hit points; lowest share of its
/// hit points; highest attack), with [`attack_value`], if any enemy is in range.
pub(crate) fn attack_choice(
    s: &StrategyState,
    id: usize,
    style: AttackStyle,
) -> Option<(Action, f64)> {
    let (targets, k) = attack_targets(s, id);
    attack_choice_among(s, id, style, &targets[..k])
}

/// The units unit `id` may attack now, in id order, and how many.
fn attack_targets(s: &StrategyState, id: usize) -> ([u8; MAX_UNITS], usize) {
    let mut targets = [0u8; MAX_UNITS];
    let mut k = 0;
    let u = s.unit(id);
    if u.alive && !u.attacked {
        // `can_attack` over the enemy's units (owners are 0 and 1), in id order.
        let (grid, range) = (Grid::of(s.size()), u.kind.stats().range as usize);
        for (tid, d) in s.units_of(1 - u.owner as usize) {
            if grid.distance(u.pos as usize, d.pos as usize) <= range {
                targets[k] = tid as u8;
                k += 1;
            }
        }
    }
    (targets, k)
}

/// [`attack_choice`] among `targets`, the units `id` may attack (in id order).
fn attack_choice_among(
    s: &StrategyState,
    id: usize,
    style: AttackStyle,
    targets: &[u8],
) -> Option<(Action, f64)> {
    let u = s.unit(id);
    if u.attacked {
        return None;
    }
    let n = s.size();
    let key = |tid: usize| -> (f64, usize) {
        let d = s.unit(tid);
        let k = match style {
            AttackStyle::Closest => distance(n, u.pos as usize, d.pos as usize) as f64,
            AttackStyle::Weakest => d.hp as f64,
            AttackStyle::MostDamaged => d.hp as f64 / s.unit_stats(d.kind).hp as f64,
            AttackStyle::Strongest => -(s.unit_stats(d.kind).attack as f64),
        };
        (k, tid)
    };
    let target = targets
        .iter()
        .map(|&tid| key(tid as usize))
        .min_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))?
        .1;
    Some((
        Action::Attack {
            unit: id as u8,
            target: target as u8,
        },
        attack_value(s, id, target),
    ))
}

/// The game's scripts (see [`SCRIPTS`] for their order). A script suggests for one
/// actor: the tribe (research, end turn), a city (spawn, build, level-up) or a unit
/// (capture, attack, move). Values: research 1 for tier 1, 0.75 for tier 2, 0.5 for
/// tier 3; spawn the unit's merit under the style; attack `attack_value`; move the
/// distance gained per movement point; build the population gained / 4 (walls 0.5);
/// capture and level-up 1; end turn 0.5.
#[derive(Clone, Copy, Debug, Default)]
pub struct StrategyScripts;

impl Portfolio<StrategyState> for StrategyScripts {
    fn scripts(&self) -> &[&'static str] {
        &SCRIPTS
    }

    fn suggest(&self, s: &StrategyState, p: usize, out: &mut Vec<Suggestion<Action>>) {
        use playtune_harness::game::Game;
        if s.is_over() || s.current() != p {
            return;
        }
        let mut push = |action: Action, script: usize, value: f64| {
            out.push(Suggestion {
                action,
                script,
                value,
            })
        };
        if let Some(c) = s.pending_level_up(p) {
            push(
                Action::LevelUp {
                    city: c as u8,
                    bonus: Bonus::Growth,
                },
                LEVEL_UP,
                1.0,
            );
            push(
                Action::LevelUp {
                    city: c as u8,
                    bonus: Bonus::Military,
                },
                LEVEL_UP + 1,
                1.0,
            );
            return;
        }
        for branch in 0..BRANCHES.len() {
            if let Some(t) = branch_research(s, p, branch) {
                push(
                    Action::Research(t),
                    branch,
                    1.0 - 0.25 * (t.info().tier - 1) as f64,
                );
            }
        }
        for c in 0..s.cities().len() {
            let (kinds, k) = spawnable(s, p, c);
            if k == 0 {
                continue;
            }
            for (i, style) in SPAWN_STYLES.into_iter().enumerate() {
                if let Some((kind, merit)) = spawn_choice_among(s, style, &kinds[..k]) {
                    push(
                        Action::Spawn {
                            city: c as u8,
                            kind,
                        },
                        5 + i,
                        merit,
                    );
                }
            }
        }
        push(Action::EndTurn, END_TURN, 0.5);
        let mut places = None;
        for id in 0..MAX_UNITS {
            if !s.unit(id).alive || s.unit(id).owner as usize != p {
                continue;
            }
            if s.can_capture(id) {
                push(Action::Capture { unit: id as u8 }, CAPTURE, 1.0);
            }
            // Each unit's targets and reach, found once for all its scripts.
            let (targets, k) = attack_targets(s, id);
            if k > 0 {
                for (i, style) in ATTACK_STYLES.into_iter().enumerate() {
                    if let Some((a, v)) = attack_choice_among(s, id, style, &targets[..k]) {
                        push(a, ATTACK + i, v);
                    }
                }
            }
            let reach = s.reach(id);
            if !reach.as_slice().is_empty() {
                let places = places.get_or_insert_with(|| Places::of(s, p as u8));
                for (i, style) in MOVE_STYLES.into_iter().enumerate() {
                    if let Some((a, v)) = move_choice_in(s, id, style, reach.as_slice(), places) {
                        push(a, MOVE + i, v);
                    }
                }
            }
        }
        let best = best_builds(s, p);
        for row in best.iter().take(s.cities().len()) {
            for (b, slot) in row.iter().enumerate() {
                if let Some((tile, gain)) = *slot {
                    let building = Building::from_index(b);
                    let value = if building == Building::Walls {
                        0.5
                    } else {
                        (gain as f64 / 4.0).min(1.0)
                    };
                    push(Action::Build { tile, building }, BUILD + b, value);
                }
            }
        }
    }
}

/// The index of a script by name.
pub(crate) fn script_index(name: &str) -> Option<usize> {
    SCRIPTS.iter().position(|&s| s == name)
}

/// Script weights from the text of a RON map of script names to weights, e.g.
/// `{"research_farming": 1.0, "spawn_cheapest": 0.25}`; scripts not named weigh 0.5.
/// `file` names the source in errors; an unknown name or a weight outside [0, 1] is an
/// error naming the file and the field.
pub fn parse_weights(text: &str, file: &str) -> Result<ScriptWeights, Error> {
    let map: BTreeMap<String, f64> = ron::from_str(text).map_err(|e| Error::WeightsFormat {
        file: file.to_string(),
        why: e.to_string(),
    })?;
    let mut w = ScriptWeights::uniform(SCRIPTS.len(), 0.5);
    for (name, v) in map {
        let i = script_index(&name).ok_or_else(|| Error::UnknownScript {
            file: file.to_string(),
            field: name.clone(),
        })?;
        if !(0.0..=1.0).contains(&v) {
            return Err(Error::WeightRange {
                file: file.to_string(),
                field: name,
                weight: v,
            });
        }
        w.0[i] = v;
    }
    Ok(w)
}

/// Script weights from a RON file (see [`parse_weights`]).
pub fn read_weights(path: &Path) -> Result<ScriptWeights, Error> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| Error::ReadWeights {
        file: file.clone(),
        source,
    })?;
    parse_weights(&text, &file)
}

/// Script weights from a point of a space whose dimensions are named after scripts
/// (such as `spaces/strategy_script_weights.ron`); scripts not in the space weigh 0.5.
pub fn weights_from_point(space: &Space, values: &[f64]) -> Result<ScriptWeights, Error> {
    if values.len() != space.dims.len() {
        return Err(Error::PointLength {
            space: space.name.clone(),
            values: values.len(),
            dims: space.dims.len(),
        });
    }
    let mut w = ScriptWeights::uniform(SCRIPTS.len(), 0.5);
    for (d, &v) in space.dims.iter().zip(values) {
        let i = script_index(&d.name).ok_or_else(|| Error::NotAScript {
            space: space.name.clone(),
            dimension: d.name.clone(),
        })?;
        w.0[i] = v;
    }
    Ok(w)
}

/// The genome part of `w` (its first [`GENOME_LEN`] weights) as the agents' `weights=`
/// setting takes it: `a/b/c/...`.
pub fn genome_text(w: &ScriptWeights) -> String {
    w.0[..GENOME_LEN]
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join("/")
}
