//! How ships and missiles move, and how a shot becomes missiles.

use super::action::Controls;
use super::geometry::{HEIGHT, Vec2, WIDTH};
use super::objects::{
    BlackHole, FRICTION, MAX_SHIP_SPEED, Object, ObjectKind, SHIP_RADIUS, SPAWN_DISTANCE_FACTOR,
    Ship, THRUST_PER_TICK, TURN_DEGREES, TWIN_ANGLE_DEGREES,
};
use super::params::{MissileType, SbeParams};
use std::sync::LazyLock;

/// `(sin, cos)` of the fixed angles, computed once exactly as [`Vec2::rotated`] would.
struct Rotations {
    /// Turning left (`turn = -1`) and right (`turn = 1`).
    turn: [(f64, f64); 2],
    /// The two twin missiles, at `-TWIN_ANGLE_DEGREES` and `TWIN_ANGLE_DEGREES`.
    twin: [(f64, f64); 2],
}

static ROTATIONS: LazyLock<Rotations> = LazyLock::new(|| Rotations {
    turn: [-1i8, 1].map(|t| (TURN_DEGREES * f64::from(t)).to_radians().sin_cos()),
    twin: [-TWIN_ANGLE_DEGREES, TWIN_ANGLE_DEGREES].map(|a| a.to_radians().sin_cos()),
});

/// Drags `pos` exactly `force` pixels towards the centre of every hole it is inside
/// (holes in order, each from where the previous one left it; a pull may overshoot a
/// centre closer than `force`, as in the reference). Returns the new position and the
/// number of holes whose penalty area it was in: each such hole costs a penalty tick,
/// as in the reference code, so overlapping holes penalise more.
#[cfg(test)]
pub(crate) fn pull_into_holes(mut pos: Vec2, holes: &[BlackHole], force: f64) -> (Vec2, u32) {
    let mut penalties = 0;
    for hole in holes {
        let offset = hole.centre - pos;
        // Most objects are outside most holes: skip the square root for them.
        if offset.length_squared() >= hole.radius * hole.radius {
            continue;
        }
        let distance = offset.length();
        if distance < hole.radius {
            if distance < hole.penalty_radius() {
                penalties += 1;
            }
            // At the exact centre there is no direction to pull in.
            if distance > 0.0 {
                pos += offset * (force / distance);
            }
        }
    }
    (pos, penalties)
}

/// Side of the square cells [`HoleField`] cuts the map into.
const CELL_SIZE: f64 = 16.0;
const CELL_COLS: usize = (WIDTH / CELL_SIZE) as usize;
const CELL_ROWS: usize = (HEIGHT / CELL_SIZE) as usize;

/// One hole with the figures [`pull_into_holes`] derives from it computed once.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FieldHole {
    centre: Vec2,
    radius: f64,
    radius_squared: f64,
    penalty_radius: f64,
}

/// The black holes of a game prepared for fast pulls: per 16 x 16 pixel cell of the
/// map, a bit mask of the holes a point starting in that cell could be inside of, so
/// that [`HoleField::pull`] only tests those. It gives exactly what
/// [`pull_into_holes`] gives: the holes it skips are ones the exact test would reject.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HoleField {
    holes: Vec<FieldHole>,
    force: f64,
    /// Row-major, `CELL_COLS x CELL_ROWS`; empty when there are no holes.
    cells: Vec<u16>,
    /// Every hole: the mask for points off the map.
    all: u16,
}

impl HoleField {
    /// At most 16 holes (a 4 x 4 grid), each pulling `force` pixels a tick.
    pub(crate) fn new(holes: &[BlackHole], force: f64) -> Self {
        assert!(holes.len() <= 16, "at most 16 black holes");
        let holes: Vec<FieldHole> = holes
            .iter()
            .map(|h| FieldHole {
                centre: h.centre,
                radius: h.radius,
                radius_squared: h.radius * h.radius,
                penalty_radius: h.penalty_radius(),
            })
            .collect();
        let all = ((1u32 << holes.len()) - 1) as u16;
        // Earlier holes may have dragged the point by up to `force` each before a later
        // hole is tested; one more pixel absorbs every rounding.
        let margin = force.abs() * holes.len() as f64 + 1.0;
        let mut cells = Vec::new();
        if !holes.is_empty() {
            cells.reserve(CELL_COLS * CELL_ROWS);
            for row in 0..CELL_ROWS {
                for col in 0..CELL_COLS {
                    let (x0, y0) = (col as f64 * CELL_SIZE, row as f64 * CELL_SIZE);
                    let (x1, y1) = (x0 + CELL_SIZE, y0 + CELL_SIZE);
                    let mut mask = 0u16;
                    for (i, h) in holes.iter().enumerate() {
                        let dx = (x0 - h.centre.x).max(h.centre.x - x1).max(0.0);
                        let dy = (y0 - h.centre.y).max(h.centre.y - y1).max(0.0);
                        let reach = h.radius + margin;
                        if dx * dx + dy * dy < reach * reach {
                            mask |= 1 << i;
                        }
                    }
                    cells.push(mask);
                }
            }
        }
        Self {
            holes,
            force,
            cells,
            all,
        }
    }

    /// The holes worth testing for a point at `pos`.
    #[inline]
    fn candidates(&self, pos: Vec2) -> u16 {
        if self.cells.is_empty() {
            return 0;
        }
        if pos.x >= 0.0 && pos.x < WIDTH && pos.y >= 0.0 && pos.y < HEIGHT {
            // Scaling by a power of two is exact, so the indices stay in range. Via i32:
            // a float to usize conversion costs several times more.
            let (col, row) = (
                (pos.x * (1.0 / CELL_SIZE)) as i32 as usize,
                (pos.y * (1.0 / CELL_SIZE)) as i32 as usize,
            );
            self.cells[row * CELL_COLS + col]
        } else {
            self.all
        }
    }

    /// Exactly `pull_into_holes(pos, holes, force)`.
    #[inline(always)]
    pub(crate) fn pull(&self, mut pos: Vec2) -> (Vec2, u32) {
        let mut mask = self.candidates(pos);
        let mut penalties = 0;
        while mask != 0 {
            let hole = &self.holes[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            let offset = hole.centre - pos;
            let distance_squared = offset.length_squared();
            if distance_squared >= hole.radius_squared {
                continue;
            }
            let distance = distance_squared.sqrt();
            if distance < hole.radius {
                if distance < hole.penalty_radius {
                    penalties += 1;
                }
                if distance > 0.0 {
                    pos += offset * (self.force / distance);
                }
            }
        }
        (pos, penalties)
    }
}

/// One tick of a ship: thrust, turn, friction, black holes, speed limit, move, wrap,
/// cooldown.
#[cfg(test)]
pub(crate) fn update_ship(ship: &mut Ship, controls: Controls, holes: &[BlackHole], force: f64) {
    update_ship_with(ship, controls, |pos| pull_into_holes(pos, holes, force));
}

/// [`update_ship`] with the black holes' pull given as a function of the position.
/// Returns the new position (see [`move_object`] for why).
#[inline]
pub(crate) fn update_ship_with(
    ship: &mut Ship,
    controls: Controls,
    pull: impl FnOnce(Vec2) -> (Vec2, u32),
) -> Vec2 {
    if controls.thrust {
        ship.vel += ship.dir * THRUST_PER_TICK;
    }
    if controls.turn != 0 {
        let rot = ROTATIONS.turn[usize::from(controls.turn > 0)];
        ship.dir = ship.dir.rotated_by(rot);
    }
    ship.vel = ship.vel * FRICTION;
    let (pos, penalties) = pull(ship.pos);
    ship.pos = pos;
    ship.penalty_ticks += penalties;
    ship.vel = ship.vel.clamped(MAX_SHIP_SPEED);
    ship.pos = (ship.pos + ship.vel).wrapped();
    ship.cooldown = ship.cooldown.saturating_sub(1);
    ship.pos
}

/// One tick of a missile: black holes, move, wrap. Bombs and packs stay put.
#[cfg(test)]
pub(crate) fn update_missile(missile: &mut Object, holes: &[BlackHole], force: f64) {
    let (pos, _) = pull_into_holes(missile.pos, holes, force);
    missile.pos = (pos + missile.vel).wrapped();
}

/// One tick of any object through a prepared [`HoleField`]: missiles are pulled and
/// move; bombs and packs stay put. Returns the new position, for callers to use
/// rather than read it back: reading a vector just written as two halves stalls the
/// processor (a failed store forward) for longer than the move takes.
#[inline(always)]
pub(crate) fn move_object(object: &mut Object, field: &HoleField) -> Vec2 {
    if object.kind == ObjectKind::Missile {
        let (pos, _) = field.pull(object.pos);
        object.pos = (pos + object.vel).wrapped();
    }
    object.pos
}

/// Fires one shot from `ship` (player `owner`) if it may: pays a shot, starts the
/// cooldown and appends the missiles to `objects`.
pub(crate) fn try_fire(
    ship: &mut Ship,
    owner: usize,
    params: &SbeParams,
    objects: &mut Vec<Object>,
) {
    if !ship.can_fire() {
        return;
    }
    ship.shots -= 1;
    ship.shots_fired += 1;
    ship.cooldown = params.missile_cooldown;
    let speed = f64::from(params.missile_max_speed);
    match params.missile_type {
        MissileType::Normal | MissileType::Bomb => {
            let ahead = SPAWN_DISTANCE_FACTOR * (SHIP_RADIUS + f64::from(params.missile_radius));
            let pos = (ship.pos + ship.dir * ahead).wrapped();
            let vel = ship.dir * speed + ship.vel;
            let explodes = params.missile_type == MissileType::Bomb;
            objects.push(Object::missile(owner, pos, vel, params, explodes));
        }
        MissileType::Twin => {
            for rot in ROTATIONS.twin {
                let vel = ship.dir.rotated_by(rot) * speed + ship.vel;
                objects.push(Object::missile(owner, ship.pos, vel, params, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{self, controls};
    use crate::objects::{ObjectKind, START_SHOTS};

    fn close(a: Vec2, b: Vec2) -> bool {
        a.distance(b) < 1e-9
    }

    fn ship_at(x: f64, y: f64) -> Ship {
        Ship::new(Vec2::new(x, y), Vec2::new(0.0, 1.0))
    }

    fn hole(x: f64, y: f64, radius: f64, safe_zone: f64) -> BlackHole {
        BlackHole {
            centre: Vec2::new(x, y),
            radius,
            safe_zone,
        }
    }

    #[test]
    fn ships_wrap_around_the_torus() {
        let mut ship = ship_at(639.0, 1.0);
        ship.vel = Vec2::new(3.0, -4.0);
        update_ship(&mut ship, controls(action::NIL), &[], 0.0);
        assert!(close(
            ship.pos,
            Vec2::new(639.0 + 3.0 * 0.99 - 640.0, 1.0 - 4.0 * 0.99 + 480.0)
        ));
    }

    #[test]
    fn friction_keeps_99_percent_of_velocity() {
        let mut ship = ship_at(100.0, 100.0);
        ship.vel = Vec2::new(10.0, -5.0);
        update_ship(&mut ship, controls(action::NIL), &[], 0.0);
        assert!(close(ship.vel, Vec2::new(9.9, -4.95)));
        assert!(close(ship.pos, Vec2::new(109.9, 95.05)));
    }

    #[test]
    fn thrust_adds_fifteen_hundredths_of_heading() {
        let mut ship = ship_at(100.0, 100.0);
        update_ship(&mut ship, controls(action::T), &[], 0.0);
        assert!(close(ship.vel, Vec2::new(0.0, 0.15 * 0.99)));
    }

    #[test]
    fn turning_rotates_heading_by_four_degrees() {
        let mut ship = ship_at(100.0, 100.0);
        update_ship(&mut ship, controls(action::L), &[], 0.0);
        let angle = ship.dir.y.atan2(ship.dir.x).to_degrees();
        assert!(
            (angle - 86.0).abs() < 1e-9,
            "left turns anticlockwise on screen: {angle}"
        );
        update_ship(&mut ship, controls(action::R), &[], 0.0);
        update_ship(&mut ship, controls(action::R), &[], 0.0);
        let angle = ship.dir.y.atan2(ship.dir.x).to_degrees();
        assert!((angle - 94.0).abs() < 1e-9);
        assert!((ship.dir.length() - 1.0).abs() < 1e-12);
        assert_eq!(ship.vel, Vec2::ZERO, "turning alone does not move the ship");
    }

    #[test]
    fn velocity_components_are_clamped_to_twenty() {
        let mut ship = ship_at(100.0, 100.0);
        ship.vel = Vec2::new(50.0, -30.0);
        update_ship(&mut ship, controls(action::NIL), &[], 0.0);
        assert_eq!(ship.vel, Vec2::new(20.0, -20.0));
        assert!(close(ship.pos, Vec2::new(120.0, 80.0)));
    }

    #[test]
    fn black_hole_pulls_position_but_not_velocity() {
        let holes = [hole(200.0, 100.0, 150.0, 10.0)];
        let mut ship = ship_at(100.0, 100.0);
        ship.vel = Vec2::new(0.0, 1.0);
        update_ship(&mut ship, controls(action::NIL), &holes, 3.0);
        assert!(close(ship.vel, Vec2::new(0.0, 0.99)));
        assert!(close(ship.pos, Vec2::new(103.0, 100.99)));
        // Outside the radius nothing happens.
        let (pos, penalties) = pull_into_holes(Vec2::new(400.0, 100.0), &holes, 3.0);
        assert_eq!((pos, penalties), (Vec2::new(400.0, 100.0), 0));
        // Close to the centre the pull overshoots it by the rest of the force.
        let (pos, _) = pull_into_holes(Vec2::new(201.0, 100.0), &holes, 3.0);
        assert!(close(pos, Vec2::new(198.0, 100.0)));
        let (pos, _) = pull_into_holes(Vec2::new(200.0, 100.0), &holes, 3.0);
        assert_eq!(pos, Vec2::new(200.0, 100.0));
    }

    #[test]
    fn safe_zone_is_not_penalised_and_the_inside_is() {
        let holes = [hole(300.0, 300.0, 100.0, 20.0)];
        // In the ring between 80 and 100 px: pulled, not penalised.
        let mut ring = ship_at(210.0, 300.0);
        update_ship(&mut ring, controls(action::NIL), &holes, 2.0);
        assert_eq!(ring.penalty_ticks, 0);
        assert!(close(ring.pos, Vec2::new(212.0, 300.0)));
        // Inside 80 px: one penalty tick per tick.
        let mut inside = ship_at(230.0, 300.0);
        for _ in 0..3 {
            update_ship(&mut inside, controls(action::NIL), &holes, 0.0);
        }
        assert_eq!(inside.penalty_ticks, 3);
        // Each overlapping hole's penalty area counts.
        let both = [
            hole(300.0, 300.0, 100.0, 0.0),
            hole(310.0, 300.0, 100.0, 0.0),
        ];
        let mut ship = ship_at(300.0, 290.0);
        update_ship(&mut ship, controls(action::NIL), &both, 0.0);
        assert_eq!(ship.penalty_ticks, 2);
    }

    #[test]
    fn missiles_wrap_and_are_pulled() {
        let params = SbeParams::default();
        let mut m = Object::missile(
            0,
            Vec2::new(2.0, 478.0),
            Vec2::new(-5.0, 5.0),
            &params,
            false,
        );
        update_missile(&mut m, &[], 2.0);
        assert!(close(m.pos, Vec2::new(637.0, 3.0)));
        let holes = [hole(100.0, 100.0, 50.0, 0.0)];
        let mut m = Object::missile(
            0,
            Vec2::new(100.0, 130.0),
            Vec2::new(1.0, 0.0),
            &params,
            false,
        );
        update_missile(&mut m, &holes, 2.0);
        assert!(close(m.pos, Vec2::new(101.0, 128.0)));
        assert_eq!(m.vel, Vec2::new(1.0, 0.0));
    }

    #[test]
    fn cooldown_and_ammunition_gate_firing() {
        let params = SbeParams {
            missile_type: MissileType::Normal,
            missile_cooldown: 3,
            ..SbeParams::default()
        };
        let mut ship = ship_at(100.0, 100.0);
        let mut objects = Vec::new();
        let mut fired_at = Vec::new();
        for tick in 0..10 {
            let before = objects.len();
            try_fire(&mut ship, 0, &params, &mut objects);
            if objects.len() > before {
                fired_at.push(tick);
            }
            update_ship(&mut ship, controls(action::NIL), &[], 0.0);
        }
        assert_eq!(fired_at, vec![0, 3, 6, 9]);
        assert_eq!(ship.shots, START_SHOTS - 4);
        ship.shots = 0;
        ship.cooldown = 0;
        try_fire(&mut ship, 0, &params, &mut objects);
        assert_eq!((objects.len(), ship.shots_fired), (4, 4));
    }

    #[test]
    fn normal_missile_spawns_ahead_with_ship_velocity_added() {
        let params = SbeParams {
            missile_type: MissileType::Normal,
            ..SbeParams::default()
        };
        let mut ship = ship_at(100.0, 100.0);
        ship.vel = Vec2::new(1.0, 0.5);
        let mut objects = Vec::new();
        try_fire(&mut ship, 1, &params, &mut objects);
        let m = objects[0];
        assert_eq!(objects.len(), 1);
        // 1.5 * (20 + 4) = 36 pixels ahead.
        assert!(close(m.pos, Vec2::new(100.0, 136.0)));
        assert!(close(m.vel, Vec2::new(1.0, 5.5)));
        assert_eq!(
            (m.owner, m.kind, m.radius, m.ttl, m.explodes),
            (1, ObjectKind::Missile, 4.0, 100, false)
        );
        assert_eq!(ship.cooldown, 4);
    }

    #[test]
    fn twin_shot_fires_two_missiles_at_forty_degrees_for_one_shot() {
        let params = SbeParams::default();
        let mut ship = ship_at(100.0, 100.0);
        let mut objects = Vec::new();
        try_fire(&mut ship, 0, &params, &mut objects);
        assert_eq!(
            (objects.len(), ship.shots, ship.shots_fired),
            (2, START_SHOTS - 1, 1)
        );
        let angles: Vec<f64> = objects
            .iter()
            .map(|m| m.vel.y.atan2(m.vel.x).to_degrees())
            .collect();
        assert!(
            (angles[0] - 50.0).abs() < 1e-9 && (angles[1] - 130.0).abs() < 1e-9,
            "{angles:?}"
        );
        assert!(
            objects
                .iter()
                .all(|m| m.pos == ship.pos && (m.vel.length() - 5.0).abs() < 1e-9)
        );
    }

    #[test]
    fn bomb_type_missile_spawns_like_a_normal_one_and_explodes() {
        let params = SbeParams {
            missile_type: MissileType::Bomb,
            ..SbeParams::default()
        };
        let mut ship = ship_at(100.0, 100.0);
        let mut objects = Vec::new();
        try_fire(&mut ship, 0, &params, &mut objects);
        assert_eq!(objects.len(), 1);
        assert!(objects[0].explodes);
    }

    #[test]
    fn hole_field_pulls_exactly_like_pull_into_holes() {
        use crate::objects::black_hole_layout;
        use playtune_optim::rng::rng_from_seed;
        use rand::RngExt;
        let mut rng = rng_from_seed(17);
        for _ in 0..200 {
            let mut params = SbeParams {
                grid_size: rng.random_range(1..=4),
                blackhole_radius: [25, 50, 75, 100, 150, 200][rng.random_range(0..6)],
                blackhole_force: rng.random_range(0..=3),
                safe_zone: [0, 10, 20][rng.random_range(0..3)],
                ..SbeParams::default()
            };
            for cell in &mut params.blackhole_cells {
                *cell = rng.random_bool(0.6);
            }
            let holes = black_hole_layout(&params);
            let force = f64::from(params.blackhole_force);
            let field = HoleField::new(&holes, force);
            for _ in 0..500 {
                let pos = Vec2::new(
                    rng.random_range(-20.0..660.0),
                    rng.random_range(-20.0..500.0),
                );
                assert_eq!(field.pull(pos), pull_into_holes(pos, &holes, force));
            }
            for hole in &holes {
                for pos in [hole.centre, hole.centre + Vec2::new(0.5, -0.25)] {
                    assert_eq!(field.pull(pos), pull_into_holes(pos, &holes, force));
                }
            }
        }
    }
}
