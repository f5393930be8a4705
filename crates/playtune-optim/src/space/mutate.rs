//! Random points, one-dimension mutation and NTBEA neighbours, all on value indices.

use super::Space;
use crate::rng::Rng;
use rand::RngExt;

/// A uniformly random point; fixed dimensions keep their default.
pub fn random_point(space: &Space, rng: &mut Rng) -> Vec<u32> {
    space
        .dims
        .iter()
        .map(|d| {
            if d.fixed {
                d.default as u32
            } else {
                rng.random_range(0..d.arity()) as u32
            }
        })
        .collect()
}

/// Changes dimension `dim` of `point` to a different value, uniform among the others.
#[inline]
pub fn mutate_value(point: &mut [u32], dim: usize, arity: usize, rng: &mut Rng) {
    debug_assert!(arity >= 2);
    let r = rng.random_range(0..arity as u32 - 1);
    point[dim] = if r >= point[dim] { r + 1 } else { r };
}

/// Mutates one free dimension, chosen uniformly, to a different value; returns it.
/// `free` must be non-empty (see [`Space::free_dims`]).
pub(crate) fn mutate_one(space: &Space, free: &[usize], point: &mut [u32], rng: &mut Rng) -> usize {
    let dim = free[rng.random_range(0..free.len())];
    mutate_value(point, dim, space.dims[dim].arity(), rng);
    dim
}

/// Writes into `out` a neighbour of `current` for NTBEA, as the reference NTBEA's
/// mutator makes them: one free dimension chosen uniformly always mutates, and every
/// other free dimension mutates with probability `p / free.len()` (about 1 + p changes
/// in all). The mutated dimensions are written to `changed`.
pub fn neighbour(
    space: &Space,
    free: &[usize],
    current: &[u32],
    p: f64,
    rng: &mut Rng,
    out: &mut Vec<u32>,
    changed: &mut Vec<usize>,
) {
    out.clear();
    out.extend_from_slice(current);
    changed.clear();
    let prob = (p / free.len() as f64).min(1.0);
    let forced = free[rng.random_range(0..free.len())];
    for &d in free {
        if d == forced || rng.random::<f64>() < prob {
            mutate_value(out, d, space.dims[d].arity(), rng);
            changed.push(d);
        }
    }
}
