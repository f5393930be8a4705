//! The 30 evolvable parameters of Space Battle Evolved (Table I of the paper).

use serde::{Deserialize, Serialize};

/// What a shot fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MissileType {
    /// One missile, spawned ahead of the ship.
    Normal,
    /// Two missiles from the ship centre at -/+ `super::objects::TWIN_ANGLE_DEGREES`.
    Twin,
    /// One missile that leaves a short-lived static bomb where it dies.
    Bomb,
}

impl MissileType {
    /// The parameter value (0, 1, 2) an optimiser uses for this type.
    pub fn index(self) -> u32 {
        match self {
            MissileType::Normal => 0,
            MissileType::Twin => 1,
            MissileType::Bomb => 2,
        }
    }

    pub(crate) fn from_index(index: u32) -> Option<Self> {
        match index {
            0 => Some(MissileType::Normal),
            1 => Some(MissileType::Twin),
            2 => Some(MissileType::Bomb),
            _ => None,
        }
    }
}

/// Number of evolvable parameters.
pub(crate) const NUM_PARAMS: usize = 30;

/// Number of black-hole layout bits (a 4 x 4 grid at most).
pub(crate) const NUM_CELLS: usize = 16;

/// Parameter names, in Table I order: the index of a name here is its index in
/// [`PARAM_DOMAINS`] and in `SbeParams::to_values`.
pub(crate) const PARAM_NAMES: [&str; NUM_PARAMS] = [
    "MISSILE_MAX_SPEED",
    "MISSILE_COOLDOWN",
    "MISSILE_RADIUS",
    "MISSILE_MAX_TTL",
    "GRID_SIZE",
    "BLACKHOLE_CELL_0",
    "BLACKHOLE_CELL_1",
    "BLACKHOLE_CELL_2",
    "BLACKHOLE_CELL_3",
    "BLACKHOLE_CELL_4",
    "BLACKHOLE_CELL_5",
    "BLACKHOLE_CELL_6",
    "BLACKHOLE_CELL_7",
    "BLACKHOLE_CELL_8",
    "BLACKHOLE_CELL_9",
    "BLACKHOLE_CELL_10",
    "BLACKHOLE_CELL_11",
    "BLACKHOLE_CELL_12",
    "BLACKHOLE_CELL_13",
    "BLACKHOLE_CELL_14",
    "BLACKHOLE_CELL_15",
    "BLACKHOLE_RADIUS",
    "BLACKHOLE_FORCE",
    "BLACKHOLE_PENALTY",
    "SAFE_ZONE",
    "BOMB_RADIUS",
    "MISSILE_TYPE",
    "RESOURCE_TTL",
    "RESOURCE_COOLDOWN",
    "ENEMY_ID",
];

/// Index in [`PARAM_NAMES`] of the first black-hole cell.
const FIRST_CELL: usize = 5;

const CELL: &[f64] = &[0.0, 1.0];

/// The values each parameter may take, aligned with [`PARAM_NAMES`]. BLACKHOLE_RADIUS
/// uses the reference code's list {25, 50, 75, 100, 150, 200}, not the paper's 25-step
/// grid (which adds 125 and 175).
pub(crate) const PARAM_DOMAINS: [&[f64]; NUM_PARAMS] = [
    &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
    &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    &[2.0, 4.0, 6.0, 8.0, 10.0],
    &[40.0, 60.0, 80.0, 100.0, 120.0, 140.0, 160.0],
    &[1.0, 2.0, 3.0, 4.0],
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    CELL,
    &[25.0, 50.0, 75.0, 100.0, 150.0, 200.0],
    &[0.0, 1.0, 2.0, 3.0],
    &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    &[0.0, 10.0, 20.0],
    &[10.0, 20.0, 30.0, 40.0, 50.0],
    &[0.0, 1.0, 2.0],
    &[400.0, 500.0, 600.0],
    &[200.0, 250.0, 300.0],
    &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
];

/// One game instance: the values of the 30 evolvable parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SbeParams {
    /// Missile speed added to the ship's velocity, pixels per tick.
    pub missile_max_speed: u32,
    /// Ticks between two shots.
    pub missile_cooldown: u32,
    /// Missile radius, pixels.
    pub missile_radius: u32,
    /// Ticks a missile lives.
    pub missile_max_ttl: u32,
    /// The map is cut into `grid_size x grid_size` cells, each may hold a black hole.
    pub grid_size: u32,
    /// Layout bits: cell (i, j) holds a hole when bit `i * grid_size + j` is set.
    pub blackhole_cells: [bool; NUM_CELLS],
    /// Black-hole radius, pixels.
    pub blackhole_radius: u32,
    /// Pixels a hole drags an object towards its centre each tick.
    pub blackhole_force: u32,
    /// Score lost per tick inside a hole's penalty area, in tenths of a point.
    pub blackhole_penalty: u32,
    /// Width of the penalty-free ring inside a hole's border.
    pub safe_zone: u32,
    /// Radius of the bomb a bomb-type missile leaves, pixels.
    pub bomb_radius: u32,
    /// What a shot fires.
    pub missile_type: MissileType,
    /// Ticks a resource pack lives.
    pub resource_ttl: u32,
    /// Ticks between a pack's expiry and the next spawn.
    pub resource_cooldown: u32,
    /// Controller of ship 1: 0 rotate-and-shoot, 1 do-nothing, 2 random,
    /// 3 one-step look-ahead, 4 microbial EA, 5 MCTS.
    pub enemy_id: u32,
}

impl Default for SbeParams {
    fn default() -> Self {
        Self {
            missile_max_speed: 5,
            missile_cooldown: 4,
            missile_radius: 4,
            missile_max_ttl: 100,
            grid_size: 2,
            blackhole_cells: [false; NUM_CELLS],
            blackhole_radius: 100,
            blackhole_force: 2,
            blackhole_penalty: 1,
            safe_zone: 10,
            bomb_radius: 20,
            missile_type: MissileType::Twin,
            resource_ttl: 500,
            resource_cooldown: 250,
            enemy_id: 0,
        }
    }
}

impl SbeParams {
    /// Reads every parameter by its name in [`PARAM_NAMES`]; a name the lookup does not
    /// know keeps its default. Booleans arrive as 0/1 and MISSILE_TYPE as 0/1/2; a value
    /// outside [`PARAM_DOMAINS`] is an error naming the parameter.
    pub(crate) fn from_values(
        lookup: impl Fn(&str) -> Option<f64>,
    ) -> Result<SbeParams, super::error::ParamError> {
        let mut params = SbeParams::default();
        for (index, name) in PARAM_NAMES.iter().enumerate() {
            if let Some(value) = lookup(name) {
                let domain = PARAM_DOMAINS[index];
                let allowed = value.is_finite() && domain.iter().any(|&d| (d - value).abs() < 1e-9);
                if !allowed {
                    return Err(super::error::ParamError {
                        name: name.to_string(),
                        value,
                        domain: domain.to_vec(),
                    });
                }
                params.set_by_index(index, value.round() as u32);
            }
        }
        Ok(params)
    }

    /// The parameters as numbers in [`PARAM_NAMES`] order (the inverse of
    /// [`SbeParams::from_values`]).
    pub(crate) fn to_values(&self) -> [f64; NUM_PARAMS] {
        std::array::from_fn(|index| f64::from(self.get_by_index(index)))
    }

    /// Checks every field against its domain (useful for hand-built params).
    pub fn validate(&self) -> Result<(), super::error::ParamError> {
        let values = self.to_values();
        let names = PARAM_NAMES.iter();
        for ((name, value), domain) in names.zip(values).zip(PARAM_DOMAINS) {
            if !domain.iter().any(|&d| (d - value).abs() < 1e-9) {
                return Err(super::error::ParamError {
                    name: name.to_string(),
                    value,
                    domain: domain.to_vec(),
                });
            }
        }
        Ok(())
    }

    /// Number of black holes the layout bits switch on (only the first g*g bits count).
    #[cfg(test)]
    pub(crate) fn num_black_holes(&self) -> usize {
        let used = (self.grid_size.clamp(1, 4) as usize).pow(2);
        self.blackhole_cells[..used]
            .iter()
            .filter(|&&on| on)
            .count()
    }

    fn set_by_index(&mut self, index: usize, value: u32) {
        match index {
            0 => self.missile_max_speed = value,
            1 => self.missile_cooldown = value,
            2 => self.missile_radius = value,
            3 => self.missile_max_ttl = value,
            4 => self.grid_size = value,
            i if (FIRST_CELL..FIRST_CELL + NUM_CELLS).contains(&i) => {
                self.blackhole_cells[i - FIRST_CELL] = value != 0;
            }
            21 => self.blackhole_radius = value,
            22 => self.blackhole_force = value,
            23 => self.blackhole_penalty = value,
            24 => self.safe_zone = value,
            25 => self.bomb_radius = value,
            // The domain check upstream guarantees 0..=2.
            26 => self.missile_type = MissileType::from_index(value).unwrap_or(MissileType::Twin),
            27 => self.resource_ttl = value,
            28 => self.resource_cooldown = value,
            29 => self.enemy_id = value,
            _ => unreachable!("parameter index {index} out of range"),
        }
    }

    fn get_by_index(&self, index: usize) -> u32 {
        match index {
            0 => self.missile_max_speed,
            1 => self.missile_cooldown,
            2 => self.missile_radius,
            3 => self.missile_max_ttl,
            4 => self.grid_size,
            i if (FIRST_CELL..FIRST_CELL + NUM_CELLS).contains(&i) => {
                u32::from(self.blackhole_cells[i - FIRST_CELL])
            }
            21 => self.blackhole_radius,
            22 => self.blackhole_force,
            23 => self.blackhole_penalty,
            24 => self.safe_zone,
            25 => self.bomb_radius,
            26 => self.missile_type.index(),
            27 => self.resource_ttl,
            28 => self.resource_cooldown,
            29 => self.enemy_id,
            _ => unreachable!("parameter index {index} out of range"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn defaults_match_the_spec_and_are_valid() {
        let p = SbeParams::default();
        assert_eq!(p.missile_type, MissileType::Twin);
        assert_eq!(p.num_black_holes(), 0);
        assert_eq!(p.validate(), Ok(()));
        assert_eq!(PARAM_NAMES.len(), 30);
        assert_eq!(PARAM_NAMES[FIRST_CELL], "BLACKHOLE_CELL_0");
        assert_eq!(PARAM_NAMES[FIRST_CELL + 15], "BLACKHOLE_CELL_15");
    }

    #[test]
    fn from_values_reads_by_name_and_keeps_defaults() {
        let map: HashMap<&str, f64> = [
            ("MISSILE_TYPE", 2.0),
            ("BLACKHOLE_CELL_3", 1.0),
            ("GRID_SIZE", 4.0),
        ]
        .into();
        let p = SbeParams::from_values(|name| map.get(name).copied()).expect("valid values");
        assert_eq!(p.missile_type, MissileType::Bomb);
        assert!(p.blackhole_cells[3]);
        assert_eq!(p.grid_size, 4);
        assert_eq!(p.missile_max_speed, 5);
        assert_eq!(p.num_black_holes(), 1);
    }

    #[test]
    fn from_values_rejects_out_of_domain_values_by_name() {
        for (name, bad) in [
            ("MISSILE_RADIUS", 3.0),
            ("BLACKHOLE_RADIUS", 125.0),
            ("ENEMY_ID", 6.0),
            ("SAFE_ZONE", f64::NAN),
        ] {
            let err =
                SbeParams::from_values(|n| (n == name).then_some(bad)).expect_err("out of domain");
            assert_eq!(err.name, name);
            assert!(err.to_string().contains(name), "{err}");
        }
    }

    #[test]
    fn values_round_trip_through_names() {
        let mut p = SbeParams::default();
        p.blackhole_cells[7] = true;
        p.missile_type = MissileType::Normal;
        p.enemy_id = 5;
        let values = p.to_values();
        let back = SbeParams::from_values(|name| {
            PARAM_NAMES
                .iter()
                .position(|n| *n == name)
                .map(|i| values[i])
        })
        .expect("round trip");
        assert_eq!(back, p);
    }
}
