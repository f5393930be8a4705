//! The game state, its actions and its forward model.
//!
//! Everything lives in fixed-size arrays (3.9 KB with the log), so cloning a state
//! is one flat copy and advancing it never allocates. Beside the board the state
//! keeps a few bit sets up to date (each tribe's territory and units, the sites of
//! each building, the land by row), so that listing or drawing an action, which
//! search agents do at every step, reads masks instead of scanning the board.

use super::level::{Grid, Level, MAX_CITIES, MAX_TILES, distance, neighbours};
use super::log::{GameLog, MAX_TURNS, TurnRecord};
use super::rules::*;
use crate::game::{Acting, Game};
use crate::rng::Rng;
use rand::RngExt;

/// Marks an empty slot (no unit, no city, no building, no owner).
pub const NONE: u8 = u8::MAX;
/// Units (both tribes) the board may hold.
pub(crate) const MAX_UNITS: usize = 48;

/// One action of the acting player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Ends the turn (the other tribe plays next).
    EndTurn,
    /// Moves unit `unit` to tile `to`.
    Move { unit: u8, to: u8 },
    /// Unit `unit` attacks unit `target`.
    Attack { unit: u8, target: u8 },
    /// Unit `unit` captures the city or village it stands on.
    Capture { unit: u8 },
    /// City `city` trains a unit on its tile.
    Spawn { city: u8, kind: UnitKind },
    /// The tribe researches a technology.
    Research(Tech),
    /// Builds on a tile of the tribe's territory.
    Build { tile: u8, building: Building },
    /// A city that levelled up takes its bonus.
    LevelUp { city: u8, bonus: Bonus },
}

impl Action {
    /// Index into [`super::log::ACTION_TYPES`].
    pub(crate) fn type_index(&self) -> usize {
        match self {
            Action::EndTurn => 0,
            Action::Move { .. } => 1,
            Action::Attack { .. } => 2,
            Action::Capture { .. } => 3,
            Action::Spawn { .. } => 4,
            Action::Research(_) => 5,
            Action::Build { .. } => 6,
            Action::LevelUp { .. } => 7,
        }
    }
}

/// How a game is played on a level.
#[derive(Clone, Debug, PartialEq)]
pub struct GameConfig {
    /// Turns each tribe plays before the game is decided by score (at most 64).
    pub turn_limit: u16,
    /// Actions in one turn after which the turn ends by itself.
    pub action_cap: u16,
    /// The numbers of the rules.
    pub rules: &'static RuleSet,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            turn_limit: 30,
            action_cap: 100,
            rules: &DEFAULT_RULES,
        }
    }
}

/// One tile of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub terrain: Terrain,
    pub resource: Resource,
    /// The building on it, if any.
    pub building: Option<Building>,
    /// The city whose territory it is ([`NONE`]: nobody's).
    pub city: u8,
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub kind: UnitKind,
    pub owner: u8,
    pub pos: u8,
    pub hp: u8,
    /// The city that supports it ([`NONE`]: a free unit).
    pub home: u8,
    pub moved: bool,
    pub attacked: bool,
    pub alive: bool,
}

/// A city or a neutral village.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct City {
    pub pos: u8,
    /// The tribe that holds it ([`NONE`]: a neutral village).
    pub owner: u8,
    pub level: u8,
    /// Population toward the next level.
    pub pop: u8,
    /// The tribe whose capital it was at the start ([`NONE`] for villages).
    pub capital_of: u8,
    /// Extra stars per turn from growth bonuses.
    pub growth: u8,
    pub walls: bool,
    /// Level-ups waiting for their bonus choice.
    pub pending: u8,
    /// Territory radius (1, 2 from level 3).
    pub radius: u8,
    /// Tiles of its territory.
    pub tiles: u8,
    /// Units it supports.
    pub units: u8,
}

/// A tribe's purse and knowledge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tribe {
    pub stars: u16,
    /// Researched technologies, one bit per [`Tech`].
    pub techs: u16,
}

/// A set of tiles, one bit each; iterated in tile order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileSet([u64; 4]);

impl TileSet {
    pub fn contains(&self, t: usize) -> bool {
        t < MAX_TILES && self.0[t >> 6] & (1 << (t & 63)) != 0
    }

    fn set(&mut self, t: usize, on: bool) {
        let bit = 1u64 << (t & 63);
        if on {
            self.0[t >> 6] |= bit;
        } else {
            self.0[t >> 6] &= !bit;
        }
    }

    /// The tiles in both sets.
    pub fn and(self, other: TileSet) -> TileSet {
        TileSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// How many tiles.
    pub fn len(&self) -> usize {
        self.0
            .iter()
            .filter(|&&w| w != 0)
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The tiles, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    64 * i + b
                })
            })
        })
    }
}

/// The tiles a unit may move to this turn (at most 48: movement is at most 3).
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    tiles: [u8; 48],
    len: u8,
}

impl Reach {
    pub fn as_slice(&self) -> &[u8] {
        &self.tiles[..self.len as usize]
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

/// A set of tiles as a row of column bits per board row (where a tribe's units stand,
/// say): answers "how many within distance r of this tile" with a few masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rows([u16; 16]);

impl Rows {
    /// The columns within `r` of column `x`.
    fn window(x: usize, r: usize) -> u16 {
        (((1u32 << (2 * r + 1)) - 1) << x >> r) as u16
    }

    /// Whether a marked tile lies within Chebyshev distance `r` of column `x`, row `y`.
    fn near(&self, x: usize, y: usize, r: usize) -> bool {
        let cols = Rows::window(x, r);
        let (lo, hi) = (y.saturating_sub(r), (y + r).min(15));
        self.0[lo..=hi].iter().any(|&row| row & cols != 0)
    }

    /// How many marked tiles lie within Chebyshev distance `r` of column `x`, row `y`.
    fn count_near(&self, x: usize, y: usize, r: usize) -> usize {
        let (lo, hi) = (y.saturating_sub(r), (y + r).min(15));
        if r > 3 {
            let cols = Rows::window(x, r);
            return self.0[lo..=hi]
                .iter()
                .map(|&row| (row & cols).count_ones() as usize)
                .sum();
        }
        // The window's columns brought down to the low 2r + 1 <= 7 bits and counted
        // by table (the baseline x86-64 target has no popcount instruction).
        let mask = (1u32 << (2 * r + 1)) - 1;
        self.0[lo..=hi]
            .iter()
            .map(|&row| ONES[((((row as u32) << r) >> x) & mask) as usize] as usize)
            .sum()
    }
}

/// The number of set bits of each byte.
static ONES: [u8; 256] = {
    let mut ones = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        ones[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    ones
};

/// The outcome of an attack before it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combat {
    /// Damage dealt to the defender.
    pub dealt: u8,
    /// Damage the attacker takes back (0 if the defender dies or cannot reach).
    pub taken: u8,
}

/// The game: board, tribes, turn, and the log.
#[derive(Clone, Debug)]
pub struct StrategyState {
    size: u8,
    seed: u64,
    tiles: [Tile; MAX_TILES],
    unit_at: [u8; MAX_TILES],
    units: [Unit; MAX_UNITS],
    cities: [City; MAX_CITIES],
    n_cities: u8,
    tribes: [Tribe; 2],
    unit_count: [u8; 2],
    current: u8,
    /// Round, from 0; tribe p's k-th turn is in round k.
    turn: u16,
    actions_this_turn: u16,
    steps: u32,
    turn_limit: u16,
    action_cap: u16,
    over: bool,
    log: GameLog,
    rules: &'static RuleSet,
    /// Each tribe's territory: the tiles of the cities it holds (kept with the tiles'
    /// cities and the cities' owners).
    territory: [TileSet; 2],
    /// By [`Building`], the tiles that suit it ([`StrategyState::site_fits`]; kept with
    /// the tiles).
    sites: [TileSet; 7],
    /// Each tribe's living units, one bit per unit id (kept with the units).
    alive: [u64; 2],
    /// Plains and forests, and mountains, by row (kept with the tiles).
    land: Rows,
    mountains: Rows,
}

const DEAD: Unit = Unit {
    kind: UnitKind::Warrior,
    owner: NONE,
    pos: NONE,
    hp: 0,
    home: NONE,
    moved: true,
    attacked: true,
    alive: false,
};

const NO_CITY: City = City {
    pos: NONE,
    owner: NONE,
    level: 1,
    pop: 0,
    capital_of: NONE,
    growth: 0,
    walls: false,
    pending: 0,
    radius: 1,
    tiles: 0,
    units: 0,
};

impl StrategyState {
    /// The start of a game on `level`: each tribe has its capital (level 1, its
    /// territory around it) and a warrior on it.
    pub fn new(level: &Level, config: &GameConfig) -> Result<StrategyState, super::Error> {
        if config.turn_limit == 0 || config.turn_limit as usize > MAX_TURNS {
            return Err(super::Error::config(
                "turn_limit",
                format!("{} is outside 1..={MAX_TURNS}", config.turn_limit),
            ));
        }
        if config.action_cap == 0 {
            return Err(super::Error::config("action_cap", "must be at least 1"));
        }
        let n = level.size;
        let mut s = StrategyState {
            size: n as u8,
            seed: level.seed,
            tiles: [Tile {
                terrain: Terrain::Water,
                resource: Resource::None,
                building: None,
                city: NONE,
            }; MAX_TILES],
            unit_at: [NONE; MAX_TILES],
            units: [DEAD; MAX_UNITS],
            cities: [NO_CITY; MAX_CITIES],
            n_cities: 0,
            tribes: [Tribe {
                stars: config.rules.start_stars,
                techs: 0,
            }; 2],
            unit_count: [0; 2],
            current: 0,
            turn: 0,
            actions_this_turn: 0,
            steps: 0,
            turn_limit: config.turn_limit,
            action_cap: config.action_cap,
            over: false,
            log: GameLog::default(),
            rules: config.rules,
            territory: [TileSet::default(); 2],
            sites: [TileSet::default(); 7],
            alive: [0; 2],
            land: Rows([0; 16]),
            mountains: Rows([0; 16]),
        };
        for t in 0..n * n {
            s.tiles[t].terrain = level.terrain[t];
            s.tiles[t].resource = level.resource[t];
        }
        for (i, c) in level.cities().enumerate() {
            let capital = i < 2;
            s.cities[i] = City {
                pos: c as u8,
                capital_of: if capital { i as u8 } else { NONE },
                ..NO_CITY
            };
            s.tiles[c].city = i as u8;
            s.cities[i].tiles = 1;
            s.n_cities += 1;
        }
        for t in 0..n * n {
            s.refresh_sites(t);
            s.refresh_terrain(t);
        }
        for p in 0..2 {
            s.cities[p].owner = p as u8;
            s.claim(p);
            let id = s.add_unit(p, UnitKind::Warrior, level.capitals[p], NONE);
            debug_assert!(id.is_some());
            // The starting warrior is no spawn.
            s.log.spawned[p][UnitKind::Warrior as usize] = 0;
        }
        s.start_turn();
        Ok(s)
    }

    /// The game on the level of `seed` with the default level and game settings.
    pub fn from_seed(seed: u64) -> StrategyState {
        let level = Level::generate(seed, &Default::default()).expect("default level config");
        StrategyState::new(&level, &GameConfig::default()).expect("default game config")
    }

    // ----- reading -----

    pub fn size(&self) -> usize {
        self.size as usize
    }
    /// The seed of the level the game is played on.
    pub fn level_seed(&self) -> u64 {
        self.seed
    }
    pub fn tile(&self, t: usize) -> &Tile {
        &self.tiles[t]
    }
    /// The id of the unit on tile `t`, if any.
    pub fn unit_at(&self, t: usize) -> Option<usize> {
        let u = self.unit_at[t];
        (u != NONE).then_some(u as usize)
    }
    pub fn unit(&self, id: usize) -> &Unit {
        &self.units[id]
    }
    /// Living units with their ids.
    pub fn units(&self) -> impl Iterator<Item = (usize, &Unit)> {
        bits(self.alive[0] | self.alive[1]).map(|id| (id, &self.units[id]))
    }
    /// Living units of tribe `p`.
    pub(crate) fn units_of(&self, p: usize) -> impl Iterator<Item = (usize, &Unit)> {
        bits(self.alive[p]).map(|id| (id, &self.units[id]))
    }
    pub(crate) fn unit_count(&self, p: usize) -> usize {
        self.unit_count[p] as usize
    }
    /// Every city and village, with its index.
    pub fn cities(&self) -> &[City] {
        &self.cities[..self.n_cities as usize]
    }
    /// The index of the city on tile `t`, if any.
    pub(crate) fn city_on(&self, t: usize) -> Option<usize> {
        let c = self.tiles[t].city;
        (c != NONE && self.cities[c as usize].pos as usize == t).then_some(c as usize)
    }
    pub fn tribe(&self, p: usize) -> &Tribe {
        &self.tribes[p]
    }
    pub fn stars(&self, p: usize) -> u16 {
        self.tribes[p].stars
    }
    pub(crate) fn has_tech(&self, p: usize, t: Tech) -> bool {
        self.tribes[p].techs & t.bit() != 0
    }
    pub(crate) fn tech_count(&self, p: usize) -> u32 {
        self.tribes[p].techs.count_ones()
    }
    /// The round being played (from 0).
    pub fn turn(&self) -> u16 {
        self.turn
    }
    pub fn turn_limit(&self) -> u16 {
        self.turn_limit
    }
    /// The tribe to act.
    pub fn current(&self) -> usize {
        self.current as usize
    }
    pub fn actions_this_turn(&self) -> u16 {
        self.actions_this_turn
    }
    pub fn log(&self) -> &GameLog {
        &self.log
    }
    /// The sole winner once the game is over (`None`: a draw, or not over).
    pub fn winner(&self) -> Option<usize> {
        self.log.winner.map(|w| w as usize)
    }
    /// Cities tribe `p` holds.
    pub fn city_count(&self, p: usize) -> usize {
        self.cities()
            .iter()
            .filter(|c| c.owner as usize == p)
            .count()
    }
    /// Tiles of tribe `p`'s territory.
    pub fn tiles_owned(&self, p: usize) -> usize {
        self.cities()
            .iter()
            .filter(|c| c.owner as usize == p)
            .map(|c| c.tiles as usize)
            .sum()
    }
    /// Stars tribe `p` earns per turn: each city its level, its growth bonuses, and one
    /// more for an own capital.
    pub fn production(&self, p: usize) -> u16 {
        self.cities()
            .iter()
            .filter(|c| c.owner as usize == p)
            .map(|c| c.level as u16 + c.growth as u16 + (c.capital_of as usize == p) as u16)
            .sum()
    }
    /// The cost of `tech` for tribe `p` now.
    /// The rules this game is played under.
    pub fn rules(&self) -> &'static RuleSet {
        self.rules
    }

    /// A unit type's numbers under this game's rules.
    pub(crate) fn unit_stats(&self, kind: UnitKind) -> &'static UnitStats {
        self.rules.unit(kind)
    }

    pub fn tech_cost(&self, p: usize, tech: Tech) -> u16 {
        self.rules
            .tech_cost(tech.info().tier, self.city_count(p) as u8)
    }
    /// The first city of `p` whose level-up bonus is still to choose.
    pub fn pending_level_up(&self, p: usize) -> Option<usize> {
        self.cities()
            .iter()
            .position(|c| c.owner as usize == p && c.pending > 0)
    }

    /// The score of tribe `p`: 10 per territory tile, 50 per city level, 30 per tier of
    /// each technology researched, 5 per star of living units' cost.
    pub(crate) fn score_of(&self, p: usize) -> u32 {
        let levels: u32 = self
            .cities()
            .iter()
            .filter(|c| c.owner as usize == p)
            .map(|c| c.level as u32)
            .sum();
        let tiers: u32 = ALL_TECHS
            .iter()
            .filter(|&&t| self.has_tech(p, t))
            .map(|t| t.info().tier as u32)
            .sum();
        let army: u32 = self
            .units_of(p)
            .map(|(_, u)| self.rules.unit(u.kind).cost as u32)
            .sum();
        10 * self.tiles_owned(p) as u32 + 50 * levels + 30 * tiers + 5 * army
    }

    // ----- rules: what is legal -----

    /// Whether tribe `p` may enter terrain `terrain`.
    pub(crate) fn can_enter(&self, p: usize, terrain: Terrain) -> bool {
        match terrain {
            Terrain::Water => false,
            Terrain::Mountain => self.has_tech(p, Tech::Climbing),
            _ => true,
        }
    }

    /// The tiles unit `id` may move to now (empty once it moved or attacked). A step
    /// costs one movement point; entering a forest or a mountain, or a tile next to an
    /// enemy unit, ends the move; units pass through friends but not enemies. The
    /// tiles come in the order a breadth-first search finds them (neighbours in the
    /// order of [`neighbours`]).
    pub fn reach(&self, id: usize) -> Reach {
        let u = &self.units[id];
        if u.alive && self.rules.unit(u.kind).movement > 1 {
            self.reach_with(id, &self.rows_of(1 - u.owner as usize))
        } else {
            // A single step never asks where the enemies stand.
            self.reach_with(id, &Rows([0; 16]))
        }
    }

    /// Where tribe `q`'s units stand.
    fn rows_of(&self, q: usize) -> Rows {
        let grid = Grid::of(self.size());
        let mut rows = Rows([0; 16]);
        for id in bits(self.alive[q]) {
            let (x, y) = grid.xy(self.units[id].pos as usize);
            rows.0[y] |= 1 << x;
        }
        rows
    }

    /// [`StrategyState::reach`], `enemies` the rows of the unit's enemies.
    fn reach_with(&self, id: usize, enemies: &Rows) -> Reach {
        let mut out = Reach {
            tiles: [0; 48],
            len: 0,
        };
        let u = &self.units[id];
        if !u.alive || u.moved || u.attacked {
            return out;
        }
        let grid = Grid::of(self.size());
        let climb = self.has_tech(u.owner as usize, Tech::Climbing);
        let movement = self.rules.unit(u.kind).movement;
        if movement == 1 {
            // One step: the free neighbours it may enter, in order (the search below
            // finds exactly these).
            // Branch-free: every neighbour is written, and counted if it fits.
            for &v in grid.neighbours(u.pos as usize) {
                let terrain = self.tiles[v as usize].terrain;
                let enter = (terrain == Terrain::Plain)
                    | (terrain == Terrain::Forest)
                    | ((terrain == Terrain::Mountain) & climb);
                out.tiles[out.len as usize] = v;
                out.len += (enter & (self.unit_at[v as usize] == NONE)) as u8;
            }
            return out;
        }
        let mut seen = [0u64; 4];
        let mark = |seen: &mut [u64; 4], t: usize| seen[t >> 6] |= 1 << (t & 63);
        let is = |seen: &[u64; 4], t: usize| seen[t >> 6] & (1 << (t & 63)) != 0;
        let (mut qt, mut qr) = ([0u8; 49], [0u8; 49]);
        let (mut head, mut tail) = (0, 1);
        qt[0] = u.pos;
        qr[0] = movement;
        mark(&mut seen, u.pos as usize);
        while head < tail {
            let (t, r) = (qt[head] as usize, qr[head]);
            head += 1;
            if r == 0 {
                continue;
            }
            for &v in grid.neighbours(t) {
                let v = v as usize;
                if is(&seen, v) {
                    continue;
                }
                mark(&mut seen, v);
                let terrain = self.tiles[v].terrain;
                let enter = match terrain {
                    Terrain::Water => false,
                    Terrain::Mountain => climb,
                    _ => true,
                };
                if !enter {
                    continue;
                }
                let occ = self.unit_at[v];
                if occ != NONE && self.units[occ as usize].owner != u.owner {
                    continue;
                }
                if occ == NONE {
                    out.tiles[out.len as usize] = v as u8;
                    out.len += 1;
                }
                // A tile with no movement left after it (the last step, or one that
                // ends the move: a forest, a mountain, a tile next to an enemy) is
                // never searched from, so it need not be queued. No enemy stands on
                // `v` itself, so an enemy within one of it is next to it.
                if r > 1 && !matches!(terrain, Terrain::Forest | Terrain::Mountain) && {
                    let (x, y) = grid.xy(v);
                    !enemies.near(x, y, 1)
                } {
                    qt[tail] = v as u8;
                    qr[tail] = r - 1;
                    tail += 1;
                }
            }
        }
        out
    }

    /// Whether unit `id` may move to tile `to` now: `reach(id)` holds `to`, answered
    /// without the search where the tile settles it (off the board, taken, impassable,
    /// beyond the unit's movement, or next to it).
    pub(crate) fn can_move_to(&self, id: usize, to: usize) -> bool {
        let u = &self.units[id];
        if !u.alive || u.moved || u.attacked {
            return false;
        }
        let n = self.size();
        if to >= n * n
            || self.unit_at[to] != NONE
            || !self.can_enter(u.owner as usize, self.tiles[to].terrain)
        {
            return false;
        }
        let d = Grid::of(n).distance(u.pos as usize, to);
        let movement = self.rules.unit(u.kind).movement as usize;
        if d == 0 || d > movement {
            return false;
        }
        if d == 1 {
            // The search looks at every neighbour of the start first.
            return true;
        }
        self.reach(id).as_slice().contains(&(to as u8))
    }

    /// Whether unit `id` may attack unit `target` now.
    pub fn can_attack(&self, id: usize, target: usize) -> bool {
        let (a, d) = (&self.units[id], &self.units[target]);
        a.alive
            && d.alive
            && !a.attacked
            && a.owner != d.owner
            && distance(self.size(), a.pos as usize, d.pos as usize)
                <= a.kind.stats().range as usize
    }

    /// The defence multiplier of unit `id` where it stands, in halves (2 = x1).
    pub(crate) fn defence_bonus(&self, id: usize) -> u32 {
        let u = &self.units[id];
        let p = u.owner as usize;
        let t = u.pos as usize;
        if let Some(c) = self.city_on(t) {
            let c = &self.cities[c];
            if c.owner == u.owner {
                return if c.walls { 6 } else { 3 };
            }
        }
        match self.tiles[t].terrain {
            Terrain::Forest if self.has_tech(p, Tech::Archery) => 3,
            Terrain::Mountain if self.has_tech(p, Tech::Climbing) => 3,
            _ => 2,
        }
    }

    /// What an attack of `id` on `target` would do (Polytopia's formula: forces are
    /// attack and defence scaled by health, the defence by its bonus; damage is the
    /// attacker's share of the total force times attack times 4.5, rounded; the
    /// defender strikes back likewise if it survives and the attacker is in its range).
    pub fn combat(&self, id: usize, target: usize) -> Combat {
        let (a, d) = (&self.units[id], &self.units[target]);
        let (sa, sd) = (self.rules.unit(a.kind), self.rules.unit(d.kind));
        let af = sa.attack as u64 * a.hp as u64 * sd.hp as u64 * 2;
        let df = sd.defence as u64 * d.hp as u64 * sa.hp as u64 * self.defence_bonus(target) as u64;
        let total = af + df;
        if total == 0 {
            return Combat { dealt: 0, taken: 0 };
        }
        let round = |num: u64, den: u64| ((2 * num + den) / (2 * den)) as u8;
        let dealt = round(af * sa.attack as u64 * 45, total * 100);
        let reaches = distance(self.size(), a.pos as usize, d.pos as usize) <= sd.range as usize;
        let taken = if dealt >= d.hp || !reaches {
            0
        } else {
            round(df * sd.defence as u64 * 45, total * 100)
        };
        Combat { dealt, taken }
    }

    /// Whether unit `id` may capture the city or village it stands on: not its tribe's,
    /// and the unit has neither moved nor attacked this turn.
    pub fn can_capture(&self, id: usize) -> bool {
        let u = &self.units[id];
        u.alive
            && !u.moved
            && !u.attacked
            && self
                .city_on(u.pos as usize)
                .is_some_and(|c| self.cities[c].owner != u.owner)
    }

    /// Whether tribe `p` knows the technology a unit type needs.
    pub fn unit_unlocked(&self, p: usize, kind: UnitKind) -> bool {
        kind.stats().tech.is_none_or(|t| self.has_tech(p, t))
    }

    /// Whether city `city` of tribe `p` may train `kind` now: its tile is free, it
    /// supports fewer units than its level + 1, the tech is known and stars suffice.
    pub(crate) fn can_spawn(&self, p: usize, city: usize, kind: UnitKind) -> bool {
        self.can_spawn_in(p, city)
            && self.unit_unlocked(p, kind)
            && self.tribes[p].stars >= self.rules.unit(kind).cost as u16
    }

    /// Whether city `city` of `p` can train any unit type it could afford.
    pub(crate) fn can_spawn_in(&self, p: usize, city: usize) -> bool {
        let c = &self.cities[city];
        city < self.n_cities as usize
            && c.owner as usize == p
            && self.unit_at[c.pos as usize] == NONE
            && c.units <= c.level
            && (self.unit_count[0] + self.unit_count[1]) < MAX_UNITS as u8
    }

    /// Whether tribe `p` may research `tech` now.
    pub fn can_research(&self, p: usize, tech: Tech) -> bool {
        !self.has_tech(p, tech)
            && tech.prerequisite().is_none_or(|t| self.has_tech(p, t))
            && self.tribes[p].stars >= self.tech_cost(p, tech)
    }

    /// Population `building` would add on tile `t` (0 for walls).
    pub fn build_gain(&self, t: usize, building: Building) -> u8 {
        let count = |b: Building| {
            let mut nb = [0; 8];
            let k = neighbours(self.size(), t, &mut nb);
            nb[..k]
                .iter()
                .filter(|&&u| self.tiles[u].building == Some(b))
                .count() as u8
        };
        match building {
            Building::Harvest | Building::LumberHut => 1,
            Building::Farm | Building::Mine => 2,
            Building::Windmill => count(Building::Farm).max(1),
            Building::Forge => 2 * count(Building::Mine).max(1),
            Building::Walls => 0,
        }
    }

    /// Whether the tile suits the building, tech and stars aside.
    pub(crate) fn site_fits(&self, t: usize, building: Building) -> bool {
        let tile = &self.tiles[t];
        let city_tile = self.city_on(t);
        if building == Building::Walls {
            return city_tile.is_some_and(|c| !self.cities[c].walls);
        }
        if tile.building.is_some() || city_tile.is_some() {
            return false;
        }
        match building {
            Building::Harvest => matches!(tile.resource, Resource::Fruit | Resource::Animal),
            Building::Farm => tile.resource == Resource::Crop,
            Building::Windmill | Building::Forge => {
                tile.terrain == Terrain::Plain && tile.resource == Resource::None
            }
            Building::LumberHut => {
                tile.terrain == Terrain::Forest && tile.resource == Resource::None
            }
            Building::Mine => tile.resource == Resource::Ore,
            Building::Walls => false,
        }
    }

    /// Whether tribe `p` may build `building` on tile `t` now.
    pub fn can_build(&self, p: usize, t: usize, building: Building) -> bool {
        let c = self.tiles[t].city;
        c != NONE
            && self.cities[c as usize].owner as usize == p
            && self.has_tech(p, building.info().tech)
            && self.tribes[p].stars >= self.rules.building_cost(building) as u16
            && self.site_fits(t, building)
    }

    /// Whether `action` is legal for `player` now.
    pub fn is_legal(&self, player: usize, action: &Action) -> bool {
        if self.over || player != self.current() {
            return false;
        }
        if let Some(c) = self.pending_level_up(player) {
            return matches!(action, Action::LevelUp { city, .. } if *city as usize == c);
        }
        let own = |u: u8| {
            (u as usize) < MAX_UNITS
                && self.units[u as usize].alive
                && self.units[u as usize].owner as usize == player
        };
        match *action {
            Action::EndTurn => true,
            Action::Move { unit, to } => own(unit) && self.can_move_to(unit as usize, to as usize),
            Action::Attack { unit, target } => {
                own(unit)
                    && (target as usize) < MAX_UNITS
                    && self.can_attack(unit as usize, target as usize)
            }
            Action::Capture { unit } => own(unit) && self.can_capture(unit as usize),
            Action::Spawn { city, kind } => self.can_spawn(player, city as usize, kind),
            Action::Research(t) => self.can_research(player, t),
            Action::Build { tile, building } => {
                (tile as usize) < self.size() * self.size()
                    && self.can_build(player, tile as usize, building)
            }
            Action::LevelUp { .. } => false,
        }
    }

    /// Every legal action of `player`, in a fixed order: a pending level-up's two
    /// choices alone; else end turn, research, spawns, builds, captures, attacks, moves.
    pub(crate) fn actions_into(&self, player: usize, out: &mut Vec<Action>) {
        out.clear();
        if self.over || player != self.current() {
            return;
        }
        if let Some(c) = self.pending_level_up(player) {
            for bonus in [Bonus::Growth, Bonus::Military] {
                out.push(Action::LevelUp {
                    city: c as u8,
                    bonus,
                });
            }
            return;
        }
        out.push(Action::EndTurn);
        let tribe = self.tribes[player];
        let cities = self.city_count(player) as u8;
        for t in ALL_TECHS {
            // `can_research`, with the city count taken once.
            if tribe.techs & t.bit() == 0
                && t.prerequisite().is_none_or(|q| tribe.techs & q.bit() != 0)
                && tribe.stars >= self.rules.tech_cost(t.info().tier, cities)
            {
                out.push(Action::Research(t));
            }
        }
        for c in 0..self.n_cities as usize {
            if self.can_spawn_in(player, c) {
                for k in UNIT_KINDS {
                    if self.can_spawn(player, c, k) {
                        out.push(Action::Spawn {
                            city: c as u8,
                            kind: k,
                        });
                    }
                }
            }
        }
        for b in BUILDINGS {
            for t in self.build_sites(player, b).iter() {
                out.push(Action::Build {
                    tile: t as u8,
                    building: b,
                });
            }
        }
        // The enemy units, in id order, and where they stand.
        let grid = Grid::of(self.size());
        let mut enemies = [(0u8, 0u8); MAX_UNITS];
        let mut n_enemies = 0;
        for tid in bits(self.alive[1 - player]) {
            enemies[n_enemies] = (tid as u8, self.units[tid].pos);
            n_enemies += 1;
        }
        let rows = self.rows_of(1 - player);
        for id in bits(self.alive[player]) {
            let u = &self.units[id];
            if self.can_capture(id) {
                out.push(Action::Capture { unit: id as u8 });
            }
            if !u.attacked {
                let range = u.kind.stats().range as usize;
                let (x, y) = grid.xy(u.pos as usize);
                if rows.near(x, y, range) {
                    for &(tid, pos) in &enemies[..n_enemies] {
                        // `can_attack`: both alive, the attacker has not attacked,
                        // owners differ.
                        if grid.distance(u.pos as usize, pos as usize) <= range {
                            out.push(Action::Attack {
                                unit: id as u8,
                                target: tid,
                            });
                        }
                    }
                }
            }
            if !u.moved {
                for &to in self.reach_with(id, &rows).as_slice() {
                    out.push(Action::Move { unit: id as u8, to });
                }
            }
        }
    }

    /// The tiles where tribe `p` may build `building` now: the tiles `can_build`
    /// accepts, in tile order.
    pub(crate) fn build_sites(&self, p: usize, building: Building) -> TileSet {
        if !self.has_tech(p, building.info().tech)
            || self.tribes[p].stars < self.rules.building_cost(building) as u16
        {
            return TileSet::default();
        }
        self.territory[p].and(self.sites[building as usize])
    }

    /// Recomputes which buildings suit tile `t`.
    fn refresh_sites(&mut self, t: usize) {
        for b in BUILDINGS {
            let fits = self.site_fits(t, b);
            self.sites[b as usize].set(t, fits);
        }
    }

    /// Records tile `t`'s terrain in the rows of land and mountains.
    fn refresh_terrain(&mut self, t: usize) {
        let (x, y) = Grid::of(self.size()).xy(t);
        let terrain = self.tiles[t].terrain;
        let bit = 1u16 << x;
        self.land.0[y] &= !bit;
        self.mountains.0[y] &= !bit;
        match terrain {
            Terrain::Plain | Terrain::Forest => self.land.0[y] |= bit,
            Terrain::Mountain => self.mountains.0[y] |= bit,
            Terrain::Water => {}
        }
    }

    /// Recomputes both tribes' territories.
    fn refresh_territory(&mut self) {
        self.territory = [TileSet::default(); 2];
        for t in 0..self.size() * self.size() {
            let c = self.tiles[t].city;
            if c != NONE {
                let owner = self.cities[c as usize].owner;
                if owner != NONE {
                    self.territory[owner as usize].set(t, true);
                }
            }
        }
    }

    /// A uniformly random legal action of `player`: `actions_into`'s list at an index
    /// drawn with `rng.random_range(0..len)` (`None` if the list is empty), found
    /// without making the list: each part of it is counted (the moves of a one-step
    /// unit and the attacks of a unit by masks of rows), then only the part holding
    /// the index is made.
    pub(crate) fn random_action_of(&self, player: usize, rng: &mut Rng) -> Option<Action> {
        if self.over || player != self.current() {
            return None;
        }
        if let Some(c) = self.pending_level_up(player) {
            let bonus = [Bonus::Growth, Bonus::Military][rng.random_range(0..2usize)];
            return Some(Action::LevelUp {
                city: c as u8,
                bonus,
            });
        }
        // The parts in list order: end turn, research, spawns, builds, then each unit's
        // capture, attacks and moves.
        let tribe = self.tribes[player];
        let cities = self.city_count(player) as u8;
        let researchable = |t: Tech| {
            tribe.techs & t.bit() == 0
                && t.prerequisite().is_none_or(|q| tribe.techs & q.bit() != 0)
                && tribe.stars >= self.rules.tech_cost(t.info().tier, cities)
        };
        let research = ALL_TECHS.iter().filter(|&&t| researchable(t)).count();
        let mut spawns = 0;
        for c in 0..self.n_cities as usize {
            if self.can_spawn_in(player, c) {
                spawns += UNIT_KINDS
                    .iter()
                    .filter(|&&k| self.can_spawn(player, c, k))
                    .count();
            }
        }
        let sites: [TileSet; 7] = std::array::from_fn(|b| self.build_sites(player, BUILDINGS[b]));
        let builds: usize = sites.iter().map(|s| s.len()).sum();
        let grid = Grid::of(self.size());
        let enemies = self.rows_of(1 - player);
        let mut occupied = enemies;
        for id in bits(self.alive[player]) {
            let (x, y) = grid.xy(self.units[id].pos as usize);
            occupied.0[y] |= 1 << x;
        }
        let climb = self.has_tech(player, Tech::Climbing);
        let free = Rows(std::array::from_fn(|y| {
            (self.land.0[y] | if climb { self.mountains.0[y] } else { 0 }) & !occupied.0[y]
        }));
        // Each unit's share of the list, in id order.
        let mut per_unit = [(0u8, 0u8); MAX_UNITS];
        let mut n_units = 0;
        let mut moves_and_fights = 0;
        for id in bits(self.alive[player]) {
            let u = &self.units[id];
            let (x, y) = grid.xy(u.pos as usize);
            let mut k = self.can_capture(id) as usize;
            if !u.attacked {
                k += enemies.count_near(x, y, u.kind.stats().range as usize);
            }
            if !u.moved && !u.attacked {
                k += match self.rules.unit(u.kind).movement {
                    // The free neighbours it may enter (its own tile is taken).
                    1 => free.count_near(x, y, 1),
                    _ => self.reach_with(id, &enemies).len as usize,
                };
            }
            per_unit[n_units] = (id as u8, k as u8);
            n_units += 1;
            moves_and_fights += k;
        }
        let total = 1 + research + spawns + builds + moves_and_fights;
        let mut k = rng.random_range(0..total);
        if k == 0 {
            return Some(Action::EndTurn);
        }
        k -= 1;
        if k < research {
            let t = ALL_TECHS.into_iter().filter(|&t| researchable(t)).nth(k);
            return t.map(Action::Research);
        }
        k -= research;
        if k < spawns {
            for c in 0..self.n_cities as usize {
                if self.can_spawn_in(player, c) {
                    for kind in UNIT_KINDS {
                        if self.can_spawn(player, c, kind) {
                            if k == 0 {
                                return Some(Action::Spawn {
                                    city: c as u8,
                                    kind,
                                });
                            }
                            k -= 1;
                        }
                    }
                }
            }
            unreachable!("the spawns were counted");
        }
        k -= spawns;
        if k < builds {
            for (b, set) in sites.iter().enumerate() {
                let len = set.len();
                if k < len {
                    let tile = set.iter().nth(k).expect("counted") as u8;
                    return Some(Action::Build {
                        tile,
                        building: BUILDINGS[b],
                    });
                }
                k -= len;
            }
            unreachable!("the builds were counted");
        }
        k -= builds;
        for &(id, share) in &per_unit[..n_units] {
            let share = share as usize;
            if k >= share {
                k -= share;
                continue;
            }
            // This unit's part of the list, made as `actions_into` makes it.
            let (id, u) = (id as usize, &self.units[id as usize]);
            if self.can_capture(id) {
                if k == 0 {
                    return Some(Action::Capture { unit: id as u8 });
                }
                k -= 1;
            }
            if !u.attacked {
                let range = u.kind.stats().range as usize;
                for target in bits(self.alive[1 - player]) {
                    if grid.distance(u.pos as usize, self.units[target].pos as usize) <= range {
                        if k == 0 {
                            return Some(Action::Attack {
                                unit: id as u8,
                                target: target as u8,
                            });
                        }
                        k -= 1;
                    }
                }
            }
            let reach = self.reach_with(id, &enemies);
            return Some(Action::Move {
                unit: id as u8,
                to: reach.as_slice()[k],
            });
        }
        unreachable!("the units' actions were counted")
    }

    // ----- the forward model -----

    /// Plays `action` for the acting tribe. Illegal actions are a bug of the caller:
    /// they are checked in debug builds and otherwise end the turn.
    pub fn play(&mut self, action: &Action) {
        if self.over {
            return;
        }
        let p = self.current();
        debug_assert!(self.is_legal(p, action), "illegal action {action:?}");
        let action = if self.is_legal(p, action) {
            *action
        } else {
            Action::EndTurn
        };
        self.steps += 1;
        self.actions_this_turn += 1;
        self.log.actions[p][action.type_index()] += 1;
        match action {
            Action::EndTurn => {}
            Action::Move { unit, to } => {
                let u = &mut self.units[unit as usize];
                self.unit_at[u.pos as usize] = NONE;
                u.pos = to;
                u.moved = true;
                self.unit_at[to as usize] = unit;
            }
            Action::Attack { unit, target } => self.attack(unit as usize, target as usize),
            Action::Capture { unit } => self.capture(unit as usize),
            Action::Spawn { city, kind } => {
                self.tribes[p].stars -= self.rules.unit(kind).cost as u16;
                let pos = self.cities[city as usize].pos as usize;
                self.add_unit(p, kind, pos, city);
            }
            Action::Research(t) => {
                self.tribes[p].stars -= self.tech_cost(p, t);
                self.tribes[p].techs |= t.bit();
                let k = self.tech_count(p) as usize - 1;
                self.log.research_order[p][k] = t as u8;
            }
            Action::Build { tile, building } => {
                let t = tile as usize;
                self.tribes[p].stars -= self.rules.building_cost(building) as u16;
                let gain = self.build_gain(t, building);
                let c = self.tiles[t].city as usize;
                if building == Building::Walls {
                    self.cities[c].walls = true;
                } else {
                    self.tiles[t].building = Some(building);
                    if building == Building::Harvest {
                        self.tiles[t].resource = Resource::None;
                    }
                }
                self.refresh_sites(t);
                self.grow(c, gain);
            }
            Action::LevelUp { city, bonus } => {
                let c = city as usize;
                self.cities[c].pending -= 1;
                match bonus {
                    Bonus::Growth => self.cities[c].growth += 1,
                    Bonus::Military => {
                        let pos = self.cities[c].pos as usize;
                        if self.add_unit(p, UnitKind::Warrior, pos, NONE).is_none() {
                            self.tribes[p].stars += 3;
                        }
                    }
                }
            }
        }
        if self.over {
            return;
        }
        if action == Action::EndTurn
            || (self.actions_this_turn >= self.action_cap && self.pending_level_up(p).is_none())
        {
            self.end_turn();
        }
    }

    fn add_unit(&mut self, p: usize, kind: UnitKind, pos: usize, home: u8) -> Option<usize> {
        if self.unit_at[pos] != NONE {
            return None;
        }
        let free = !(self.alive[0] | self.alive[1]) & ((1u64 << MAX_UNITS) - 1);
        if free == 0 {
            return None;
        }
        let id = free.trailing_zeros() as usize;
        self.alive[p] |= 1 << id;
        self.units[id] = Unit {
            kind,
            owner: p as u8,
            pos: pos as u8,
            hp: self.rules.unit(kind).hp,
            home,
            moved: true,
            attacked: true,
            alive: true,
        };
        self.unit_at[pos] = id as u8;
        self.unit_count[p] += 1;
        if home != NONE {
            self.cities[home as usize].units += 1;
        }
        self.log.spawned[p][kind as usize] += 1;
        Some(id)
    }

    fn remove_unit(&mut self, id: usize) {
        let u = self.units[id];
        self.alive[u.owner as usize] &= !(1 << id);
        self.unit_at[u.pos as usize] = NONE;
        self.unit_count[u.owner as usize] -= 1;
        if u.home != NONE {
            self.cities[u.home as usize].units -= 1;
        }
        self.units[id] = DEAD;
    }

    fn attack(&mut self, id: usize, target: usize) {
        let Combat { dealt, taken } = self.combat(id, target);
        let p = self.units[id].owner as usize;
        self.units[id].attacked = true;
        self.units[id].moved = true;
        if dealt >= self.units[target].hp {
            let pos = self.units[target].pos as usize;
            self.remove_unit(target);
            self.log.kills[p] += 1;
            // A melee attacker takes the tile of the unit it destroyed.
            let a = self.units[id];
            if a.kind.stats().range == 1 && self.can_enter(p, self.tiles[pos].terrain) {
                self.unit_at[a.pos as usize] = NONE;
                self.units[id].pos = pos as u8;
                self.unit_at[pos] = id as u8;
            }
        } else {
            self.units[target].hp -= dealt;
            if taken >= self.units[id].hp {
                self.remove_unit(id);
                self.log.kills[1 - p] += 1;
            } else {
                self.units[id].hp -= taken;
            }
        }
    }

    fn capture(&mut self, id: usize) {
        let u = self.units[id];
        let p = u.owner;
        let c = self.city_on(u.pos as usize).expect("capture on a city");
        self.units[id].moved = true;
        self.units[id].attacked = true;
        self.log.captures[p as usize] += 1;
        let was_neutral = self.cities[c].owner == NONE;
        self.cities[c].owner = p;
        // The units it supported lose their home.
        for v in self.units.iter_mut() {
            if v.alive && v.home as usize == c {
                v.home = NONE;
            }
        }
        self.cities[c].units = 0;
        if was_neutral {
            self.claim(c);
        } else {
            self.refresh_territory();
        }
        let cap = self.cities[c].capital_of;
        if cap != NONE && cap != p {
            self.finish(Some(p as usize), true);
        }
    }

    /// City `c` takes the unclaimed land tiles within its radius.
    fn claim(&mut self, c: usize) {
        let n = self.size();
        let (pos, r) = (self.cities[c].pos as usize, self.cities[c].radius as usize);
        let (x, y) = (pos % n, pos / n);
        for ty in y.saturating_sub(r)..=(y + r).min(n - 1) {
            for tx in x.saturating_sub(r)..=(x + r).min(n - 1) {
                let t = ty * n + tx;
                if self.tiles[t].city == NONE {
                    self.tiles[t].city = c as u8;
                    self.cities[c].tiles += 1;
                }
            }
        }
        self.refresh_territory();
    }

    /// Adds population to city `c`, levelling it up as often as it reaches the mark.
    fn grow(&mut self, c: usize, gain: u8) {
        let city = &mut self.cities[c];
        city.pop = city.pop.saturating_add(gain);
        let mut border = false;
        while city.level < self.rules.max_city_level && city.pop >= pop_to_level_up(city.level) {
            city.pop -= pop_to_level_up(city.level);
            city.level += 1;
            city.pending += 1;
            if city.level == 3 {
                city.radius = 2;
                border = true;
            }
        }
        if border {
            self.claim(c);
        }
    }

    fn record(&mut self, p: usize) {
        let r = TurnRecord {
            score: self.score_of(p).min(u16::MAX as u32) as u16,
            tiles: self.tiles_owned(p) as u16,
            production: self.production(p),
            cities: self.city_count(p) as u8,
            techs: self.tech_count(p) as u8,
            units: self.unit_count[p],
            stars: self.tribes[p].stars,
        };
        self.log.record(p, r);
    }

    fn end_turn(&mut self) {
        let p = self.current();
        self.record(p);
        if p == 1 {
            self.turn += 1;
            if self.turn >= self.turn_limit {
                let (a, b) = (self.score_of(0), self.score_of(1));
                let w = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                };
                self.finish(w, false);
                return;
            }
        }
        self.current = 1 - self.current;
        self.start_turn();
    }

    /// The acting tribe collects its stars; its units that rested heal, and all of them
    /// may act again.
    fn start_turn(&mut self) {
        let p = self.current();
        self.actions_this_turn = 0;
        self.tribes[p].stars = self.tribes[p].stars.saturating_add(self.production(p));
        for i in 0..MAX_UNITS {
            let u = self.units[i];
            if !u.alive || u.owner as usize != p {
                continue;
            }
            if !u.moved && !u.attacked {
                let own = self.tiles[u.pos as usize].city;
                let home = own != NONE && self.cities[own as usize].owner as usize == p;
                let heal = if home {
                    2 * self.rules.heal
                } else {
                    self.rules.heal
                };
                self.units[i].hp = (u.hp + heal).min(self.rules.unit(u.kind).hp);
            }
            self.units[i].moved = false;
            self.units[i].attacked = false;
        }
    }

    fn finish(&mut self, winner: Option<usize>, by_capture: bool) {
        self.over = true;
        self.log.winner = winner.map(|w| w as u8);
        self.log.end_turn = self.turn.min(self.turn_limit.saturating_sub(1)) + 1;
        self.log.by_capture = by_capture;
        if by_capture {
            let p = self.current();
            self.record(p);
        }
    }

    // ----- setting up scenarios (tests, examples); nothing here is logged -----

    /// Puts a free unit of `p` on tile `t` (able to act now); `None` if the tile is
    /// taken or impassable to it, or no unit slot is left.
    pub fn put_unit(&mut self, p: usize, kind: UnitKind, t: usize) -> Option<usize> {
        if t >= self.size() * self.size() || !self.can_enter(p, self.tiles[t].terrain) {
            return None;
        }
        let id = self.add_unit(p, kind, t, NONE)?;
        self.log.spawned[p][kind as usize] -= 1;
        self.units[id].moved = false;
        self.units[id].attacked = false;
        Some(id)
    }

    /// Sets a unit's hit points (at least 1, at most its type's).
    pub fn set_hp(&mut self, id: usize, hp: u8) {
        self.units[id].hp = hp.clamp(1, self.rules.unit(self.units[id].kind).hp);
    }

    pub fn set_stars(&mut self, p: usize, stars: u16) {
        self.tribes[p].stars = stars;
    }

    /// Gives `p` a technology and its prerequisites.
    pub fn grant_tech(&mut self, p: usize, tech: Tech) {
        let mut t = Some(tech);
        while let Some(x) = t {
            self.tribes[p].techs |= x.bit();
            t = x.prerequisite();
        }
    }

    /// Changes a tile's terrain and resource (not under a unit that could not stand
    /// there: such a call does nothing).
    pub fn set_tile(&mut self, t: usize, terrain: Terrain, resource: Resource) {
        let u = self.unit_at[t];
        if terrain == Terrain::Water && u != NONE {
            return;
        }
        self.tiles[t].terrain = terrain;
        self.tiles[t].resource = resource;
        self.refresh_sites(t);
        self.refresh_terrain(t);
    }

    /// Checks the invariants (for tests): units on the board and on passable tiles,
    /// one unit per tile and the tile index agreeing, unit and support counts, city
    /// owners and territory counts, and the sets kept beside them (each tribe's units
    /// and territory, the building sites, the rows of land and mountains).
    pub fn check(&self) -> Result<(), super::Error> {
        use super::Error::Invariant;
        let n = self.size();
        let mut count = [0u8; 2];
        let mut support = [0u8; MAX_CITIES];
        for (id, u) in self.units() {
            let t = u.pos as usize;
            if t >= n * n {
                return Err(Invariant(format!("unit {id} off the board at {t}")));
            }
            if self.unit_at[t] as usize != id {
                return Err(Invariant(format!(
                    "unit {id} at {t} but the tile holds {}",
                    self.unit_at[t]
                )));
            }
            if self.tiles[t].terrain == Terrain::Water {
                return Err(Invariant(format!("unit {id} on water at {t}")));
            }
            if u.hp == 0 || u.hp > self.rules.unit(u.kind).hp {
                return Err(Invariant(format!("unit {id} has {} hp", u.hp)));
            }
            if u.owner > 1 {
                return Err(Invariant(format!("unit {id} owned by {}", u.owner)));
            }
            count[u.owner as usize] += 1;
            if u.home != NONE {
                support[u.home as usize] += 1;
            }
        }
        for p in 0..2 {
            if self.tribes[p].stars > 30_000 {
                return Err(Invariant(format!(
                    "tribe {p} has {} stars (an underflow?)",
                    self.tribes[p].stars
                )));
            }
        }
        if count != self.unit_count {
            return Err(Invariant(format!(
                "unit counts {count:?} vs {:?}",
                self.unit_count
            )));
        }
        let on_tiles = self.unit_at[..n * n].iter().filter(|&&u| u != NONE).count();
        if on_tiles != (count[0] + count[1]) as usize {
            return Err(Invariant("a tile points at a dead unit".into()));
        }
        let mut tiles = [0u8; MAX_CITIES];
        for t in 0..n * n {
            let c = self.tiles[t].city;
            if c != NONE {
                tiles[c as usize] += 1;
            }
        }
        for (i, c) in self.cities().iter().enumerate() {
            if c.owner != NONE && c.owner > 1 {
                return Err(Invariant(format!("city {i} owned by {}", c.owner)));
            }
            if self.tiles[c.pos as usize].city as usize != i {
                return Err(Invariant(format!(
                    "city {i}'s tile belongs to another city"
                )));
            }
            if c.tiles != tiles[i] || c.units != support[i] {
                return Err(Invariant(format!("city {i}: counts disagree")));
            }
            if c.level == 0 || c.level > self.rules.max_city_level {
                return Err(Invariant(format!("city {i} at level {}", c.level)));
            }
        }
        for p in 0..2 {
            let mask = (0..MAX_UNITS)
                .filter(|&id| self.units[id].alive && self.units[id].owner as usize == p)
                .fold(0u64, |m, id| m | 1 << id);
            if mask != self.alive[p] {
                return Err(Invariant(format!("tribe {p}'s unit mask disagrees")));
            }
        }
        for t in 0..MAX_TILES {
            let owner = (t < n * n && self.tiles[t].city != NONE)
                .then(|| self.cities[self.tiles[t].city as usize].owner);
            for p in 0..2 {
                if self.territory[p].contains(t) != (owner == Some(p as u8)) {
                    return Err(Invariant(format!(
                        "tile {t}: tribe {p}'s territory set disagrees"
                    )));
                }
            }
            for b in BUILDINGS {
                if self.sites[b as usize].contains(t) != (t < n * n && self.site_fits(t, b)) {
                    return Err(Invariant(format!("tile {t}: the {b:?} sites disagree")));
                }
            }
        }
        let mut land = Rows([0; 16]);
        let mut mountains = Rows([0; 16]);
        for t in 0..n * n {
            let (x, y) = (t % n, t / n);
            match self.tiles[t].terrain {
                Terrain::Plain | Terrain::Forest => land.0[y] |= 1 << x,
                Terrain::Mountain => mountains.0[y] |= 1 << x,
                Terrain::Water => {}
            }
        }
        if (land, mountains) != (self.land, self.mountains) {
            return Err(Invariant(
                "the rows of land or mountains disagree with the tiles".into(),
            ));
        }
        Ok(())
    }
}

impl Game for StrategyState {
    type Action = Action;

    fn num_players(&self) -> usize {
        2
    }

    fn acting(&self) -> Acting {
        Acting::Player(self.current())
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn step_count(&self) -> u32 {
        self.steps
    }

    /// Uniform over [`StrategyState::actions_into`]: the same draw picks the same
    /// action, but the actions are counted, and only the one drawn is made
    /// ([`StrategyState::random_action_of`]).
    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<Action> {
        self.random_action_of(player, rng)
    }

    fn legal_actions(&self, player: usize, out: &mut Vec<Action>) -> bool {
        self.actions_into(player, out);
        true
    }

    fn advance(&mut self, actions: &[Action]) {
        self.play(actions.first().unwrap_or(&Action::EndTurn));
    }

    fn score(&self, player: usize) -> f64 {
        self.score_of(player) as f64
    }

    /// The margin over the opponent: search agents that maximised their own score
    /// ended turns early (the next turn's income came within their horizon of
    /// actions) and never fought (runs/published/strategy-portfolio-full measures the
    /// tables with the margin).
    fn value(&self, player: usize) -> f64 {
        self.score_of(player) as f64 - self.score_of(1 - player) as f64
    }

    fn winners(&self) -> Vec<bool> {
        if self.over {
            match self.log.winner {
                Some(w) => (0..2).map(|p| p == w as usize).collect(),
                None => vec![true, true],
            }
        } else {
            let (a, b) = (self.score_of(0), self.score_of(1));
            vec![a >= b, b >= a]
        }
    }
}
