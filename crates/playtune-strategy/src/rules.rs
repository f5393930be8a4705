//! The fixed content of the game: terrain, resources, unit types, the research tree,
//! buildings and level-up bonuses, with their numbers.

/// What a tile is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Terrain {
    /// Open ground.
    #[default]
    Plain,
    /// Entering a forest ends a unit's move; defenders there get a bonus with Archery.
    Forest,
    /// Needs Climbing to enter; entering ends the move; defenders get a bonus with it.
    Mountain,
    /// Impassable.
    Water,
}

/// A resource on a tile, used by a building.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Resource {
    /// No resource.
    #[default]
    None,
    /// On plains and forests: harvested (Organization).
    Fruit,
    /// On forests: harvested (Organization).
    Animal,
    /// On plains: a farm (Farming).
    Crop,
    /// On mountains: a mine (Mining).
    Ore,
}

/// Unit types, in the order of `UNITS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum UnitKind {
    /// Cheap, known from the start.
    Warrior,
    /// Strikes from two tiles (Archery).
    Archer,
    /// Strong defence (Shields).
    Defender,
    /// Moves two tiles (Riding).
    Rider,
    /// Strong attack and defence (Smithery).
    Swordsman,
    /// Strikes from three tiles, no defence (Mathematics).
    Catapult,
    /// Moves three tiles (Chivalry).
    Knight,
}

/// Every unit type, in index order.
pub(crate) const UNIT_KINDS: [UnitKind; 7] = [
    UnitKind::Warrior,
    UnitKind::Archer,
    UnitKind::Defender,
    UnitKind::Rider,
    UnitKind::Swordsman,
    UnitKind::Catapult,
    UnitKind::Knight,
];

/// A unit type's numbers. Attack and defence are in tenths (Polytopia's 3.5 is 35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UnitStats {
    pub(crate) name: &'static str,
    /// One letter for pictures.
    pub(crate) letter: char,
    pub(crate) cost: u8,
    pub(crate) attack: u8,
    pub(crate) defence: u8,
    pub(crate) movement: u8,
    pub(crate) range: u8,
    pub(crate) hp: u8,
    /// The technology that unlocks it (`None`: known from the start).
    pub(crate) tech: Option<Tech>,
}

/// The unit table, indexed by [`UnitKind`].
#[rustfmt::skip]
pub(crate) const UNITS: [UnitStats; 7] = [
    UnitStats { name: "warrior", letter: 'W', cost: 2, attack: 20, defence: 20, movement: 1, range: 1, hp: 10, tech: None },
    UnitStats { name: "archer", letter: 'A', cost: 3, attack: 20, defence: 10, movement: 1, range: 2, hp: 10, tech: Some(Tech::Archery) },
    UnitStats { name: "defender", letter: 'D', cost: 3, attack: 10, defence: 30, movement: 1, range: 1, hp: 15, tech: Some(Tech::Shields) },
    UnitStats { name: "rider", letter: 'R', cost: 3, attack: 20, defence: 10, movement: 2, range: 1, hp: 10, tech: Some(Tech::Riding) },
    UnitStats { name: "swordsman", letter: 'S', cost: 5, attack: 30, defence: 30, movement: 1, range: 1, hp: 15, tech: Some(Tech::Smithery) },
    UnitStats { name: "catapult", letter: 'C', cost: 8, attack: 40, defence: 0, movement: 1, range: 3, hp: 10, tech: Some(Tech::Mathematics) },
    UnitStats { name: "knight", letter: 'K', cost: 8, attack: 35, defence: 10, movement: 3, range: 1, hp: 12, tech: Some(Tech::Chivalry) },
];

impl UnitKind {
    pub(crate) fn stats(self) -> &'static UnitStats {
        &UNITS[self as usize]
    }
}

/// The research branches, in the order of the research scripts.
pub(crate) const BRANCHES: [&str; 5] = ["farming", "riding", "archery", "mining", "defence"];

/// Technologies, grouped by branch and tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Tech {
    /// Farming branch, tier 1: harvesting fruit and animals.
    Organization,
    /// Farming branch, tier 2: farms.
    Farming,
    /// Farming branch, tier 3: windmills.
    Construction,
    /// Riding branch, tier 1: riders.
    Riding,
    /// Riding branch, tier 2: knights.
    Chivalry,
    /// Archery branch, tier 1: archers and the forest defence bonus.
    Archery,
    /// Archery branch, tier 2: lumber huts.
    Forestry,
    /// Archery branch, tier 3: catapults.
    Mathematics,
    /// Mining branch, tier 1: moving onto and defending mountains.
    Climbing,
    /// Mining branch, tier 2: mines.
    Mining,
    /// Mining branch, tier 3: swordsmen and forges.
    Smithery,
    /// Defence branch, tier 1: defenders.
    Shields,
    /// Defence branch, tier 2: city walls.
    Fortification,
}

/// A technology's place in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TechInfo {
    /// Its name, as scripts and logs write it.
    pub name: &'static str,
    /// Index into `BRANCHES`.
    pub branch: u8,
    /// 1, 2 or 3; tier n needs tier n - 1 of the same branch.
    pub tier: u8,
    /// What it unlocks, for documentation and pictures.
    pub unlocks: &'static str,
}

/// Every technology in index order.
pub const ALL_TECHS: [Tech; 13] = [
    Tech::Organization,
    Tech::Farming,
    Tech::Construction,
    Tech::Riding,
    Tech::Chivalry,
    Tech::Archery,
    Tech::Forestry,
    Tech::Mathematics,
    Tech::Climbing,
    Tech::Mining,
    Tech::Smithery,
    Tech::Shields,
    Tech::Fortification,
];

/// The research tree, indexed by [`Tech`].
#[rustfmt::skip]
pub(crate) const TECHS: [TechInfo; 13] = [
    TechInfo { name: "organization", branch: 0, tier: 1, unlocks: "harvest (fruit, animal)" },
    TechInfo { name: "farming", branch: 0, tier: 2, unlocks: "farm" },
    TechInfo { name: "construction", branch: 0, tier: 3, unlocks: "windmill" },
    TechInfo { name: "riding", branch: 1, tier: 1, unlocks: "rider" },
    TechInfo { name: "chivalry", branch: 1, tier: 2, unlocks: "knight" },
    TechInfo { name: "archery", branch: 2, tier: 1, unlocks: "archer, forest defence" },
    TechInfo { name: "forestry", branch: 2, tier: 2, unlocks: "lumber hut" },
    TechInfo { name: "mathematics", branch: 2, tier: 3, unlocks: "catapult" },
    TechInfo { name: "climbing", branch: 3, tier: 1, unlocks: "mountain movement and defence" },
    TechInfo { name: "mining", branch: 3, tier: 2, unlocks: "mine" },
    TechInfo { name: "smithery", branch: 3, tier: 3, unlocks: "swordsman, forge" },
    TechInfo { name: "shields", branch: 4, tier: 1, unlocks: "defender" },
    TechInfo { name: "fortification", branch: 4, tier: 2, unlocks: "city walls" },
];

impl Tech {
    pub(crate) fn info(self) -> &'static TechInfo {
        &TECHS[self as usize]
    }
    /// Its bit in a tribe's set of technologies.
    pub fn bit(self) -> u16 {
        1 << self as u16
    }
    /// The technology before this one in its branch, if any.
    pub(crate) fn prerequisite(self) -> Option<Tech> {
        let i = self as usize;
        (self.info().tier > 1).then(|| ALL_TECHS[i - 1])
    }
    /// The technology of index `i` (see `ALL_TECHS`).
    pub fn from_index(i: usize) -> Tech {
        ALL_TECHS[i]
    }
}

/// The cost in stars of a technology of `tier` for a tribe with `cities` cities.
/// (under the published rules; a game's own are `RuleSet::tech_cost`).
#[cfg(test)]
pub(crate) fn tech_cost(tier: u8, cities: u8) -> u16 {
    DEFAULT_RULES.tech_cost(tier, cities)
}

/// Buildings, in the order of the build scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Building {
    /// Fruit or animal gathered: +1 population.
    Harvest,
    /// On crop: +2 population.
    Farm,
    /// On a bare plain: +1 population per neighbouring farm (at least 1).
    Windmill,
    /// On a forest: +1 population.
    LumberHut,
    /// On ore: +2 population.
    Mine,
    /// On a bare plain: +2 population per neighbouring mine (at least 1).
    Forge,
    /// On the city tile: doubles the city's defence bonus.
    Walls,
}

/// Every building in index order.
pub(crate) const BUILDINGS: [Building; 7] = [
    Building::Harvest,
    Building::Farm,
    Building::Windmill,
    Building::LumberHut,
    Building::Mine,
    Building::Forge,
    Building::Walls,
];

/// A building's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BuildingInfo {
    pub name: &'static str,
    pub letter: char,
    pub cost: u8,
    pub tech: Tech,
}

#[rustfmt::skip]
pub(crate) const BUILDING_INFO: [BuildingInfo; 7] = [
    BuildingInfo { name: "harvest", letter: 'h', cost: 2, tech: Tech::Organization },
    BuildingInfo { name: "farm", letter: 'f', cost: 5, tech: Tech::Farming },
    BuildingInfo { name: "windmill", letter: 'w', cost: 5, tech: Tech::Construction },
    BuildingInfo { name: "lumber_hut", letter: 'l', cost: 3, tech: Tech::Forestry },
    BuildingInfo { name: "mine", letter: 'm', cost: 5, tech: Tech::Mining },
    BuildingInfo { name: "forge", letter: 'g', cost: 6, tech: Tech::Smithery },
    BuildingInfo { name: "walls", letter: 'x', cost: 5, tech: Tech::Fortification },
];

impl Building {
    pub(crate) fn info(self) -> &'static BuildingInfo {
        &BUILDING_INFO[self as usize]
    }
    /// The building of index `i`.
    pub fn from_index(i: usize) -> Building {
        BUILDINGS[i]
    }
}

/// The choice a city makes when it levels up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Bonus {
    /// +1 star per turn from this city for the rest of the game.
    Growth,
    /// A free warrior on the city tile (3 stars instead when the tile is taken or the
    /// tribe has no unit slot left).
    Military,
}

/// Stars a tribe has at the start of the game (before its first income).
pub(crate) const START_STARS: u16 = 3;
/// Population a city at `level` needs to reach `level + 1`.
pub(crate) fn pop_to_level_up(level: u8) -> u8 {
    level + 1
}
/// The highest city level.
pub(crate) const MAX_CITY_LEVEL: u8 = 6;
/// Hit points a resting unit recovers (doubled inside its tribe's territory).
pub(crate) const HEAL: u8 = 2;

/// The numbers of the rules a designer may change (`spaces/strategy_rules.ron`): unit
/// costs and strengths, building costs, research cost, starting stars, healing and
/// city growth. `DEFAULT_RULES` is the game as published; a game holds the rule set
/// it is played under.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Unit numbers by [`UnitKind`] (names, letters, ranges and technologies stay).
    pub(crate) units: [UnitStats; 7],
    /// Building costs by [`Building`].
    pub(crate) building_cost: [u8; 7],
    /// A technology of tier t costs t x (cities + this), a tribe's cities counted as
    /// at least 1.
    pub(crate) research_offset: u16,
    pub(crate) start_stars: u16,
    /// Hit points a resting unit recovers (doubled inside its territory).
    pub(crate) heal: u8,
    pub(crate) max_city_level: u8,
}

/// The rules as published: every strategy result was played under them.
pub(crate) static DEFAULT_RULES: RuleSet = RuleSet {
    units: UNITS,
    building_cost: [
        BUILDING_INFO[0].cost,
        BUILDING_INFO[1].cost,
        BUILDING_INFO[2].cost,
        BUILDING_INFO[3].cost,
        BUILDING_INFO[4].cost,
        BUILDING_INFO[5].cost,
        BUILDING_INFO[6].cost,
    ],
    research_offset: 3,
    start_stars: START_STARS,
    heal: HEAL,
    max_city_level: MAX_CITY_LEVEL,
};

impl RuleSet {
    pub(crate) fn unit(&self, kind: UnitKind) -> &UnitStats {
        &self.units[kind as usize]
    }

    pub(crate) fn building_cost(&self, b: Building) -> u8 {
        self.building_cost[b as usize]
    }

    /// The cost in stars of a technology of `tier` for a tribe with `cities` cities.
    pub(crate) fn tech_cost(&self, tier: u8, cities: u8) -> u16 {
        tier as u16 * (cities.max(1) as u16 + self.research_offset)
    }

    /// The rule set as one shared value that lives as long as the program: games hold
    /// a reference, so copying a state costs no more than before. Each distinct rule
    /// set is kept once (a search over rules holds as many as it tries, a few hundred
    /// bytes each).
    pub(crate) fn shared(self) -> &'static RuleSet {
        use std::collections::HashSet;
        use std::sync::{Mutex, OnceLock};
        if self == DEFAULT_RULES {
            return &DEFAULT_RULES;
        }
        static KEPT: OnceLock<Mutex<HashSet<&'static RuleSet>>> = OnceLock::new();
        let mut kept = KEPT
            .get_or_init(|| Mutex::new(HashSet::new()))
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(r) = kept.get(&self) {
            return r;
        }
        let r: &'static RuleSet = Box::leak(Box::new(self));
        kept.insert(r);
        r
    }
}
