//! Plane vectors and the torus the ships fly on.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul, Sub};

/// Width of the map in pixels.
pub(crate) const WIDTH: f64 = 640.0;
/// Height of the map in pixels.
pub(crate) const HEIGHT: f64 = 480.0;

/// A point or a direction in pixels (y grows downwards, as on screen).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Vec2 {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

impl Vec2 {
    pub(crate) const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    pub(crate) const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Euclidean length.
    #[cfg(test)]
    pub(crate) fn length(self) -> f64 {
        // Not `hypot`: it is several times slower and overflow cannot happen here.
        self.length_squared().sqrt()
    }

    pub(crate) fn length_squared(self) -> f64 {
        self.x * self.x + self.y * self.y
    }

    /// Plain Euclidean distance: collisions and black holes ignore the wrap, as in the
    /// reference game.
    #[cfg(test)]
    pub(crate) fn distance(self, other: Vec2) -> f64 {
        (self - other).length()
    }

    /// Whether two discs of radii summing to `reach` overlap (distance < reach).
    pub(crate) fn within(self, other: Vec2, reach: f64) -> bool {
        (self - other).length_squared() < reach * reach
    }

    /// Rotated by `degrees`; positive turns clockwise on screen because y points down.
    #[cfg(test)]
    pub(crate) fn rotated(self, degrees: f64) -> Self {
        self.rotated_by(degrees.to_radians().sin_cos())
    }

    /// Rotated by the angle whose `(sin, cos)` is given: exactly `Vec2::rotated` when
    /// they are `degrees.to_radians().sin_cos()`, without recomputing them.
    #[inline]
    pub(crate) fn rotated_by(self, (sin, cos): (f64, f64)) -> Self {
        Self::new(self.x * cos - self.y * sin, self.x * sin + self.y * cos)
    }

    /// Each component clamped to `[-limit, limit]`.
    pub(crate) fn clamped(self, limit: f64) -> Self {
        Self::new(self.x.clamp(-limit, limit), self.y.clamp(-limit, limit))
    }

    /// The same point brought back onto the torus `[0, WIDTH) x [0, HEIGHT)`.
    #[inline]
    pub(crate) fn wrapped(self) -> Self {
        Self::new(
            wrap_coordinate(self.x, WIDTH),
            wrap_coordinate(self.y, HEIGHT),
        )
    }
}

#[inline]
fn wrap_coordinate(value: f64, size: f64) -> f64 {
    // Nearly every point is already on the map, where `rem_euclid` returns it unchanged:
    // skip the (slow, software) remainder for those.
    if value >= 0.0 && value < size {
        return value;
    }
    let wrapped = value.rem_euclid(size);
    // rem_euclid of a tiny negative number rounds up to `size` itself.
    if wrapped >= size { 0.0 } else { wrapped }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, rhs: Vec2) -> Vec2 {
        Vec2::new(self.x + rhs.x, self.y + rhs.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, rhs: Vec2) {
        self.x += rhs.x;
        self.y += rhs.y;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, rhs: Vec2) -> Vec2 {
        Vec2::new(self.x - rhs.x, self.y - rhs.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, rhs: f64) -> Vec2 {
        Vec2::new(self.x * rhs, self.y * rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_brings_points_back_onto_the_torus() {
        assert_eq!(Vec2::new(645.0, -5.0).wrapped(), Vec2::new(5.0, 475.0));
        assert_eq!(Vec2::new(-1e-18, 480.0).wrapped(), Vec2::new(0.0, 0.0));
        assert_eq!(Vec2::new(10.0, 20.0).wrapped(), Vec2::new(10.0, 20.0));
    }

    #[test]
    fn rotation_is_clockwise_on_screen() {
        let r = Vec2::new(1.0, 0.0).rotated(90.0);
        assert!((r.x).abs() < 1e-12 && (r.y - 1.0).abs() < 1e-12);
    }
}
