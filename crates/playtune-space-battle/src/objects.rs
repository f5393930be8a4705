//! The things on the map: ships, missiles, bombs, resource packs and black holes.

use super::geometry::{HEIGHT, Vec2, WIDTH};
use super::params::SbeParams;
use serde::{Deserialize, Serialize};

pub(crate) const SHIP_RADIUS: f64 = 20.0;
pub(crate) const START_LIVES: u32 = 1000;
pub(crate) const START_SHOTS: u32 = 100;
/// Shots a resource pack gives.
pub(crate) const PACK_SHOTS: u32 = 20;
pub(crate) const PACK_RADIUS: f64 = 1.0;
/// Ticks a bomb stays on the map.
pub(crate) const BOMB_TTL: u32 = 2;
/// Velocity added per tick of thrust (THRUST_SPEED = 15, divided by 100).
pub(crate) const THRUST_PER_TICK: f64 = 0.15;
pub(crate) const TURN_DEGREES: f64 = 4.0;
/// Velocity kept from one tick to the next.
pub(crate) const FRICTION: f64 = 0.99;
/// Limit on each velocity component of a ship.
pub(crate) const MAX_SHIP_SPEED: f64 = 20.0;
/// Angle of each twin missile from the ship's heading (the paper says 45, the code 40).
pub(crate) const TWIN_ANGLE_DEGREES: f64 = 40.0;
/// A normal missile spawns this many (ship radius + missile radius) ahead of the ship.
pub(crate) const SPAWN_DISTANCE_FACTOR: f64 = 1.5;
/// The game ends after this many ticks unless told otherwise.
pub(crate) const DEFAULT_MAX_TICKS: u32 = 2000;
/// A pack appears when `tick % (RESOURCE_COOLDOWN + RESOURCE_TTL)` equals this.
pub(crate) const PACK_SPAWN_PHASE: u32 = 10;

/// Starting position and heading of each ship.
pub(crate) const SHIP_STARTS: [(Vec2, Vec2); 2] = [
    (Vec2::new(213.0, 160.0), Vec2::new(0.0, 1.0)),
    (Vec2::new(426.0, 320.0), Vec2::new(0.0, -1.0)),
];

/// One player's ship and its running tallies.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ship {
    pub(crate) pos: Vec2,
    /// Unit heading.
    pub(crate) dir: Vec2,
    pub(crate) vel: Vec2,
    pub(crate) lives: u32,
    /// Ammunition left.
    pub(crate) shots: u32,
    /// Ticks until the ship may fire again.
    pub(crate) cooldown: u32,
    /// Enemy lives this ship's missiles and bombs took.
    pub(crate) kills: u32,
    /// Resource packs picked up.
    pub(crate) collected: u32,
    /// Penalty counts: one a tick for each hole whose penalty area holds the ship.
    pub(crate) penalty_ticks: u32,
    /// Shots fired (a twin shot counts once).
    pub(crate) shots_fired: u32,
}

impl Ship {
    pub(crate) fn new(pos: Vec2, dir: Vec2) -> Self {
        Self {
            pos,
            dir,
            vel: Vec2::ZERO,
            lives: START_LIVES,
            shots: START_SHOTS,
            cooldown: 0,
            kills: 0,
            collected: 0,
            penalty_ticks: 0,
            shots_fired: 0,
        }
    }

    pub(crate) fn can_fire(&self) -> bool {
        self.shots > 0 && self.cooldown == 0
    }

    /// The game's points: kills and pickups minus the black-hole penalty.
    pub(crate) fn points(&self, blackhole_penalty: u32) -> f64 {
        100.0 * f64::from(self.kills) + 10.0 * f64::from(self.collected)
            - f64::from(self.penalty_ticks) * f64::from(blackhole_penalty) / 10.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ObjectKind {
    Missile,
    Bomb,
    Pack,
}

/// A missile, bomb or resource pack. All three live in one list so that a state copy
/// copies one buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Object {
    pub(crate) kind: ObjectKind,
    /// The ship that fired it (0 or 1; -1 for packs). One byte keeps objects small:
    /// the tick copies them around.
    pub(crate) owner: i8,
    pub(crate) pos: Vec2,
    pub(crate) vel: Vec2,
    pub(crate) radius: f64,
    /// Ticks left, this one included.
    pub(crate) ttl: u32,
    /// False once hit, picked up or expired; dead objects leave at the end of the tick.
    pub(crate) alive: bool,
    /// A bomb-type missile: turns into a bomb where it dies.
    pub(crate) explodes: bool,
}

impl Object {
    pub(crate) fn missile(
        owner: usize,
        pos: Vec2,
        vel: Vec2,
        params: &SbeParams,
        explodes: bool,
    ) -> Self {
        Self {
            kind: ObjectKind::Missile,
            owner: owner as i8,
            pos,
            vel,
            radius: f64::from(params.missile_radius),
            ttl: params.missile_max_ttl,
            alive: true,
            explodes,
        }
    }

    pub(crate) fn pack(pos: Vec2, ttl: u32) -> Self {
        Self {
            kind: ObjectKind::Pack,
            owner: -1,
            pos,
            vel: Vec2::ZERO,
            radius: PACK_RADIUS,
            ttl,
            alive: true,
            explodes: false,
        }
    }

    /// Turns a dead bomb-type missile into a static bomb on the spot.
    pub(crate) fn explode(&mut self, bomb_radius: u32) {
        self.kind = ObjectKind::Bomb;
        self.vel = Vec2::ZERO;
        self.radius = f64::from(bomb_radius);
        self.ttl = BOMB_TTL;
        self.alive = true;
        self.explodes = false;
    }

    /// The end of this object's tick: it ages if nothing consumed it, and leaves when
    /// dead, a bomb-type missile turning into a bomb on the spot. Whether it stays.
    #[inline]
    pub(crate) fn end_tick(&mut self, bomb_radius: u32) -> bool {
        if self.alive {
            self.ttl = self.ttl.saturating_sub(1);
            self.alive = self.ttl > 0;
        }
        if !self.alive && self.explodes {
            self.explode(bomb_radius);
        }
        self.alive
    }

    /// Whether ship `player` meeting this object can change anything: packs (owner -1)
    /// and the other ship's missiles and bombs can, the ship's own fly through it (see
    /// [`ship_meets`]). A byte compare that spares the distance test.
    #[inline]
    pub(crate) fn concerns(&self, player: usize) -> bool {
        self.owner != player as i8
    }

    /// Missiles and bombs hurt the ship that did not fire them.
    pub(crate) fn harms(&self, ship: usize) -> bool {
        matches!(self.kind, ObjectKind::Missile | ObjectKind::Bomb) && self.owner as usize != ship
    }
}

/// Ship `player` meets `object` (they overlap): it picks up a pack or takes a hit from
/// a missile or bomb it did not fire, scoring the kill to the object's owner. Whether
/// the object is used up; a ship's own missiles fly through it.
#[inline]
pub(crate) fn ship_meets(ships: &mut [Ship; 2], player: usize, object: &Object) -> bool {
    if object.kind == ObjectKind::Pack {
        let ship = &mut ships[player];
        ship.shots += PACK_SHOTS;
        ship.collected += 1;
        true
    } else if object.harms(player) {
        ships[player].lives = ships[player].lives.saturating_sub(1);
        ships[object.owner as usize].kills += 1;
        true
    } else {
        false
    }
}

/// A fixed black hole.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BlackHole {
    pub(crate) centre: Vec2,
    pub(crate) radius: f64,
    /// Width of the penalty-free ring inside the border.
    pub(crate) safe_zone: f64,
}

impl BlackHole {
    /// Within this distance of the centre a ship is penalised.
    pub(crate) fn penalty_radius(&self) -> f64 {
        self.radius - self.safe_zone
    }
}

/// The holes the parameters switch on, row by row: cell (i, j) of the g x g grid
/// (row i, column j) holds a hole when layout bit `i * g + j` is set, centred on the
/// cell using integer pixel arithmetic as the reference does.
pub(crate) fn black_hole_layout(params: &SbeParams) -> Vec<BlackHole> {
    let grid = params.grid_size.clamp(1, 4);
    let cell_w = WIDTH as u32 / grid;
    let cell_h = HEIGHT as u32 / grid;
    let mut holes = Vec::new();
    for i in 0..grid {
        for j in 0..grid {
            if params.blackhole_cells[(i * grid + j) as usize] {
                let x = cell_w * (j + 1) - cell_w / 2;
                let y = cell_h * (i + 1) - cell_h / 2;
                holes.push(BlackHole {
                    centre: Vec2::new(f64::from(x), f64::from(y)),
                    radius: f64::from(params.blackhole_radius),
                    safe_zone: f64::from(params.safe_zone),
                });
            }
        }
    }
    holes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn centres(grid: u32, cells: &[usize]) -> Vec<(f64, f64)> {
        let mut p = SbeParams {
            grid_size: grid,
            ..SbeParams::default()
        };
        for &c in cells {
            p.blackhole_cells[c] = true;
        }
        black_hole_layout(&p)
            .iter()
            .map(|h| (h.centre.x, h.centre.y))
            .collect()
    }

    #[test]
    fn black_hole_centres_for_every_grid_size() {
        assert_eq!(centres(1, &[0, 5]), vec![(320.0, 240.0)]);
        assert_eq!(
            centres(2, &[0, 1, 2, 3]),
            vec![
                (160.0, 120.0),
                (480.0, 120.0),
                (160.0, 360.0),
                (480.0, 360.0)
            ]
        );
        // 640 / 3 = 213, 480 / 3 = 160 in integers.
        assert_eq!(
            centres(3, &[0, 4, 8]),
            vec![(107.0, 80.0), (320.0, 240.0), (533.0, 400.0)]
        );
        assert_eq!(centres(3, &[5]), vec![(533.0, 240.0)]);
        assert_eq!(
            centres(4, &[0, 6, 15]),
            vec![(80.0, 60.0), (400.0, 180.0), (560.0, 420.0)]
        );
        // Bits beyond g*g are ignored.
        assert_eq!(centres(2, &[4, 15]), vec![]);
    }

    #[test]
    fn holes_carry_radius_and_safe_zone() {
        let mut p = SbeParams {
            grid_size: 1,
            blackhole_radius: 150,
            safe_zone: 20,
            ..SbeParams::default()
        };
        p.blackhole_cells[0] = true;
        let hole = black_hole_layout(&p)[0];
        assert_eq!(
            (hole.radius, hole.safe_zone, hole.penalty_radius()),
            (150.0, 20.0, 130.0)
        );
    }

    #[test]
    fn points_formula() {
        let mut ship = Ship::new(Vec2::ZERO, Vec2::new(0.0, 1.0));
        ship.kills = 3;
        ship.collected = 2;
        ship.penalty_ticks = 25;
        assert_eq!(ship.points(4), 300.0 + 20.0 - 10.0);
        assert_eq!(ship.points(0), 320.0);
    }
}
