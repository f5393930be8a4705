//! The game state, its actions and its forward model.
//!
//! Everything lives in fixed-size arrays (3.9 KB with the log), so cloning a state
//! is one flat copy and advancing it never allocates. Beside the board the state
//! keeps a few bit sets up to date (each tribe's territory and units, the sites of
//! each building, the land by row), so that listing or drawing an action, which
//! search agents do at every step, reads masks instead of scanning the board.

mod abilities;
mod forward;
mod legal;

use super::level::{Grid, Level, MAX_CITIES, MAX_TILES, distance, neighbours};
use super::log::{GameLog, MAX_TURNS, TurnRecord};
use super::rules::*;
use playtune_harness::game::{Acting, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// Marks an empty slot (no unit, no city, no building, no owner).
pub(crate) const NONE: u8 = u8::MAX;
/// Units (both tribes) the board may hold.
pub(crate) const MAX_UNITS: usize = 48;

/// One action of the acting player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Ends the turn (the other tribe plays next).
    EndTurn,
    /// Moves unit `unit` to tile `to`.
    Move {
        /// The unit's id.
        unit: u8,
        /// The tile it moves to.
        to: u8,
    },
    /// Unit `unit` attacks unit `target`.
    Attack {
        /// The unit's id.
        unit: u8,
        /// The id of the unit attacked.
        target: u8,
    },
    /// Unit `unit` captures the city or village it stands on.
    Capture {
        /// The unit's id.
        unit: u8,
    },
    /// City `city` trains a unit on its tile.
    Spawn {
        /// The city's index.
        city: u8,
        /// The unit type trained.
        kind: UnitKind,
    },
    /// The tribe researches a technology.
    Research(Tech),
    /// Builds on a tile of the tribe's territory.
    Build {
        /// The tile built on.
        tile: u8,
        /// What is built.
        building: Building,
    },
    /// A city that levelled up takes its bonus.
    LevelUp {
        /// The city's index.
        city: u8,
        /// The bonus taken.
        bonus: Bonus,
    },
}

impl Action {
    /// Index into the log's action counts ([`GameLog::actions`]).
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
pub(crate) struct Tile {
    /// What the tile is made of.
    pub terrain: Terrain,
    /// The resource on it, if any.
    pub resource: Resource,
    /// The building on it, if any.
    pub building: Option<Building>,
    /// The city whose territory it is ([`NONE`]: nobody's).
    pub city: u8,
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The unit's type.
    pub kind: UnitKind,
    /// The tribe it belongs to.
    pub owner: u8,
    /// The tile it stands on.
    pub pos: u8,
    /// Hit points left.
    pub hp: u8,
    /// The city that supports it (`u8::MAX`: a free unit).
    pub home: u8,
    /// It moved this turn.
    pub moved: bool,
    /// It attacked this turn.
    pub attacked: bool,
    /// False once killed.
    pub alive: bool,
}

/// A city or a neutral village.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct City {
    /// The tile it stands on.
    pub pos: u8,
    /// The tribe that holds it ([`NONE`]: a neutral village).
    pub owner: u8,
    /// Its level (1 to the rules' highest).
    pub level: u8,
    /// Population toward the next level.
    pub pop: u8,
    /// The tribe whose capital it was at the start ([`NONE`] for villages).
    pub capital_of: u8,
    /// Extra stars per turn from growth bonuses.
    pub growth: u8,
    /// It has walls (a defence bonus).
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
pub(crate) struct Tribe {
    pub(crate) stars: u16,
    /// Researched technologies, one bit per [`Tech`].
    pub(crate) techs: u16,
}

/// A set of tiles, one bit each; iterated in tile order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TileSet([u64; 4]);

impl TileSet {
    pub(crate) fn contains(&self, t: usize) -> bool {
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
    pub(crate) fn and(self, other: TileSet) -> TileSet {
        TileSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// How many tiles.
    pub(crate) fn len(&self) -> usize {
        self.0
            .iter()
            .filter(|&&w| w != 0)
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The tiles, in increasing order.
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
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
pub(crate) struct Reach {
    tiles: [u8; 48],
    len: u8,
}

impl Reach {
    /// The tiles, as tile indices.
    pub(crate) fn as_slice(&self) -> &[u8] {
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
pub(crate) struct Combat {
    /// Damage dealt to the defender.
    pub dealt: u8,
    /// Damage the attacker takes back (0 if the defender dies or cannot reach).
    pub taken: u8,
}

/// The game: board, tribes, turn, and the log.
#[derive(Clone, Debug)]
pub struct StrategyState {
    size: u8,
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

    /// Side of the square board.
    pub fn size(&self) -> usize {
        self.size as usize
    }
    /// Tile `t` (row-major).
    pub(crate) fn tile(&self, t: usize) -> &Tile {
        &self.tiles[t]
    }
    /// The id of the unit on tile `t`, if any.
    #[cfg(test)]
    pub(crate) fn unit_at(&self, t: usize) -> Option<usize> {
        let u = self.unit_at[t];
        (u != NONE).then_some(u as usize)
    }
    /// Unit `id`, living or dead.
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
    pub(crate) fn cities(&self) -> &[City] {
        &self.cities[..self.n_cities as usize]
    }
    /// The index of the city on tile `t`, if any.
    pub(crate) fn city_on(&self, t: usize) -> Option<usize> {
        let c = self.tiles[t].city;
        (c != NONE && self.cities[c as usize].pos as usize == t).then_some(c as usize)
    }
    /// Stars tribe `p` holds.
    pub fn stars(&self, p: usize) -> u16 {
        self.tribes[p].stars
    }
    pub(crate) fn has_tech(&self, p: usize, t: Tech) -> bool {
        self.tribes[p].techs & t.bit() != 0
    }
    /// Technologies tribe `p` has researched.
    pub fn tech_count(&self, p: usize) -> u32 {
        self.tribes[p].techs.count_ones()
    }
    /// The round being played (from 0).
    pub fn turn(&self) -> u16 {
        self.turn
    }
    /// The tribe to act.
    pub fn current(&self) -> usize {
        self.current as usize
    }
    /// The game's statistics so far.
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
    pub(crate) fn tiles_owned(&self, p: usize) -> usize {
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

    /// What `tech` costs tribe `p` now, in stars.
    pub(crate) fn tech_cost(&self, p: usize, tech: Tech) -> u16 {
        self.rules
            .tech_cost(tech.info().tier, self.city_count(p) as u8)
    }
    /// The first city of `p` whose level-up bonus is still to choose.
    pub(crate) fn pending_level_up(&self, p: usize) -> Option<usize> {
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

    // ----- setting up scenarios (tests, examples); nothing here is logged -----

    /// Puts a free unit of `p` on tile `t` (able to act now); `None` if the tile is
    /// taken or impassable to it, or no unit slot is left.
    #[cfg(test)]
    pub(crate) fn put_unit(&mut self, p: usize, kind: UnitKind, t: usize) -> Option<usize> {
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
    #[cfg(test)]
    pub(crate) fn set_hp(&mut self, id: usize, hp: u8) {
        self.units[id].hp = hp.clamp(1, self.rules.unit(self.units[id].kind).hp);
    }

    /// Sets tribe `p`'s stars (for tests and set-ups).
    #[cfg(test)]
    pub(crate) fn set_stars(&mut self, p: usize, stars: u16) {
        self.tribes[p].stars = stars;
    }

    /// Gives `p` a technology and its prerequisites.
    #[cfg(test)]
    pub(crate) fn grant_tech(&mut self, p: usize, tech: Tech) {
        let mut t = Some(tech);
        while let Some(x) = t {
            self.tribes[p].techs |= x.bit();
            t = x.prerequisite();
        }
    }

    /// Changes a tile's terrain and resource (not under a unit that could not stand
    /// there: such a call does nothing).
    #[cfg(test)]
    pub(crate) fn set_tile(&mut self, t: usize, terrain: Terrain, resource: Resource) {
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

    /// Uniform over `StrategyState::actions_into`: the same draw picks the same
    /// action, but the actions are counted, and only the one drawn is made
    /// (`StrategyState::random_action_of`).
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
