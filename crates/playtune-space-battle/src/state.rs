//! The game state and its tick.

use super::action::{SbeAction, controls};
use super::geometry::{HEIGHT, Vec2, WIDTH};
use super::objects::{
    BlackHole, DEFAULT_MAX_TICKS, Object, ObjectKind, PACK_SPAWN_PHASE, SHIP_RADIUS, SHIP_STARTS,
    Ship, black_hole_layout, ship_meets,
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
pub struct ShipStats {
    pub kills: u32,
    pub points: f64,
    pub shots_fired: u32,
    pub penalty_ticks: u32,
    pub collected: u32,
    pub lives: u32,
    pub shots_left: u32,
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

    pub fn params(&self) -> &SbeParams {
        &self.setup.params
    }

    pub(crate) fn black_holes(&self) -> &[BlackHole] {
        &self.setup.holes
    }

    pub fn tick(&self) -> u32 {
        self.tick
    }

    pub fn max_ticks(&self) -> u32 {
        self.max_ticks
    }

    /// Ship `player` (0 or 1): position, heading, velocity and tallies.
    pub fn ship(&self, player: usize) -> &Ship {
        &self.ships[player]
    }

    /// Every missile, bomb and pack on the map, in creation order (assembled from the
    /// plan in a search copy).
    pub fn objects(&self) -> Cow<'_, [Object]> {
        match &self.plan {
            None => Cow::Borrowed(&self.objects),
            Some(plan) => Cow::Owned(self.materialise(plan)),
        }
    }

    pub fn missiles(&self) -> impl Iterator<Item = Object> {
        self.objects_of(ObjectKind::Missile)
    }

    pub fn bombs(&self) -> impl Iterator<Item = Object> {
        self.objects_of(ObjectKind::Bomb)
    }

    pub fn packs(&self) -> impl Iterator<Item = Object> {
        self.objects_of(ObjectKind::Pack)
    }

    fn objects_of(&self, kind: ObjectKind) -> impl Iterator<Item = Object> {
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
pub(crate) mod tests {
    use super::*;
    use crate::action::{self, NUM_ACTIONS};
    use crate::objects::{BOMB_TTL, START_LIVES, START_SHOTS};
    use crate::params::MissileType;
    use playtune_optim::rng::rng_from_seed;

    impl SbeState {
        /// Test access to the ships, to stage situations.
        pub(crate) fn ship_mut(&mut self, player: usize) -> &mut Ship {
            &mut self.ships[player]
        }
    }

    /// A fresh game with a fixed seed; the ships start still and far apart.
    fn quiet(params: SbeParams) -> SbeState {
        SbeState::new(params, 1)
    }

    #[test]
    fn new_game_starts_as_the_spec_says() {
        let s = SbeState::new(SbeParams::default(), 0);
        assert_eq!(s.ship(0).pos, Vec2::new(213.0, 160.0));
        assert_eq!(s.ship(1).dir, Vec2::new(0.0, -1.0));
        assert_eq!(
            (s.ship(0).lives, s.ship(0).shots),
            (START_LIVES, START_SHOTS)
        );
        assert_eq!((s.tick(), s.max_ticks(), s.game_over()), (0, 2000, false));
    }

    #[test]
    fn missiles_never_hit_their_owner() {
        let mut s = quiet(SbeParams::default());
        // Twin missiles start at the ship centre, inside its radius.
        s.step([action::F, action::NIL]);
        assert_eq!(s.missiles().count(), 2);
        assert_eq!(s.ship(0).lives, START_LIVES);
        assert_eq!(s.ship(1).kills, 0);
    }

    #[test]
    fn missiles_pass_through_each_other() {
        let mut s = quiet(SbeParams {
            missile_type: MissileType::Normal,
            ..SbeParams::default()
        });
        // Ship 1 faces ship 0 down the same vertical line: the missiles meet head on.
        s.ship_mut(1).pos = Vec2::new(213.0, 320.0);
        s.step([action::F, action::F]);
        for _ in 0..10 {
            s.step([action::NIL, action::NIL]);
        }
        assert_eq!(s.missiles().count(), 2);
        // After crossing, each missile goes on to hit the other ship.
        for _ in 0..20 {
            s.step([action::NIL, action::NIL]);
        }
        assert_eq!((s.ship(0).kills, s.ship(1).kills), (1, 1));
        assert_eq!(
            (s.ship(0).lives, s.ship(1).lives),
            (START_LIVES - 1, START_LIVES - 1)
        );
    }

    #[test]
    fn a_hit_costs_a_life_scores_a_kill_and_removes_the_missile() {
        let mut s = quiet(SbeParams {
            missile_type: MissileType::Normal,
            ..SbeParams::default()
        });
        // Put ship 1 right where ship 0's next missile spawns.
        s.ship_mut(1).pos = Vec2::new(213.0, 200.0);
        s.step([action::F, action::NIL]);
        assert_eq!(s.ship(1).lives, START_LIVES - 1);
        assert_eq!(s.ship(0).kills, 1);
        assert_eq!(s.points(0), 100.0);
        assert_eq!(s.missiles().count(), 0);
    }

    #[test]
    fn missiles_expire_after_their_ttl() {
        let params = SbeParams {
            missile_type: MissileType::Normal,
            missile_max_ttl: 40,
            ..SbeParams::default()
        };
        let mut s = quiet(params);
        s.ship_mut(1).pos = Vec2::new(600.0, 20.0);
        s.ship_mut(0).dir = Vec2::new(1.0, 0.0);
        s.ship_mut(0).pos = Vec2::new(0.0, 460.0);
        s.step([action::F, action::NIL]);
        for _ in 0..38 {
            s.step([action::NIL, action::NIL]);
        }
        assert_eq!(s.missiles().count(), 1, "alive for 39 ticks");
        s.step([action::NIL, action::NIL]);
        assert_eq!(s.missiles().count(), 0, "gone after 40");
    }

    #[test]
    fn bomb_appears_where_a_bomb_missile_dies_and_lasts_two_ticks() {
        let mut params = SbeParams {
            missile_type: MissileType::Bomb,
            missile_max_ttl: 40,
            grid_size: 1,
            blackhole_force: 3,
            blackhole_radius: 200,
            ..SbeParams::default()
        };
        params.blackhole_cells[0] = true;
        let mut s = quiet(params);
        // Fire into the hole centred at (320, 240), away from ship 1.
        s.ship_mut(0).pos = Vec2::new(100.0, 240.0);
        s.ship_mut(0).dir = Vec2::new(1.0, 0.0);
        s.ship_mut(1).pos = Vec2::new(620.0, 20.0);
        s.step([action::F, action::NIL]);
        for _ in 0..38 {
            s.step([action::NIL, action::NIL]);
        }
        let mut last = s.missiles().next().expect("missile in its last tick");
        update_missile(&mut last, s.black_holes(), 3.0);
        s.step([action::NIL, action::NIL]);
        assert_eq!(s.missiles().count(), 0);
        let bomb = s.bombs().next().expect("a bomb where the missile died");
        assert_eq!((bomb.radius, bomb.ttl, bomb.owner), (20.0, BOMB_TTL, 0));
        assert_eq!(bomb.pos, last.pos);
        assert!(
            bomb.pos.distance(Vec2::new(320.0, 240.0)) < 200.0,
            "inside the hole"
        );
        // Bombs are not pulled by the hole and last two ticks.
        s.step([action::NIL, action::NIL]);
        assert_eq!(s.bombs().next().map(|b| b.pos), Some(bomb.pos));
        s.step([action::NIL, action::NIL]);
        assert_eq!(s.bombs().count(), 0);
    }

    #[test]
    fn bomb_from_a_hit_can_hit_again() {
        let mut s = quiet(SbeParams {
            missile_type: MissileType::Bomb,
            ..SbeParams::default()
        });
        s.ship_mut(1).pos = Vec2::new(213.0, 200.0);
        s.step([action::F, action::NIL]);
        assert_eq!(s.ship(0).kills, 1);
        assert_eq!(s.bombs().count(), 1);
        s.step([action::NIL, action::NIL]);
        assert_eq!(s.ship(0).kills, 2, "the bomb explodes on the ship it hit");
        assert_eq!(s.bombs().count(), 0, "a bomb that hits is used up");
    }

    #[test]
    fn packs_spawn_on_schedule_inside_the_map() {
        let params = SbeParams {
            resource_ttl: 400,
            resource_cooldown: 200,
            ..SbeParams::default()
        };
        let mut s = quiet(params);
        let mut spawned_at = Vec::new();
        let mut alive_ticks = 0;
        for _ in 0..1300 {
            let before = s.packs().count();
            let tick = s.tick();
            s.step([action::NIL, action::NIL]);
            if s.packs().count() > before {
                spawned_at.push(tick);
            }
            alive_ticks += s.packs().count();
            for p in s.packs() {
                assert!(p.pos.x >= 0.0 && p.pos.x < 640.0 && p.pos.y >= 0.0 && p.pos.y < 480.0);
            }
        }
        // With this seed no pack lands on a (still) ship, so each lives its full TTL.
        assert_eq!(s.ship(0).collected + s.ship(1).collected, 0);
        assert_eq!(spawned_at, vec![10, 610, 1210]);
        // A pack spawned during tick 10 meets the ships in ticks 10..=409 (its 400-tick
        // TTL) and leaves at the end of tick 409, so it is seen between ticks 399 times.
        assert_eq!(alive_ticks, 399 + 399 + 90);
    }

    #[test]
    fn pack_pickup_gives_twenty_shots_and_ship_zero_goes_first() {
        let mut s = quiet(SbeParams::default());
        for _ in 0..10 {
            s.step([action::NIL, action::NIL]);
        }
        // The pack spawns during tick 10; put both ships on its future spot by
        // peeking at the generator through a copy.
        let mut peek = s.clone();
        peek.step([action::NIL, action::NIL]);
        let pack = peek.packs().next().expect("pack at tick 10");
        s.ship_mut(0).pos = pack.pos;
        s.ship_mut(1).pos = pack.pos;
        s.step([action::NIL, action::NIL]);
        assert_eq!(s.packs().count(), 0);
        assert_eq!(
            (s.ship(0).collected, s.ship(0).shots),
            (1, START_SHOTS + 20)
        );
        assert_eq!((s.ship(1).collected, s.ship(1).shots), (0, START_SHOTS));
        assert_eq!(s.points(0), 10.0);
    }

    #[test]
    fn penalty_ticks_lower_the_score() {
        let mut params = SbeParams {
            grid_size: 1,
            blackhole_penalty: 5,
            blackhole_force: 0,
            ..SbeParams::default()
        };
        params.blackhole_cells[0] = true;
        let mut s = quiet(params);
        s.ship_mut(0).pos = Vec2::new(320.0, 240.0);
        for _ in 0..4 {
            s.step([action::NIL, action::NIL]);
        }
        assert_eq!(s.ship(0).penalty_ticks, 4);
        assert_eq!(s.ship(1).penalty_ticks, 0);
        assert_eq!(s.points(0), -2.0);
        assert_eq!(s.ship_stats(0).points, -2.0);
        assert_eq!(s.winner_flags(), [false, true]);
    }

    #[test]
    fn winner_and_draw() {
        let mut s = quiet(SbeParams::default()).with_max_ticks(3);
        assert_eq!(s.winner_flags(), [true, true], "equal scores draw");
        s.ship_mut(1).kills = 1;
        assert_eq!(s.winner_flags(), [false, true]);
        for _ in 0..5 {
            s.step([action::NIL, action::NIL]);
        }
        assert_eq!(s.tick(), 3, "a finished game does not move");
        assert!(s.game_over());
        let mut s = quiet(SbeParams::default());
        s.ship_mut(0).lives = 0;
        assert!(s.game_over(), "no lives left ends the game");
    }

    fn random_game_states(seed: u64, ticks: usize, params: SbeParams) -> (SbeState, Vec<[u8; 2]>) {
        let mut rng = rng_from_seed(seed);
        let actions = (0..ticks)
            .map(|_| {
                [
                    rng.random_range(0..NUM_ACTIONS),
                    rng.random_range(0..NUM_ACTIONS),
                ]
            })
            .collect();
        (SbeState::new(params, seed), actions)
    }

    fn busy_params() -> SbeParams {
        let mut params = SbeParams {
            missile_type: MissileType::Bomb,
            missile_cooldown: 1,
            resource_ttl: 400,
            resource_cooldown: 200,
            grid_size: 3,
            ..SbeParams::default()
        };
        params.blackhole_cells[..9]
            .copy_from_slice(&[true, false, true, false, true, false, true, false, true]);
        params
    }

    #[test]
    fn a_clone_follows_the_original_trajectory() {
        for params in [SbeParams::default(), busy_params()] {
            let (mut original, actions) = random_game_states(11, 700, params);
            let mut scratch = original.clone();
            for (t, a) in actions.iter().enumerate() {
                if t % 50 == 0 {
                    // Re-branch a copy both ways and check it stays in lockstep.
                    let mut copy = original.clone();
                    scratch.clone_from(&original);
                    for b in &actions[t..(t + 30).min(actions.len())] {
                        copy.step(*b);
                        scratch.step(*b);
                    }
                    assert_eq!(copy, scratch);
                    let mut again = original.clone();
                    for b in &actions[t..(t + 30).min(actions.len())] {
                        again.step(*b);
                    }
                    assert_eq!(again, copy);
                }
                let copy = original.clone();
                assert_eq!(copy, original);
                original.step(*a);
            }
            assert!(original.ship(0).shots_fired > 0);
        }
    }

    #[test]
    fn same_seed_same_game_and_packs_depend_on_the_seed() {
        let run = |seed| {
            let (mut s, actions) = random_game_states(5, 1300, busy_params());
            s = SbeState::new(s.params().clone(), seed);
            for a in actions {
                s.step(a);
            }
            s
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }

    #[test]
    fn clone_from_and_stepping_reuse_the_object_buffer() {
        let (state, actions) = random_game_states(21, 600, busy_params());
        let mut state = state;
        let mut scratch = state.clone();
        let buffer = scratch.objects.as_ptr();
        let mut most = 0;
        for (t, a) in actions.iter().enumerate() {
            scratch.clone_from(&state);
            for b in &actions[t..(t + 10).min(actions.len())] {
                scratch.step(*b);
            }
            most = most.max(scratch.objects.len());
            state.step(*a);
        }
        assert!(most > 10, "the game was busy: {most} objects at most");
        assert!(most <= OBJECT_RESERVE, "the reserve covers a busy game");
        assert_eq!(scratch.objects.as_ptr(), buffer, "no reallocation");
    }
}

/// Pins the exact trajectories of the forward model: a hash of every ship's and
/// object's state after each of 2000 ticks of fixed-seed games with random actions.
/// Any optimisation of the tick must keep these hashes bit for bit.
#[cfg(test)]
mod trajectory_hash {
    use super::*;
    use crate::action::NUM_ACTIONS;
    use crate::params::MissileType;
    use playtune_optim::rng::{mix64, rng_from_seed};

    fn feed(h: &mut u64, v: u64) {
        *h = mix64(*h ^ v);
    }

    fn feed_vec(h: &mut u64, v: Vec2) {
        feed(h, v.x.to_bits());
        feed(h, v.y.to_bits());
    }

    fn state_hash(s: &SbeState, h: &mut u64) {
        for p in 0..2 {
            let ship = s.ship(p);
            feed_vec(h, ship.pos);
            feed_vec(h, ship.vel);
            feed_vec(h, ship.dir);
            for v in [
                ship.lives,
                ship.shots,
                ship.cooldown,
                ship.kills,
                ship.collected,
                ship.penalty_ticks,
                ship.shots_fired,
            ] {
                feed(h, u64::from(v));
            }
            feed(h, s.points(p).to_bits());
        }
        feed(h, s.objects().len() as u64);
        for o in s.objects().iter() {
            feed(h, o.kind as u64);
            feed(h, o.owner as u64);
            feed_vec(h, o.pos);
            feed_vec(h, o.vel);
            feed(h, o.radius.to_bits());
            feed(h, u64::from(o.ttl));
            feed(h, u64::from(o.alive) | u64::from(o.explodes) << 1);
        }
        feed(h, u64::from(s.tick()));
    }

    fn run(params: SbeParams, seed: u64) -> u64 {
        let mut rng = rng_from_seed(seed ^ 0xABCD);
        let mut s = SbeState::new(params, seed);
        let mut h = 0;
        for _ in 0..2000 {
            let a = [
                rng.random_range(0..NUM_ACTIONS),
                rng.random_range(0..NUM_ACTIONS),
            ];
            s.step(a);
            state_hash(&s, &mut h);
        }
        assert_eq!(s.tick(), 2000);
        assert!(s.ship(0).kills + s.ship(1).kills > 0, "the game saw hits");
        h
    }

    fn eight_holes(missile_type: MissileType, radius: u32, force: u32) -> SbeParams {
        let mut p = SbeParams {
            missile_type,
            missile_cooldown: 1,
            missile_max_ttl: 160,
            grid_size: 3,
            blackhole_radius: radius,
            blackhole_force: force,
            blackhole_penalty: 7,
            safe_zone: 10,
            resource_ttl: 400,
            resource_cooldown: 200,
            ..SbeParams::default()
        };
        for c in 0..8 {
            p.blackhole_cells[c] = true;
        }
        p
    }

    #[test]
    fn trajectories_are_bit_identical() {
        let cases = [
            (eight_holes(MissileType::Bomb, 100, 3), 7),
            (eight_holes(MissileType::Bomb, 200, 1), 8),
            (eight_holes(MissileType::Twin, 75, 2), 9),
            (SbeParams::default(), 10),
        ];
        let hashes: Vec<u64> = cases.into_iter().map(|(p, seed)| run(p, seed)).collect();
        assert_eq!(hashes, EXPECTED, "{hashes:#x?}");
    }

    const EXPECTED: [u64; 4] = [
        10072267660615586770,
        3213399980964266437,
        10520084661620392350,
        6240693724506278300,
    ];
}

/// Search roots ([`SbeState::search_root`]) play exactly as plain states.
#[cfg(test)]
mod search_plan {
    use super::*;
    use crate::action::NUM_ACTIONS;
    use crate::params::{NUM_PARAMS, PARAM_DOMAINS, PARAM_NAMES};

    /// Parameters drawn from Table I's domains.
    fn random_params(rng: &mut Rng) -> SbeParams {
        let values: Vec<f64> = (0..NUM_PARAMS)
            .map(|d| PARAM_DOMAINS[d][rng.random_range(0..PARAM_DOMAINS[d].len())])
            .collect();
        SbeParams::from_values(|n| PARAM_NAMES.iter().position(|&p| p == n).map(|d| values[d]))
            .expect("values from the domains")
    }

    /// Fire-happy random play: most actions fire, so the map fills with objects.
    fn busy_action(rng: &mut Rng) -> SbeAction {
        rng.random_range(0..NUM_ACTIONS)
    }

    #[test]
    fn copies_of_a_search_root_play_exactly_as_the_plain_state() {
        let mut rng = rng_from_seed(42);
        let mut planned_roots = 0;
        let mut met_planned = 0;
        for game in 0..60 {
            let params = random_params(&mut rng);
            let mut state = SbeState::new(params, game);
            // Play into the game, then branch: the same actions on a plain copy and on
            // a copy of a search root, past the horizon so the fallback is covered.
            let lead_in = rng.random_range(20..400);
            for _ in 0..lead_in {
                state.step([busy_action(&mut rng), busy_action(&mut rng)]);
            }
            let horizon = rng.random_range(1..40);
            let root = state.search_root(horizon);
            assert_eq!(root, state, "game {game}: the root equals its state");
            if root.plan.is_some() {
                planned_roots += 1;
            }
            for branch in 0..4 {
                let mut plain = state.clone();
                let mut copy = root.clone();
                // A reused buffer, as search agents do.
                copy.clone_from(&root);
                for t in 0..horizon + 5 {
                    let actions = [busy_action(&mut rng), busy_action(&mut rng)];
                    plain.step(actions);
                    copy.step(actions);
                    assert_eq!(
                        copy, plain,
                        "game {game}, branch {branch}, tick {t} after the root"
                    );
                    if t + 1 == horizon && copy.met.iter().any(|w| *w != 0) {
                        met_planned += 1;
                    }
                }
            }
        }
        // The comparison must have exercised plans and ships meeting planned objects.
        assert!(planned_roots >= 40, "{planned_roots} planned roots");
        assert!(
            met_planned >= 20,
            "{met_planned} branches met planned objects"
        );
    }
}
