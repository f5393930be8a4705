//! Emitters: each proposes candidates from the archive's elites and is told what the
//! archive did with them (pyribs' emitters). Randomness comes in with every ask, from a
//! generator the scheduler seeds for that work item (run seed, batch index, emitter
//! index), never from a generator held per thread or per emitter: a batch is then the
//! same whatever ran before it on whichever thread, and a replayed run asks again
//! exactly what it asked the first time.

use super::archive::{AddOutcome, Archive};
use crate::optim::{Candidate, Error};
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
    Gaussian {
        /// The noise's standard deviation.
        sigma: f64,
    },
    /// Iso+line (Vassiliades & Mouret 2018): x_i + sigma_iso N(0, I) + sigma_line
    /// N(0, 1) (x_j - x_i) over the continuous dimensions, x_i and x_j elites drawn
    /// uniformly. The line term moves along the direction between elites, which in
    /// many problems is where the elites' hypervolume lies.
    IsoLine {
        /// The isotropic noise's standard deviation.
        sigma_iso: f64,
        /// The standard deviation of the step along the line between elites.
        sigma_line: f64,
    },
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

    /// Checks the settings; an error names the setting as `config.ron` does.
    pub fn check(&self) -> Result<(), Error> {
        let positive = |setting: &'static str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(Error::Setting {
                    setting: setting.into(),
                    value: v.to_string(),
                    expected: "needs a finite number above 0".into(),
                })
            }
        };
        match *self {
            Mutation::HillClimber => Ok(()),
            Mutation::Gaussian { sigma } => positive("sigma", sigma),
            Mutation::IsoLine {
                sigma_iso,
                sigma_line,
            } => {
                positive("sigma_iso", sigma_iso)?;
                positive("sigma_line", sigma_line)
            }
        }
    }

    /// The emitter over `space`.
    pub(crate) fn emitter(&self, space: &Space) -> Result<Box<dyn Emitter>, Error> {
        self.check()?;
        let continuous: Vec<usize> = space
            .free_dims()
            .into_iter()
            .filter(|&d| space.dims[d].domain.is_continuous())
            .collect();
        if !matches!(self, Mutation::HillClimber) && continuous.is_empty() {
            return Err(Error::NeedsFloats(self.name()));
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
pub(crate) trait Emitter: Send {
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
pub(super) struct Gaussian {
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
pub(super) struct IsoLine {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::FeatureAxis;
    use crate::eval::{Problem, Sphere};
    use crate::optim::map_elites::{Better, GridArchive};
    use crate::rng::item_rng;
    use crate::space::Dimension;

    /// A 10 x 10 archive over the first two values, filled with `n` random points of
    /// `space`'s continuous box.
    fn archive(space: &Space, n: usize) -> GridArchive {
        let axis = |name: &str| FeatureAxis {
            name: name.into(),
            low: -10.0,
            high: 10.0,
            bins: 10,
        };
        let mut a = GridArchive::new(
            vec![axis("a"), axis("b")],
            vec![0, 1],
            false,
            Better::Greater,
            None,
            0.0,
        );
        let mut rng = item_rng(9, &[]);
        for i in 0..n {
            let x: Vec<f64> = space
                .dims
                .iter()
                .map(|d| {
                    let (lo, hi) = d.domain.bounds();
                    let k = rng.random_range(0..d.domain.len());
                    if d.domain.is_continuous() {
                        rng.random_range(lo..=hi)
                    } else {
                        d.domain.value(k)
                    }
                })
                .collect();
            a.add(&x, rng.random_range(0.0..1.0), &x[..2], i as u64);
        }
        a
    }

    fn mixed_space() -> Space {
        let mut s = Sphere::new(4).space().clone();
        s.dims.push(Dimension {
            name: "n".into(),
            domain: Domain::Int {
                min: 0,
                max: 4,
                step: 1,
            },
            default: 0,
            fixed: false,
        });
        s
    }

    fn ask(m: &Mutation, space: &Space, archive: &dyn Archive, seed: u64) -> Vec<Vec<f64>> {
        let mut e = m.emitter(space).unwrap();
        let mut out = Vec::new();
        e.ask(archive, 200, &mut item_rng(seed, &[0, 0]), &mut out);
        out
    }

    fn is_elite(a: &dyn Archive, x: &[f64]) -> bool {
        a.elites().iter().any(|e| e.values == x)
    }

    #[test]
    fn one_weight_changes_exactly_one_dimension_to_another_value() {
        let space = mixed_space();
        let a = archive(&space, 300);
        for x in ask(&Mutation::HillClimber, &space, &a, 1) {
            // Its parent is the elite it differs from in exactly one dimension (elites'
            // Float values are off the levels, so parents are snapped first).
            let snapped = |e: &[f64]| -> Vec<f64> {
                let idx: Vec<u32> = space
                    .dims
                    .iter()
                    .zip(e)
                    .map(|(d, &v)| nearest_index(&d.domain, v))
                    .collect();
                space.decode(&idx)
            };
            let one = a.elites().iter().any(|e| {
                snapped(&e.values)
                    .iter()
                    .zip(&x)
                    .filter(|(p, c)| p != c)
                    .count()
                    == 1
            });
            assert!(one, "{x:?} is one change away from no elite");
        }
        // From an empty archive: one change from the default point.
        let x0 = space.decode(&space.default_indices());
        let empty = archive(&space, 0);
        for x in ask(&Mutation::HillClimber, &space, &empty, 2) {
            assert_eq!(x.iter().zip(&x0).filter(|(a, b)| a != b).count(), 1);
        }
    }

    #[test]
    fn gaussian_and_iso_line_stay_in_bounds_and_keep_discrete_values() {
        let space = mixed_space();
        let a = archive(&space, 300);
        for m in [
            Mutation::Gaussian { sigma: 30.0 },
            Mutation::IsoLine {
                sigma_iso: 5.0,
                sigma_line: 3.0,
            },
        ] {
            let xs = ask(&m, &space, &a, 3);
            let mut clipped = 0;
            for x in &xs {
                for (d, v) in space.dims.iter().zip(x) {
                    let (lo, hi) = d.domain.bounds();
                    assert!((lo..=hi).contains(v), "{} gave {v}", m.name());
                    clipped += (*v == lo || *v == hi) as usize;
                }
                // The discrete dimension is a parent's.
                assert!(a.elites().iter().any(|e| e.values[4] == x[4]));
            }
            assert!(
                clipped > 0,
                "{}: steps this large reach the bounds",
                m.name()
            );
            assert_eq!(xs, ask(&m, &space, &a, 3), "same generator, same batch");
            assert_ne!(xs, ask(&m, &space, &a, 4));
        }
    }

    #[test]
    fn iso_line_steps_along_the_line_between_elites() {
        // With no isotropic noise, an unclipped mutant lies on the line through two
        // elites.
        let space = Sphere::new(6).space().clone();
        let a = archive(&space, 200);
        let m = Mutation::IsoLine {
            sigma_iso: 1e-300,
            sigma_line: 0.5,
        };
        let mut checked = 0;
        for x in ask(&m, &space, &a, 5) {
            if is_elite(&a, &x) || x.iter().any(|v| v.abs() == 10.24) {
                continue; // a parent paired with itself, or clipped
            }
            checked += 1;
            let collinear = a.elites().iter().any(|xi| {
                a.elites().iter().any(|xj| {
                    let t: Vec<f64> = (0..6)
                        .map(|d| (x[d] - xi.values[d]) / (xj.values[d] - xi.values[d]))
                        .collect();
                    t.iter().all(|v| (v - t[0]).abs() < 1e-6)
                })
            });
            assert!(collinear, "{x:?} is on no line between two elites");
        }
        assert!(checked > 50, "{checked} unclipped mutants");
    }

    #[test]
    fn continuous_emitters_refuse_discrete_spaces() {
        let mut space = mixed_space();
        space.dims.truncate(0);
        space.dims.push(mixed_space().dims[4].clone());
        assert!(Mutation::HillClimber.emitter(&space).is_ok());
        let err = Mutation::Gaussian { sigma: 0.5 }
            .emitter(&space)
            .err()
            .unwrap();
        assert!(err.to_string().contains("Float dimensions"), "{err}");
        assert!(Mutation::Gaussian { sigma: 0.0 }.check().is_err());
        assert!(
            Mutation::IsoLine {
                sigma_iso: 0.1,
                sigma_line: f64::NAN
            }
            .check()
            .unwrap_err()
            .setting()
            .is_some_and(|(setting, _)| setting == "sigma_line")
        );
    }
}
