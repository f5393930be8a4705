//! What a unit or a tribe may do now: where a unit reaches, whom it may attack and
//! how a fight ends, what a tribe may spawn, research and build.

use super::*;

impl StrategyState {
    /// The tiles unit `id` may move to now (empty once it moved or attacked). A step
    /// costs one movement point; entering a forest or a mountain, or a tile next to an
    /// enemy unit, ends the move; units pass through friends but not enemies. The
    /// tiles come in the order a breadth-first search finds them (neighbours in the
    /// order of [`neighbours`]).
    pub(crate) fn reach(&self, id: usize) -> Reach {
        let u = &self.units[id];
        if u.alive && self.rules.unit(u.kind).movement > 1 {
            self.reach_with(id, &self.rows_of(1 - u.owner as usize))
        } else {
            // A single step never asks where the enemies stand.
            self.reach_with(id, &Rows([0; 16]))
        }
    }

    /// Where tribe `q`'s units stand.
    pub(super) fn rows_of(&self, q: usize) -> Rows {
        let grid = Grid::of(self.size());
        let mut rows = Rows([0; 16]);
        for id in bits(self.alive[q]) {
            let (x, y) = grid.xy(self.units[id].pos as usize);
            rows.0[y] |= 1 << x;
        }
        rows
    }

    /// [`StrategyState::reach`], `enemies` the rows of the unit's enemies.
    pub(super) fn reach_with(&self, id: usize, enemies: &Rows) -> Reach {
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
    pub(crate) fn can_attack(&self, id: usize, target: usize) -> bool {
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
    pub(crate) fn combat(&self, id: usize, target: usize) -> Combat {
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
    pub(crate) fn can_capture(&self, id: usize) -> bool {
        let u = &self.units[id];
        u.alive
            && !u.moved
            && !u.attacked
            && self
                .city_on(u.pos as usize)
                .is_some_and(|c| self.cities[c].owner != u.owner)
    }

    /// Whether tribe `p` knows the technology a unit type needs.
    pub(crate) fn unit_unlocked(&self, p: usize, kind: UnitKind) -> bool {
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
    pub(crate) fn can_research(&self, p: usize, tech: Tech) -> bool {
        !self.has_tech(p, tech)
            && tech.prerequisite().is_none_or(|t| self.has_tech(p, t))
            && self.tribes[p].stars >= self.tech_cost(p, tech)
    }

    /// Population `building` would add on tile `t` (0 for walls).
    pub(crate) fn build_gain(&self, t: usize, building: Building) -> u8 {
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
    pub(crate) fn can_build(&self, p: usize, t: usize, building: Building) -> bool {
        let c = self.tiles[t].city;
        c != NONE
            && self.cities[c as usize].owner as usize == p
            && self.has_tech(p, building.info().tech)
            && self.tribes[p].stars >= self.rules.building_cost(building) as u16
            && self.site_fits(t, building)
    }
}
