//! The per-game log of statistics kept inside the state (fixed-size, updated by
//! `advance`), and the play-style features computed from it.

use super::rules::UnitKind;

/// Turns a log can record per player (the turn limit may not exceed it).
pub(crate) const MAX_TURNS: usize = 64;

/// Action types, in the order of [`GameLog::actions`].
#[cfg(test)]
pub(crate) const ACTION_TYPES: [&str; 8] = [
    "end_turn", "move", "attack", "capture", "spawn", "research", "build", "level_up",
];

/// One player's situation at the end of one of their turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnRecord {
    /// The tribe's score.
    pub score: u16,
    /// Tiles of its territory.
    pub tiles: u16,
    /// Stars per turn.
    pub production: u16,
    /// Cities it holds.
    pub cities: u8,
    /// Technologies researched so far.
    pub techs: u8,
    /// Living units.
    pub units: u8,
    /// Stars in its purse.
    pub stars: u16,
}

/// Statistics of one game, per player.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLog {
    turns: [[TurnRecord; MAX_TURNS]; 2],
    n_turns: [u8; 2],
    /// Actions played, by type: end turn, move, attack, capture, spawn, research, build,
    /// level up.
    pub actions: [[u32; 8]; 2],
    /// Units spawned (bought or won by a level-up), by [`UnitKind`].
    pub spawned: [[u16; 7]; 2],
    /// Enemy units destroyed.
    pub kills: [u16; 2],
    /// Cities and villages captured.
    pub captures: [u16; 2],
    /// Technologies researched, in order, per player (as [`super::rules::Tech`] indices).
    pub research_order: [[u8; 13]; 2],
    /// The winner once the game is over (`None`: a draw, or not over).
    pub winner: Option<u8>,
    /// The round in which the game ended (counted from 1), 0 while it goes on.
    pub end_turn: u16,
    /// Whether the game ended by a capital's capture (else at the turn limit).
    pub by_capture: bool,
}

impl Default for GameLog {
    fn default() -> Self {
        GameLog {
            turns: [[TurnRecord::default(); MAX_TURNS]; 2],
            n_turns: [0; 2],
            actions: [[0; 8]; 2],
            spawned: [[0; 7]; 2],
            kills: [0; 2],
            captures: [0; 2],
            research_order: [[u8::MAX; 13]; 2],
            winner: None,
            end_turn: 0,
            by_capture: false,
        }
    }
}

impl GameLog {
    /// Player `p`'s records, one per turn they finished.
    pub fn turns(&self, p: usize) -> &[TurnRecord] {
        &self.turns[p][..self.n_turns[p] as usize]
    }

    pub(crate) fn record(&mut self, p: usize, r: TurnRecord) {
        let n = self.n_turns[p] as usize;
        if n < MAX_TURNS {
            self.turns[p][n] = r;
            self.n_turns[p] += 1;
        }
    }

    /// Attacks player `p` made.
    pub fn attacks(&self, p: usize) -> u32 {
        self.actions[p][2]
    }

    /// Units of `kind` player `p` spawned.
    pub(crate) fn spawned_of(&self, p: usize, kind: UnitKind) -> u32 {
        self.spawned[p][kind as usize] as u32
    }
}

/// The play-style features of player `p` in a finished game (MAP-Elites
/// descriptors).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Attacks made.
    pub attacks: f64,
    /// Ranged support units (archer, catapult) minus melee support units (swordsman,
    /// knight) spawned: the paper's groups that complement the warriors, the army's
    /// backbone (riders and defenders count in neither).
    pub ranged_minus_melee: f64,
    /// Defenders spawned.
    pub defender_spawns: f64,
    /// The round the game ended in (the turn limit when nobody captured a capital).
    pub winning_turn: f64,
    /// Technologies per turn: the least-squares slope of technologies researched
    /// against the turn.
    pub research_slope: f64,
    /// Tiles per turn: the least-squares slope of the player's tiles owned minus the
    /// opponent's against the turn.
    pub tile_dominance_slope: f64,
    /// Cities and villages captured.
    pub captures: f64,
    /// Enemy units destroyed.
    pub kills: f64,
    /// Buildings built.
    pub builds: f64,
    /// Stars of production per turn: the least-squares slope of production against
    /// the turn (how fast the economy grows).
    pub production_slope: f64,
    /// Own tiles per turn: the least-squares slope of tiles owned against the turn
    /// (how fast the player spreads, whatever the opponent does).
    pub expansion_slope: f64,
    /// The player's share of the tiles both players own at the end.
    pub tile_share: f64,
    /// Riders spawned: the fast, mobile army.
    pub rider_spawns: f64,
    /// Units spawned, of every kind.
    pub spawns: f64,
    /// The share of economy technologies (those that unlock harvests and buildings:
    /// organization, farming, construction, forestry, mining) among the first
    /// `EARLY_TECHS` researched (1/2 before any): economy first or army first.
    pub economy_research: f64,
}

/// How many of the first technologies [`Features::economy_research`] looks at.
pub(crate) const EARLY_TECHS: usize = 5;

/// Whether technology `i` (a [`Tech`] index) serves the economy.
fn is_economy_tech(i: u8) -> bool {
    use super::rules::Tech;
    [
        Tech::Organization,
        Tech::Farming,
        Tech::Construction,
        Tech::Forestry,
        Tech::Mining,
    ]
    .iter()
    .any(|&t| t as u8 == i)
}

/// `p`'s economy share of the first technologies (see [`Features::economy_research`]).
pub fn economy_research(log: &GameLog, p: usize) -> f64 {
    let early: Vec<u8> = log.research_order[p]
        .iter()
        .copied()
        .take_while(|&t| t != u8::MAX)
        .take(EARLY_TECHS)
        .collect();
    if early.is_empty() {
        return 0.5;
    }
    early.iter().filter(|&&t| is_economy_tech(t)).count() as f64 / early.len() as f64
}

/// Ranged minus melee units spawned by `p` (see [`Features::ranged_minus_melee`]).
pub fn ranged_minus_melee(log: &GameLog, p: usize) -> f64 {
    let s = |k: UnitKind| log.spawned_of(p, k) as f64;
    s(UnitKind::Archer) + s(UnitKind::Catapult) - s(UnitKind::Swordsman) - s(UnitKind::Knight)
}

/// The least-squares slope of `ys` against 0, 1, 2, ... (0 with fewer than two points).
pub fn slope(ys: impl ExactSizeIterator<Item = f64> + Clone) -> f64 {
    let n = ys.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = ys.clone().sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, y) in ys.enumerate() {
        let dx = i as f64 - mean_x;
        sxy += dx * (y - mean_y);
        sxx += dx * dx;
    }
    sxy / sxx
}

/// Technologies per turn of `p` (see [`Features::research_slope`]).
pub fn research_slope(log: &GameLog, p: usize) -> f64 {
    slope(log.turns(p).iter().map(|r| r.techs as f64))
}

/// Tile dominance per turn of `p` (see [`Features::tile_dominance_slope`]).
pub fn tile_dominance_slope(log: &GameLog, p: usize) -> f64 {
    let (mine, theirs) = (log.turns(p), log.turns(1 - p));
    let n = mine.len().min(theirs.len());
    slope((0..n).map(|i| mine[i].tiles as f64 - theirs[i].tiles as f64))
}

/// Production per turn of `p` (see [`Features::production_slope`]).
pub(crate) fn production_slope(log: &GameLog, p: usize) -> f64 {
    slope(log.turns(p).iter().map(|r| r.production as f64))
}

/// Own tiles per turn of `p` (see [`Features::expansion_slope`]).
pub(crate) fn expansion_slope(log: &GameLog, p: usize) -> f64 {
    slope(log.turns(p).iter().map(|r| r.tiles as f64))
}

/// `p`'s share of the owned tiles at the last turn both finished (1/2 before any).
pub(crate) fn tile_share(log: &GameLog, p: usize) -> f64 {
    let (mine, theirs) = (log.turns(p), log.turns(1 - p));
    let n = mine.len().min(theirs.len());
    if n == 0 {
        return 0.5;
    }
    let (a, b) = (mine[n - 1].tiles as f64, theirs[n - 1].tiles as f64);
    if a + b == 0.0 { 0.5 } else { a / (a + b) }
}

/// Every feature of player `p`.
pub fn features(log: &GameLog, p: usize) -> Features {
    Features {
        attacks: log.attacks(p) as f64,
        ranged_minus_melee: ranged_minus_melee(log, p),
        defender_spawns: log.spawned_of(p, UnitKind::Defender) as f64,
        winning_turn: log.end_turn as f64,
        research_slope: research_slope(log, p),
        tile_dominance_slope: tile_dominance_slope(log, p),
        captures: log.captures[p] as f64,
        kills: log.kills[p] as f64,
        builds: log.actions[p][6] as f64,
        production_slope: production_slope(log, p),
        expansion_slope: expansion_slope(log, p),
        tile_share: tile_share(log, p),
        rider_spawns: log.spawned_of(p, UnitKind::Rider) as f64,
        spawns: log.spawned[p].iter().map(|&n| n as f64).sum(),
        economy_research: economy_research(log, p),
    }
}
