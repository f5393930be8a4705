//! Seeded level generation: terrain, resources, two capitals and neutral villages on a
//! square grid, point-symmetric (a tile and its 180-degree rotation are alike) so that
//! both tribes start from mirror images, with all land connected.

use super::rules::{Resource, Terrain};
use playtune_optim::rng::{Rng, derive_seed, rng_from_seed};
use rand::RngExt;

/// The largest side a level may have (tiles are indexed by one byte).
pub(crate) const MAX_SIZE: usize = 16;
/// Tiles in the largest level.
pub(crate) const MAX_TILES: usize = MAX_SIZE * MAX_SIZE;
/// Cities (capitals and villages) a level may hold.
pub(crate) const MAX_CITIES: usize = 16;

/// How levels are generated.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelConfig {
    /// Side of the square grid, 7 to 16.
    pub size: usize,
    /// Neutral villages (rounded down to an even number; fewer if there is no room).
    pub villages: usize,
    /// Shares of forest, mountain and water tiles (the rest is plain): forest.
    pub forest: f64,
    /// Share of mountain tiles.
    pub mountain: f64,
    /// Share of water tiles.
    pub water: f64,
    /// Chance that a plain, forest or mountain tile holds a resource.
    pub resources: f64,
}

impl Default for LevelConfig {
    fn default() -> Self {
        LevelConfig {
            size: 11,
            villages: 6,
            forest: 0.22,
            mountain: 0.12,
            water: 0.14,
            resources: 0.35,
        }
    }
}

impl LevelConfig {
    /// Checks the numbers, naming the first field at fault.
    pub fn check(&self) -> Result<(), super::Error> {
        use super::Error;
        if !(7..=MAX_SIZE).contains(&self.size) {
            return Err(Error::config(
                "size",
                format!("{} is outside 7..=16", self.size),
            ));
        }
        if self.villages + 2 > MAX_CITIES {
            return Err(Error::config(
                "villages",
                format!("{} is more than {}", self.villages, MAX_CITIES - 2),
            ));
        }
        for (name, v) in [
            ("forest", self.forest),
            ("mountain", self.mountain),
            ("water", self.water),
            ("resources", self.resources),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::config(name, format!("{v} is outside [0, 1]")));
            }
        }
        if self.forest + self.mountain + self.water > 0.9 {
            return Err(Error::config(
                "forest + mountain + water",
                "must leave at least 10% plains",
            ));
        }
        Ok(())
    }
}

/// A generated level: the map and where the cities stand.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The seed it was generated from.
    pub seed: u64,
    /// Side of the square grid.
    pub size: usize,
    /// Row-major, `size * size` tiles.
    pub terrain: Vec<Terrain>,
    /// Row-major, `size * size` resources.
    pub resource: Vec<Resource>,
    /// The two capitals' tiles, tribe 0's first.
    pub capitals: [usize; 2],
    /// Neutral villages' tiles.
    pub villages: Vec<usize>,
}

/// The training levels: seeds 1 to 20.
pub fn training_levels() -> Vec<u64> {
    (1..=20).collect()
}

/// The validation levels: seeds 1001 to 1100, disjoint from the training ones.
pub fn validation_levels() -> Vec<u64> {
    (1001..=1100).collect()
}

/// One board side's geometry, tabled for every tile index a byte can hold: each
/// tile's column and row (`t % size`, `t / size`) and its neighbours in the order
/// [`neighbours`] lists them. The forward model and the scripts ask for these all the
/// time, and a division by the side is slower than a look-up.
pub struct Grid {
    x: [u8; 256],
    y: [u8; 256],
    nb: [[u8; 8]; 256],
    count: [u8; 256],
}

impl Grid {
    const fn new(size: usize) -> Grid {
        let mut g = Grid {
            x: [0; 256],
            y: [0; 256],
            nb: [[0; 8]; 256],
            count: [0; 256],
        };
        if size == 0 {
            return g;
        }
        let mut t = 0;
        while t < 256 {
            let (x, y) = ((t % size) as isize, (t / size) as isize);
            g.x[t] = x as u8;
            g.y[t] = y as u8;
            let mut n = 0;
            let mut dy = -1isize;
            while dy <= 1 {
                let mut dx = -1isize;
                while dx <= 1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if !(dx == 0 && dy == 0)
                        && nx >= 0
                        && ny >= 0
                        && (nx as usize) < size
                        && (ny as usize) < size
                    {
                        g.nb[t][n] = (ny as usize * size + nx as usize) as u8;
                        n += 1;
                    }
                    dx += 1;
                }
                dy += 1;
            }
            g.count[t] = n as u8;
            t += 1;
        }
        g
    }

    /// The geometry of a `size` board (at most `MAX_SIZE`).
    #[inline]
    pub fn of(size: usize) -> &'static Grid {
        &GRIDS[size]
    }

    /// Tile `t`'s neighbours, in the order of [`neighbours`].
    #[inline]
    pub fn neighbours(&self, t: usize) -> &[u8] {
        &self.nb[t][..self.count[t] as usize]
    }

    /// Tile `t`'s column and row.
    #[inline]
    pub(crate) fn xy(&self, t: usize) -> (usize, usize) {
        (self.x[t] as usize, self.y[t] as usize)
    }

    /// Chebyshev distance between two tiles, as [`distance`].
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let (a, b) = (a as u8 as usize, b as u8 as usize);
        (self.x[a]
            .abs_diff(self.x[b])
            .max(self.y[a].abs_diff(self.y[b]))) as usize
    }
}

static GRIDS: [Grid; MAX_SIZE + 1] = {
    let mut grids = [const { Grid::new(0) }; MAX_SIZE + 1];
    let mut size = 1;
    while size <= MAX_SIZE {
        grids[size] = Grid::new(size);
        size += 1;
    }
    grids
};

/// The tile's neighbours (8 directions) on a `size` grid, written into `out`; returns
/// how many.
#[inline]
pub fn neighbours(size: usize, t: usize, out: &mut [usize; 8]) -> usize {
    if size <= MAX_SIZE && t < 256 {
        let nb = Grid::of(size).neighbours(t);
        for (o, &v) in out.iter_mut().zip(nb) {
            *o = v as usize;
        }
        return nb.len();
    }
    let (x, y) = ((t % size) as isize, (t / size) as isize);
    let mut n = 0;
    for dy in -1..=1isize {
        for dx in -1..=1isize {
            if dx == 0 && dy == 0 {
                continue;
            }
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 0 && ny >= 0 && (nx as usize) < size && (ny as usize) < size {
                out[n] = ny as usize * size + nx as usize;
                n += 1;
            }
        }
    }
    n
}

/// Chebyshev distance between two tiles (moves in 8 directions).
#[inline]
pub fn distance(size: usize, a: usize, b: usize) -> usize {
    if size <= MAX_SIZE && a < 256 && b < 256 {
        return Grid::of(size).distance(a, b);
    }
    let (ax, ay) = (a % size, a / size);
    let (bx, by) = (b % size, b / size);
    ax.abs_diff(bx).max(ay.abs_diff(by))
}

impl Level {
    /// The level of a seed under a configuration; the same seed gives the same level.
    pub fn generate(seed: u64, config: &LevelConfig) -> Result<Level, super::Error> {
        config.check()?;
        let mut rng = rng_from_seed(derive_seed(seed, &[0x57a7_e6e1]));
        let n = config.size;
        let tiles = n * n;
        let mirror = |t: usize| tiles - 1 - t;
        let mut level = Level {
            seed,
            size: n,
            terrain: vec![Terrain::Plain; tiles],
            resource: vec![Resource::None; tiles],
            capitals: [0, 0],
            villages: Vec::new(),
        };
        for t in 0..tiles {
            if t > mirror(t) {
                continue;
            }
            let r: f64 = rng.random();
            let terrain = if r < config.water {
                Terrain::Water
            } else if r < config.water + config.mountain {
                Terrain::Mountain
            } else if r < config.water + config.mountain + config.forest {
                Terrain::Forest
            } else {
                Terrain::Plain
            };
            let resource = if terrain != Terrain::Water && rng.random::<f64>() < config.resources {
                match terrain {
                    Terrain::Plain if rng.random::<bool>() => Resource::Crop,
                    Terrain::Plain => Resource::Fruit,
                    Terrain::Forest if rng.random::<bool>() => Resource::Animal,
                    Terrain::Forest => Resource::Fruit,
                    _ => Resource::Ore,
                }
            } else {
                Resource::None
            };
            level.set(t, terrain, resource);
        }
        // Capitals near opposite corners, on plains ringed by land.
        let cx = 1 + rng.random_range(0..2usize);
        let cy = 1 + rng.random_range(0..2usize);
        let cap = cy * n + cx;
        level.capitals = [cap, mirror(cap)];
        level.clear_city_site(cap);
        let mut nb = [0; 8];
        let k = neighbours(n, cap, &mut nb);
        for &t in &nb[..k] {
            if level.terrain[t] == Terrain::Water {
                level.set(t, Terrain::Plain, Resource::None);
            }
        }
        // Villages in mirrored pairs, two tiles or more from every other city.
        let pairs = config.villages / 2;
        let mut tries = 0;
        while level.villages.len() < pairs * 2 && tries < 400 {
            tries += 1;
            let t = rng.random_range(0..tiles);
            if t == mirror(t)
                || level.terrain[t] == Terrain::Water
                || level
                    .cities()
                    .any(|c| distance(n, c, t) < 2 || distance(n, c, mirror(t)) < 2)
                || distance(n, t, mirror(t)) < 2
            {
                continue;
            }
            level.clear_city_site(t);
            level.villages.push(t);
            level.villages.push(mirror(t));
        }
        level.connect(&mut rng);
        Ok(level)
    }

    /// Every city tile: capitals first, then villages.
    pub fn cities(&self) -> impl Iterator<Item = usize> + '_ {
        self.capitals.iter().chain(self.villages.iter()).copied()
    }

    /// Sets a tile and its mirror image.
    fn set(&mut self, t: usize, terrain: Terrain, resource: Resource) {
        let m = self.size * self.size - 1 - t;
        for i in [t, m] {
            self.terrain[i] = terrain;
            self.resource[i] = resource;
        }
    }

    fn clear_city_site(&mut self, t: usize) {
        self.set(t, Terrain::Plain, Resource::None);
    }

    /// Tiles reachable from `from` over the tiles `pass` lets through (8 directions).
    pub fn reachable(&self, from: usize, pass: impl Fn(Terrain) -> bool) -> Vec<bool> {
        let n = self.size;
        let mut seen = vec![false; n * n];
        let mut stack = vec![from];
        seen[from] = true;
        let mut nb = [0; 8];
        while let Some(t) = stack.pop() {
            let k = neighbours(n, t, &mut nb);
            for &u in &nb[..k] {
                if !seen[u] && pass(self.terrain[u]) {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        seen
    }

    /// Makes every city reachable from tribe 0's capital over plains and forests (a
    /// walk toward the capital turns water and mountains into plains), then drowns land
    /// cut off from the rest.
    fn connect(&mut self, rng: &mut Rng) {
        let n = self.size;
        let walkable = |t: Terrain| matches!(t, Terrain::Plain | Terrain::Forest);
        let cities: Vec<usize> = self.cities().collect();
        for &c in &cities {
            if self.reachable(self.capitals[0], walkable)[c] {
                continue;
            }
            let (tx, ty) = (self.capitals[0] % n, self.capitals[0] / n);
            let (mut x, mut y) = (c % n, c / n);
            while (x, y) != (tx, ty) {
                // Step toward the capital, now and then along one axis only, so paths wind.
                let wobble = rng.random_range(0..4u8);
                if x != tx && wobble != 0 {
                    x = if x < tx { x + 1 } else { x - 1 };
                }
                if y != ty && wobble != 1 {
                    y = if y < ty { y + 1 } else { y - 1 };
                }
                let t = y * n + x;
                if !walkable(self.terrain[t]) {
                    self.set(t, Terrain::Plain, Resource::None);
                }
            }
        }
        let land = self.reachable(self.capitals[0], |t| t != Terrain::Water);
        for (t, &on) in land.iter().enumerate() {
            if !on {
                self.terrain[t] = Terrain::Water;
                self.resource[t] = Resource::None;
            }
        }
    }
}
