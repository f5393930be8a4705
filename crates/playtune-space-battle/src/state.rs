//! The game state and its tick.

use super::action::{SbeAction, controls};
use super::geometry::{HEIGHT, Vec2, WIDTH};
use super::objects::{
    BlackHole, DEFAULT_MAX_TICKS, Object, PACK_SPAWN_PHASE, SHIP_RADIUS, SHIP_STARTS, Ship,
    black_hole_layout, ship_meets,
};
use super::params::SbeParams;
use super::physics::{HoleField, move_object, try_fire, update_ship_with};
use super::plan::SearchPlan;
// The tests' `use super::*` reaches the missile update through here.
#[cfg(test)]
use super::physics::update_missile;
use playtune_optim::rng::{Rng, rng_from_seed};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

/// Room for objects reserved up front, so a game rarely grows its buffer.
const OBJECT_RESERVE: usize = 128;

/// Below this many objects a search root is not worth planning.
const MIN_PLANNED_OBJECTS: usize = 8;

/// What never changes during a game, shared by every copy of the state.
#[derive(Debug, PartialEq)]
struct Setup {
    params: SbeParams,
    holes: Vec<BlackHole>,
    /// The holes prepared for the tick's pulls.
    field: HoleField,
}

/// One ship's tallies, as a fitness function or a log reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ShipStats {
    pub(crate) kills: u32,
    pub(crate) points: f64,
    pub(crate) shots_fired: u32,
    pub(crate) penalty_ticks: u32,
    pub(crate) collected: u32,
    pub(crate) lives: u32,
    pub(crate) shots_left: u32,
}

/// A Space Battle Evolved game in progress, with its own generator for pack positions
/// so that a copy simulates the same future given the same actions.
///
/// `clone` copies one object buffer (one allocation); `clone_from` into a state that
/// already has room allocates nothing, which is what search agents should use.
///
/// A search root ([`SbeState::search_root`]) carries a `SearchPlan` of its objects'
/// futures; its copies hold only what they changed. Both kinds behave the same and
/// compare equal when their games are equal.
#[derive(Debug)]
pub struct SbeState {
    setup: Arc<Setup>,
    ships: [Ship; 2],
    /// Missiles, bombs and packs, in creation order; with a plan, only those created
    /// since the plan's start.
    objects: Vec<Object>,
    tick: u32,
    max_ticks: u32,
    rng: Rng,
    plan: Option<Arc<SearchPlan>>,
    /// Bit i: the plan's object i left its planned path (a ship met it).
    met: Vec<u64>,
    /// Planned objects a ship met that stayed on as bombs, with their slot in the plan.
    replaced: Vec<(u32, Object)>,
}

impl PartialEq for SbeState {
    fn eq(&self, other: &Self) -> bool {
        self.setup == other.setup
            && self.ships == other.ships
            && self.tick == other.tick
            && self.max_ticks == other.max_ticks
            && self.rng == other.rng
            && self.objects() == other.objects()
    }
}

impl Clone for SbeState {
    fn clone(&self) -> Self {
        let mut objects = Vec::with_capacity(self.objects.capacity().max(OBJECT_RESERVE));
        objects.extend_from_slice(&self.objects);
        Self {
            setup: Arc::clone(&self.setup),
            ships: self.ships.clone(),
            objects,
            tick: self.tick,
            max_ticks: self.max_ticks,
            rng: self.rng.clone(),
            plan: self.plan.clone(),
            met: self.met.clone(),
            replaced: self.replaced.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.setup, &source.setup) {
            self.setup = Arc::clone(&source.setup);
        }
        self.ships.clone_from(&source.ships);
        self.objects.clone_from(&source.objects);
        self.tick = source.tick;
        self.max_ticks = source.max_ticks;
        self.rng.clone_from(&source.rng);
        match (&self.plan, &source.plan) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => {}
            _ => self.plan.clone_from(&source.plan),
        }
        self.met.clone_from(&source.met);
        self.replaced.clone_from(&source.replaced);
    }
}

impl SbeState {
    /// A new game on `params`, its packs placed by a generator seeded from `seed`.
    /// Params out of their domains are a caller bug; see [`SbeParams::validate`].
    pub fn new(params: SbeParams, seed: u64) -> Self {
        debug_assert_eq!(params.validate(), Ok(()));
        let holes = black_hole_layout(&params);
        let field = HoleField::new(&holes, f64::from(params.blackhole_force));
        Self {
            setup: Arc::new(Setup {
                params,
                holes,
                field,
            }),
            ships: SHIP_STARTS.map(|(pos, dir)| Ship::new(pos, dir)),
            objects: Vec::with_capacity(OBJECT_RESERVE),
            tick: 0,
            max_ticks: DEFAULT_MAX_TICKS,
            rng: rng_from_seed(seed),
            plan: None,
            met: Vec::new(),
            replaced: Vec::new(),
        }
    }

    /// A copy of this state for a search agent that will advance copies of it at most
    /// `horizon` ticks: the objects' paths are planned once (see `SearchPlan`). It
    /// plays exactly as this state; past the horizon a copy falls back to moving every
    /// object itself.
    pub fn search_root(&self, horizon: u32) -> Self {
        let mut root = self.clone();
        root.leave_plan();
        let horizon = horizon.min(self.max_ticks.saturating_sub(self.tick));
        if root.objects.len() < MIN_PLANNED_OBJECTS || horizon == 0 || root.game_over() {
            return root;
        }
        let plan = SearchPlan::new(
            &root.objects,
            root.tick,
            horizon,
            &root.setup.field,
            root.setup.params.bomb_radius,
        );
        root.met = vec![0; plan.len().div_ceil(64)];
        root.objects.clear();
        root.plan = Some(Arc::new(plan));
        root
    }

    /// Every object now, in creation order: the plan's that are still on the map, then
    /// the rest.
    fn materialise(&self, plan: &SearchPlan) -> Vec<Object> {
        let k = self.tick - plan.start_tick;
        let mut all = Vec::with_capacity(plan.len() + self.objects.len());
        for i in 0..plan.len() {
            if self.met[i / 64] >> (i % 64) & 1 == 0 {
                all.extend(plan.after(k, i));
            } else if let Some((_, o)) = self.replaced.iter().find(|(j, _)| *j as usize == i) {
                all.push(*o);
            }
        }
        all.extend_from_slice(&self.objects);
        all
    }

    /// Drops the plan, taking its objects back as ordinary ones.
    fn leave_plan(&mut self) {
        if let Some(plan) = self.plan.take() {
            self.objects = self.materialise(&plan);
            self.met.clear();
            self.replaced.clear();
        }
    }

    /// The same game ending after `max_ticks` ticks instead of 2000.
    pub fn with_max_ticks(mut self, max_ticks: u32) -> Self {
        self.max_ticks = max_ticks;
        self
    }

    /// The game's parameters.
    pub fn params(&self) -> &SbeParams {
        &self.setup.params
    }

    #[cfg(any(test, feature = "draw"))]
    pub(crate) fn black_holes(&self) -> &[BlackHole] {
        &self.setup.holes
    }

    /// Ticks played so far.
    pub fn tick(&self) -> u32 {
        self.tick
    }

    /// The tick at which the game ends.
    pub fn max_ticks(&self) -> u32 {
        self.max_ticks
    }

    /// Ship `player` (0 or 1): position, heading, velocity and tallies.
    #[cfg(any(test, feature = "draw"))]
    pub(crate) fn ship(&self, player: usize) -> &Ship {
        &self.ships[player]
    }

    /// Every missile, bomb and pack on the map, in creation order (assembled from the
    /// plan in a search copy).
    pub(crate) fn objects(&self) -> Cow<'_, [Object]> {
        match &self.plan {
            None => Cow::Borrowed(&self.objects),
            Some(plan) => Cow::Owned(self.materialise(plan)),
        }
    }

    #[cfg(test)]
    pub(crate) fn missiles(&self) -> impl Iterator<Item = Object> {
        self.objects_of(super::objects::ObjectKind::Missile)
    }

    #[cfg(test)]
    pub(crate) fn bombs(&self) -> impl Iterator<Item = Object> {
        self.objects_of(super::objects::ObjectKind::Bomb)
    }

    #[cfg(test)]
    pub(crate) fn packs(&self) -> impl Iterator<Item = Object> {
        self.objects_of(super::objects::ObjectKind::Pack)
    }

    #[cfg(test)]
    fn objects_of(&self, kind: super::objects::ObjectKind) -> impl Iterator<Item = Object> {
        self.objects()
            .into_owned()
            .into_iter()
            .filter(move |o| o.kind == kind)
    }

    /// Points of `player`: 100 a kill, 10 a pack, minus the black-hole penalty.
    pub fn points(&self, player: usize) -> f64 {
        self.ships[player].points(self.setup.params.blackhole_penalty)
    }

    pub(crate) fn ship_stats(&self, player: usize) -> ShipStats {
        let ship = &self.ships[player];
        ShipStats {
            kills: ship.kills,
            points: self.points(player),
            shots_fired: ship.shots_fired,
            penalty_ticks: ship.penalty_ticks,
            collected: ship.collected,
            lives: ship.lives,
            shots_left: ship.shots,
        }
    }

    /// True at the tick limit or once a ship has no lives left.
    pub(crate) fn game_over(&self) -> bool {
        self.tick >= self.max_ticks || self.ships.iter().any(|s| s.lives == 0)
    }

    /// Per player, whether they won: the higher score wins, equal scores both win.
    pub(crate) fn winner_flags(&self) -> [bool; 2] {
        let (a, b) = (self.points(0), self.points(1));
        [a >= b, b >= a]
    }

    /// Plays one tick with `actions[p]` for ship p. A finished game does not move.
    pub fn step(&mut self, actions: [SbeAction; 2]) {
        if self.game_over() {
            return;
        }
        if let Some(plan) = &self.plan
            && self.tick - plan.start_tick >= plan.horizon
        {
            self.leave_plan();
        }
        let setup = &*self.setup;
        let params = &setup.params;
        let field = &setup.field;

        // 1. Ships fire, then move.
        let mut ship_pos = [Vec2::ZERO; 2];
        for (player, ship) in self.ships.iter_mut().enumerate() {
            let wanted = controls(actions[player]);
            // Checked here as well: most ticks the ship may not fire, and the call
            // would cost more than the check.
            if wanted.fire && ship.can_fire() {
                try_fire(ship, player, params, &mut self.objects);
            }
            ship_pos[player] = update_ship_with(ship, wanted, |pos| field.pull(pos));
        }

        // 2. Packs appear on schedule.
        // max(1): hand-built params outside the domains must not divide by zero.
        let period = (params.resource_cooldown + params.resource_ttl).max(1);
        if self.tick % period == PACK_SPAWN_PHASE {
            let pos = Vec2::new(
                self.rng.random::<f64>() * WIDTH,
                self.rng.random::<f64>() * HEIGHT,
            );
            self.objects.push(Object::pack(pos, params.resource_ttl));
        }

        // 3. One pass over the objects, each on its own: missiles move (bombs and packs
        // are static); the ships meet it, ship 0 first; it ages, and leaves if dead,
        // a bomb-type missile leaving a bomb behind. Objects do not touch each other
        // (missiles pass through missiles, bombs and packs) and the ships do not move
        // meanwhile, so this is the same as moving every object, then ship 0 meeting
        // every object, then ship 1, then everything ageing.
        let bomb_radius = params.bomb_radius;
        let ships = &mut self.ships;
        // The planned objects: only those near a ship can change anything. Each is
        // still met by ship 0 before ship 1, and the tallies add up in any order.
        if let Some(plan) = &self.plan {
            self.replaced.retain_mut(|(_, object)| {
                tick_object(object, field, &ship_pos, ships, bomb_radius)
            });
            let k = self.tick + 1 - plan.start_tick;
            let (met, replaced) = (&mut self.met, &mut self.replaced);
            for (player, &pos) in ship_pos.iter().enumerate() {
                plan.near(k, pos, |i| {
                    let (word, bit) = (i as usize / 64, 1u64 << (i % 64));
                    if met[word] & bit != 0 {
                        return;
                    }
                    let object = plan.during(k, i);
                    if object.concerns(player)
                        && pos.within(object.pos, SHIP_RADIUS + object.radius)
                        && ship_meets(ships, player, object)
                    {
                        met[word] |= bit;
                        let mut left = *object;
                        left.alive = false;
                        if left.end_tick(bomb_radius) {
                            replaced.push((i, left));
                        }
                    }
                });
            }
        }
        // In place: an object is only moved when an earlier one has left.
        let objects = &mut self.objects;
        let mut kept = 0;
        for i in 0..objects.len() {
            if tick_object(&mut objects[i], field, &ship_pos, ships, bomb_radius) {
                if kept != i {
                    objects[kept] = objects[i];
                }
                kept += 1;
            }
        }
        objects.truncate(kept);
        self.tick += 1;
    }
}

/// One object's part of a tick (see [`SbeState::step`]): it moves, the ships at
/// `ship_pos` meet it, ship 0 first, and it ages. Whether it stays. Inlined into each
/// pass: as a call it costs about as much as its work.
#[inline(always)]
fn tick_object(
    object: &mut Object,
    field: &HoleField,
    ship_pos: &[Vec2; 2],
    ships: &mut [Ship; 2],
    bomb_radius: u32,
) -> bool {
    let object_pos = move_object(object, field);
    for (player, &pos) in ship_pos.iter().enumerate() {
        if object.alive
            && object.concerns(player)
            && pos.within(object_pos, SHIP_RADIUS + object.radius)
            && ship_meets(ships, player, object)
        {
            object.alive = false;
        }
    }
    object.end_tick(bomb_radius)
}

#[cfg(test)]
pub(crate) mod tests;

/// Pins the exact trajectories of the forward model: a hash of every ship's and
/// object's state after each of 2000 ticks of fixed-seed games with random actions.
/// Any optimisation of the tick must keep these hashes bit for bit.
#[cfg(test)]
mod trajectory_hash;

/// Search roots ([`SbeState::search_root`]) play exactly as plain states.
#[cfg(test)]
mod search_plan;
