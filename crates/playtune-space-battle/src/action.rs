//! The 12 actions: every combination of {no turn, left, right} x {thrust, no thrust} x
//! {fire, no fire}, numbered in the spec's order.

/// An action is its number, 0..`NUM_ACTIONS`.
pub type SbeAction = u8;

pub const NIL: SbeAction = 0;
pub const L: SbeAction = 1;
pub const R: SbeAction = 2;
pub const T: SbeAction = 3;
pub const F: SbeAction = 4;
pub const LF: SbeAction = 5;
pub const RF: SbeAction = 6;
pub const TF: SbeAction = 7;
pub const TL: SbeAction = 8;
pub const TR: SbeAction = 9;
pub const TLF: SbeAction = 10;
pub const TRF: SbeAction = 11;
pub(crate) const NUM_ACTIONS: u8 = 12;

/// What an action asks of the ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controls {
    /// -1 left, 0 straight, +1 right.
    pub turn: i8,
    pub thrust: bool,
    pub fire: bool,
}

const fn controls_of(turn: i8, thrust: bool, fire: bool) -> Controls {
    Controls { turn, thrust, fire }
}

const CONTROLS: [Controls; NUM_ACTIONS as usize] = [
    controls_of(0, false, false),
    controls_of(-1, false, false),
    controls_of(1, false, false),
    controls_of(0, true, false),
    controls_of(0, false, true),
    controls_of(-1, false, true),
    controls_of(1, false, true),
    controls_of(0, true, true),
    controls_of(-1, true, false),
    controls_of(1, true, false),
    controls_of(-1, true, true),
    controls_of(1, true, true),
];

const NAMES: [&str; NUM_ACTIONS as usize] = [
    "NIL", "L", "R", "T", "F", "LF", "RF", "TF", "TL", "TR", "TLF", "TRF",
];

/// The controls of an action. Panics on a number outside 0..12: passing one is a bug
/// in the caller.
pub(crate) fn controls(action: SbeAction) -> Controls {
    assert!(
        action < NUM_ACTIONS,
        "Space Battle action {action} out of range 0..{NUM_ACTIONS}"
    );
    CONTROLS[action as usize]
}

/// The action's short name (NIL, L, ..., TRF), or "?" for an invalid number.
pub fn action_name(action: SbeAction) -> &'static str {
    NAMES.get(action as usize).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_cover_every_combination_once() {
        let mut seen = std::collections::HashSet::new();
        for a in 0..NUM_ACTIONS {
            let c = controls(a);
            assert!(seen.insert((c.turn, c.thrust, c.fire)));
        }
        assert_eq!(
            controls(LF),
            Controls {
                turn: -1,
                thrust: false,
                fire: true
            }
        );
        assert_eq!(
            controls(TRF),
            Controls {
                turn: 1,
                thrust: true,
                fire: true
            }
        );
        assert_eq!(action_name(TL), "TL");
    }
}
