//! The forward model: an action played, and what it sets off (fights, captures,
//! growth, the end of a turn and of the game).

use super::*;

impl StrategyState {
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

    pub(super) fn add_unit(
        &mut self,
        p: usize,
        kind: UnitKind,
        pos: usize,
        home: u8,
    ) -> Option<usize> {
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

    pub(super) fn remove_unit(&mut self, id: usize) {
        let u = self.units[id];
        self.alive[u.owner as usize] &= !(1 << id);
        self.unit_at[u.pos as usize] = NONE;
        self.unit_count[u.owner as usize] -= 1;
        if u.home != NONE {
            self.cities[u.home as usize].units -= 1;
        }
        self.units[id] = DEAD;
    }

    pub(super) fn attack(&mut self, id: usize, target: usize) {
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

    pub(super) fn capture(&mut self, id: usize) {
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
    pub(super) fn claim(&mut self, c: usize) {
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
    pub(super) fn grow(&mut self, c: usize, gain: u8) {
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

    pub(super) fn record(&mut self, p: usize) {
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

    pub(super) fn end_turn(&mut self) {
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
    pub(super) fn start_turn(&mut self) {
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

    pub(super) fn finish(&mut self, winner: Option<usize>, by_capture: bool) {
        self.over = true;
        self.log.winner = winner.map(|w| w as u8);
        self.log.end_turn = self.turn.min(self.turn_limit.saturating_sub(1)) + 1;
        self.log.by_capture = by_capture;
        if by_capture {
            let p = self.current();
            self.record(p);
        }
    }
}
