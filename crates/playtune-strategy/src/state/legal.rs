//! Which actions are legal now: checking one, listing them all, drawing one at random
//! (what search agents do at every step, reading the state's bit sets).

use super::*;

impl StrategyState {
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
    pub(super) fn refresh_sites(&mut self, t: usize) {
        for b in BUILDINGS {
            let fits = self.site_fits(t, b);
            self.sites[b as usize].set(t, fits);
        }
    }

    /// Records tile `t`'s terrain in the rows of land and mountains.
    pub(super) fn refresh_terrain(&mut self, t: usize) {
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
    pub(super) fn refresh_territory(&mut self) {
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
}
