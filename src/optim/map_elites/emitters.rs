//! Emitters: each proposes candidates from the archive's elites and is told what the
//! archive did with them (pyribs' emitters). Randomness comes in with every ask, from a
//! generator the scheduler seeds for that work item (run seed, batch index, emitter
//! index), never from a generator held per thread or per emitter: a batch is then the
//! same whatever ran before it on whichever thread, and a replayed run asks again
//! exactly what it asked the first time.

use super::archive::{AddOutcome, Archive};
use crate::optim::Candidate;
use crate::rng::Rng;
use crate::space::{Domain, Space, mutate_one};
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

/// An emitter's kind and settings, as `config.ron` records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Mutation {
    /// The paper's one-weight mutation (a stochastic hill climber): change one
    /// dimension to a different value of its domain.
    HillClimber,
    /// Add Gaussian noise of this standard deviation to every continuous dimension.
    Gaussian { sigma: f64 },
    /// Iso+line (Vassiliades & Mouret 2018): x_i + sigma_iso N(0, I) + sigma_line
    /// N(0, 1) (x_j - x_i) over the continuous dimensions, x_i and x_j elites drawn
    /// uniformly. The line term moves along the direction between elites, which in
    /// many problems is where the elites' hypervolume lies.
    IsoLine { sigma_iso: f64, sigma_line: f64 },
}

impl Mutation {
    /// The name the command line uses.
    pub fn name(&self) -> &'static str {
        match self {
            Mutation::HillClimber => "one-weight",
            Mutation::Gaussian { .. } => "gaussian",
            Mutation::IsoLine { .. } => "iso-line",
        }
    }

    /// Checks the settings; messages name the command-line flags.
    pub fn check(&self) -> Result<(), String> {
        let positive = |flag: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{flag} {v}: needs a finite number above 0"))
            }
        };
        match *self {
            Mutation::HillClimber => Ok(()),
            Mutation::Gaussian { sigma } => positive("--sigma", sigma),
            Mutation::IsoLine {
                sigma_iso,
                sigma_line,
            } => {
                positive("--sigma", sigma_iso)?;
                positive("--line-sigma", sigma_line)
            }
        }
    }

    /// The emitter over `space`.
    pub fn emitter(&self, space: &Space) -> Result<Box<dyn Emitter>, String> {
        self.check()?;
        let continuous: Vec<usize> = space
            .free_dims()
            .into_iter()
            .filter(|&d| space.dims[d].domain.is_continuous())
            .collect();
        if !matches!(self, Mutation::HillClimber) && continuous.is_empty() {
            return Err(format!(
                "the {} emitter needs Float dimensions; use one-weight for discrete spaces",
                self.name()
            ));
        }
        let x0 = space.decode(&space.default_indices());
        Ok(match *self {
            Mutation::HillClimber => Box::new(OneWeight {
                space: space.clone(),
                free: space.free_dims(),
                x0,
            }),
            Mutation::Gaussian { sigma } => Box::new(Gaussian {
                bounds: bounds(space, &continuous),
                continuous,
                sigma,
                x0,
            }),
            Mutation::IsoLine {
                sigma_iso,
                sigma_line,
            } => Box::new(IsoLine {
                bounds: bounds(space, &continuous),
                continuous,
                sigma_iso,
                sigma_line,
                x0,
            }),
        })
    }
}

fn bounds(space: &Space, dims: &[usize]) -> Vec<(f64, f64)> {
    dims.iter()
        .map(|&d| space.dims[d].domain.bounds())
        .collect()
}

/// Proposes candidates from an archive.
pub trait Emitter: Send {
    fn name(&self) -> &'static str;

    /// Appends `n` candidates (values in the space's order) to `out`. While the archive
    /// is empty, candidates are mutants of the space's default point (pyribs' x0).
    fn ask(&mut self, archive: &dyn Archive, n: usize, rng: &mut Rng, out: &mut Vec<Vec<f64>>);

    /// What the archive did with the candidates of this emitter's last ask, in order.
    /// The emitters here are stateless; adaptive ones (CMA-ME) learn from it.
    fn tell(&mut self, _asked: &[Candidate], _outcomes: &[AddOutcome]) {}
}

/// An elite drawn uniformly, or `x0` from an empty archive.
fn parent<'a>(archive: &'a dyn Archive, x0: &'a [f64], rng: &mut Rng) -> &'a [f64] {
    let elites = archive.elites();
    if elites.is_empty() {
        x0
    } else {
        &elites[rng.random_range(0..elites.len())].values
    }
}

/// The paper's one-weight mutation.
pub(crate) struct OneWeight {
    space: Space,
    free: Vec<usize>,
    x0: Vec<f64>,
}

impl Emitter for OneWeight {
    fn name(&self) -> &'static str {
        "one-weight"
    }

    fn ask(&mut self, archive: &dyn Archive, n: usize, rng: &mut Rng, out: &mut Vec<Vec<f64>>) {
        for _ in 0..n {
            let p = parent(archive, &self.x0, rng);
            // Continuous values off the space's levels snap to the nearest level first.
            let mut idx: Vec<u32> = self
                .space
                .dims
                .iter()
                .zip(p)
                .map(|(d, &v)| nearest_index(&d.domain, v))
                .collect();
            mutate_one(&self.space, &self.free, &mut idx, rng);
            out.push(self.space.decode(&idx));
        }
    }
}

fn nearest_index(domain: &Domain, v: f64) -> u32 {
    if let Some(i) = domain.index_of(v) {
        return i as u32;
    }
    domain
        .levels_near(v)
        .min_by(|&a, &b| {
            (domain.value(a) - v)
                .abs()
                .total_cmp(&(domain.value(b) - v).abs())
        })
        .unwrap_or(0) as u32
}

/// Gaussian mutation of every continuous dimension, clipped to its bounds.
pub(crate) struct Gaussian {
    continuous: Vec<usize>,
    bounds: Vec<(f64, f64)>,
    sigma: f64,
    x0: Vec<f64>,
}

impl Emitter for Gaussian {
    fn name(&self) -> &'static str {
        "gaussian"
    }

    fn ask(&mut self, archive: &dyn Archive, n: usize, rng: &mut Rng, out: &mut Vec<Vec<f64>>) {
        for _ in 0..n {
            let mut x = parent(archive, &self.x0, rng).to_vec();
            for (&d, &(lo, hi)) in self.continuous.iter().zip(&self.bounds) {
                let step: f64 = StandardNormal.sample(rng);
                x[d] = (x[d] + self.sigma * step).clamp(lo, hi);
            }
            out.push(x);
        }
    }
}

/// Iso+line mutation, clipped to the bounds.
pub(crate) struct IsoLine {
    continuous: Vec<usize>,
    bounds: Vec<(f64, f64)>,
    sigma_iso: f64,
    sigma_line: f64,
    x0: Vec<f64>,
}

impl Emitter for IsoLine {
    fn name(&self) -> &'static str {
        "iso-line"
    }

    fn ask(&mut self, archive: &dyn Archive, n: usize, rng: &mut Rng, out: &mut Vec<Vec<f64>>) {
        for _ in 0..n {
            let xi = parent(archive, &self.x0, rng);
            let xj = parent(archive, &self.x0, rng);
            let line: f64 = StandardNormal.sample(rng);
            let mut x = xi.to_vec();
            for (&d, &(lo, hi)) in self.continuous.iter().zip(&self.bounds) {
                let iso: f64 = StandardNormal.sample(rng);
                x[d] = (x[d] + self.sigma_iso * iso + self.sigma_line * line * (xj[d] - xi[d]))
                    .clamp(lo, hi);
            }
            out.push(x);
        }
    }
}
