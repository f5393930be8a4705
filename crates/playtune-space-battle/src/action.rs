//! The 12 actions: every combination of {no turn, left, right} x {thrust, no thrust} x
//! {fire, no fire}, numbered in the spec's order: NIL 0, L 1, R 2, T 3, F 4, LF 5, RF 6,
//! TF 7, TL 8, TR 9, TLF 10, TRF 11 (L and R turn, T thrusts, F fires).

/// An action is its number, 0..`NUM_ACTIONS`.
pub type SbeAction = u8;

/// Nothing: no turn, no thrust, no fire.
pub const NIL: SbeAction = 0;
/// Turn left.
pub const L: SbeAction = 1;
/// Turn right.
pub const R: SbeAction = 2;
/// Thrust.
pub const T: SbeAction = 3;
/// Fire.
pub const F: SbeAction = 4;
/// Turn left and fire (the rotate-and-shoot bot's action).
pub const LF: SbeAction = 5;
pub(crate) const NUM_ACTIONS: u8 = 12;

/// What an action asks of the ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Controls {
    /// -1 left, 0 straight, +1 right.
    pub(crate) turn: i8,
    /// Whether the ship thrusts.
    pub(crate) thrust: bool,
    /// Whether the ship fires.
    pub(crate) fire: bool,
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

/// The controls of an action. Panics on a number outside 0..12: passing one is a bug
/// in the caller.
pub(crate) fn controls(action: SbeAction) -> Controls {
    assert!(
        action < NUM_ACTIONS,
        "Space Battle action {action} out of range 0..{NUM_ACTIONS}"
    );
    CONTROLS[action as usize]
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
            controls(11), // TRF
            Controls {
                turn: 1,
                thrust: true,
                fire: true
            }
        );
    }
}
