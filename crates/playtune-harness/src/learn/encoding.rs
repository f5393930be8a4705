//! A game's state encoding: a fixed list of counted features, each stored as one byte
//! in the sample file and fed to the network one-hot (the Prismata paper's encoding:
//! the player to move, then each player's unit-type and resource counts, every count a
//! one-hot vector). A new game supplies its own [`StateEncoding`].

use serde::{Deserialize, Serialize};

/// One counted feature: its value is clamped to `0..cap` and becomes a one-hot block of
/// `cap` inputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feature {
    /// The feature's name.
    pub name: String,
    /// Its inputs: its value is clamped to `0..cap`.
    pub cap: u8,
}

/// A named list of features. The name is written into sample files and networks, and
/// checked on load: a network only evaluates states of the encoding it learned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encoding {
    /// The encoding's name.
    pub name: String,
    /// Its features, in input order.
    pub features: Vec<Feature>,
}

impl Encoding {
    /// An encoding from `(name, cap)` pairs; caps of 0 are raised to 1.
    pub fn new(name: &str, features: impl IntoIterator<Item = (String, u8)>) -> Encoding {
        Encoding {
            name: name.to_string(),
            features: features
                .into_iter()
                .map(|(name, cap)| Feature {
                    name,
                    cap: cap.max(1),
                })
                .collect(),
        }
    }

    /// How to encode the same state with the two seats' roles exchanged, read off the
    /// feature names: `p0_X` and `p1_X` are seat 0's and seat 1's `X`, and `to_move`
    /// (cap 2) is the seat to move; every other feature belongs to neither seat.
    /// `None` when no feature names a seat, or a seat's feature has no twin. A game's
    /// winner is exchanged with the seats, so the target (the player to move wins)
    /// of the exchanged state is the original's.
    pub fn seat_swap(&self) -> Option<SeatSwap> {
        let index = |name: &str| self.features.iter().position(|f| f.name == name);
        let mut source = Vec::with_capacity(self.len());
        let mut flip = Vec::with_capacity(self.len());
        let mut seated = false;
        for f in &self.features {
            let twin = match (f.name.strip_prefix("p0_"), f.name.strip_prefix("p1_")) {
                (Some(x), _) => Some(format!("p1_{x}")),
                (_, Some(x)) => Some(format!("p0_{x}")),
                _ => None,
            };
            match twin {
                Some(twin) => {
                    let t = index(&twin)?;
                    if self.features[t].cap != f.cap {
                        return None;
                    }
                    source.push(t);
                    seated = true;
                }
                None => source.push(source.len()),
            }
            flip.push(f.name == "to_move" && f.cap == 2);
        }
        seated.then_some(SeatSwap { source, flip })
    }

    /// Bytes per encoded state (one per feature).
    pub fn len(&self) -> usize {
        self.features.len()
    }

    /// Whether it has no features.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }

    /// Network inputs: the sum of the caps.
    pub fn width(&self) -> usize {
        self.features.iter().map(|f| usize::from(f.cap)).sum()
    }

    /// The indices of the inputs set to 1 for the counts `counts` (one per feature),
    /// written into `out` (cleared first), in increasing order.
    pub fn active_inputs(&self, counts: &[u8], out: &mut Vec<u32>) {
        out.clear();
        let mut offset = 0u32;
        for (f, &c) in self.features.iter().zip(counts) {
            out.push(offset + u32::from(c.min(f.cap - 1)));
            offset += u32::from(f.cap);
        }
    }

    /// Whether `other` encodes states the same way (same name and features).
    pub fn check_same(&self, other: &Encoding, what: &str) -> Result<(), super::Error> {
        if self.name != other.name {
            return Err(super::Error::OtherEncoding {
                what: what.to_string(),
                theirs: other.name.clone(),
                ours: self.name.clone(),
            });
        }
        if self.features != other.features {
            return Err(super::Error::EncodingVersion {
                what: what.to_string(),
                name: self.name.clone(),
                theirs: other.features.len(),
                ours: self.features.len(),
            });
        }
        Ok(())
    }
}

/// An encoding's seat exchange ([`Encoding::seat_swap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSwap {
    /// Feature `i` of the exchanged state is feature `source[i]` of the original.
    source: Vec<usize>,
    /// Features whose value `v` (0 or 1) becomes `1 - v`: the seat to move.
    flip: Vec<bool>,
}

impl SeatSwap {
    /// The exchanged state's counts, written into `out`.
    pub fn apply(&self, counts: &[u8], out: &mut [u8]) {
        for ((o, &s), &flip) in out.iter_mut().zip(&self.source).zip(&self.flip) {
            let v = counts[s];
            *o = if flip { u8::from(v == 0) } else { v };
        }
    }
}

/// How a game encodes its states for learning.
pub trait StateEncoding<S>: Send + Sync {
    /// The encoding's name and features.
    fn encoding(&self) -> &Encoding;

    /// Writes one count per feature of `state` into `counts` (its length is the
    /// encoding's [`Encoding::len`]). Counts beyond a feature's cap may be written;
    /// they are clamped.
    fn encode(&self, state: &S, counts: &mut [u8]);

    /// The player to move in `state`, whose view the network's value takes.
    fn mover(&self, state: &S) -> usize;
}

/// A count as a byte, saturating.
pub fn count(n: impl TryInto<u8>) -> u8 {
    n.try_into().unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn active_inputs_are_offsets_plus_clamped_counts() {
        let e = Encoding::new("t", [("a".into(), 2), ("b".into(), 3), ("c".into(), 4)]);
        assert_eq!(e.width(), 9);
        let mut out = Vec::new();
        e.active_inputs(&[1, 0, 200], &mut out);
        assert_eq!(out, [1, 2, 8]);
        e.active_inputs(&[0, 2, 3], &mut out);
        assert_eq!(out, [0, 4, 8]);
    }

    #[test]
    fn seats_exchange_by_name_and_twice_is_nothing() {
        let e = Encoding::new(
            "t",
            [
                ("to_move".into(), 2),
                ("p0_a".into(), 5),
                ("p0_b".into(), 3),
                ("p1_a".into(), 5),
                ("p1_b".into(), 3),
                ("round".into(), 9),
            ],
        );
        let swap = e.seat_swap().unwrap();
        let counts = [1, 4, 2, 0, 1, 7];
        let mut once = [0; 6];
        swap.apply(&counts, &mut once);
        assert_eq!(once, [0, 0, 1, 4, 2, 7]);
        let mut twice = [0; 6];
        swap.apply(&once, &mut twice);
        assert_eq!(twice, counts);
        // A seat's feature without its twin, twins of different caps, or no seats.
        let lone = Encoding::new("t", [("p0_a".into(), 2), ("p1_b".into(), 2)]);
        assert!(lone.seat_swap().is_none());
        let uneven = Encoding::new("t", [("p0_a".into(), 2), ("p1_a".into(), 3)]);
        assert!(uneven.seat_swap().is_none());
        assert!(Encoding::new("t", [("a".into(), 2)]).seat_swap().is_none());
    }

    #[test]
    fn encodings_are_checked_by_name_and_features() {
        let a = Encoding::new("x", [("a".into(), 2)]);
        let b = Encoding::new("y", [("a".into(), 2)]);
        let c = Encoding::new("x", [("a".into(), 3)]);
        assert!(a.check_same(&a.clone(), "m").is_ok());
        assert!(
            a.check_same(&b, "m")
                .unwrap_err()
                .to_string()
                .contains("`y`")
        );
        assert!(
            a.check_same(&c, "m")
                .unwrap_err()
                .to_string()
                .contains("different version")
        );
    }
}
