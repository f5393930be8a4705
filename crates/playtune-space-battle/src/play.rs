//! Playing a whole game between two agents.

use super::action::SbeAction;
use super::def::SpaceBattle;
use super::params::SbeParams;
use super::state::{SbeState, ShipStats};
use playtune_harness::game::Agent;
use playtune_harness::{GameDef, harness};
use playtune_optim::rng::derive_seed;
use serde::{Deserialize, Serialize};

/// How a finished game went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Final points of ship 0 and ship 1.
    pub scores: [f64; 2],
    /// Who won; a draw marks both.
    pub winners: [bool; 2],
    /// Each ship's tallies at the end.
    pub(crate) ships: [ShipStats; 2],
    /// Ticks played.
    pub ticks: u32,
}

impl GameRecord {
    /// The record of the finished game `state`.
    pub fn of(state: &SbeState) -> GameRecord {
        GameRecord {
            scores: [state.points(0), state.points(1)],
            winners: state.winner_flags(),
            ships: [state.ship_stats(0), state.ship_stats(1)],
            ticks: state.tick(),
        }
    }

    /// T of Eq. 2 from ship 0's side (`def::game_t`).
    pub fn t(&self) -> f64 {
        super::def::game_t(self.scores, self.winner())
    }

    /// The single winner, or `None` on a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.winners {
            [true, false] => Some(0),
            [false, true] => Some(1),
            _ => None,
        }
    }
}

/// Plays a full game on `params`, `p0` flying ship 0. The game and each agent draw
/// their randomness from seeds derived from `seed`, so the record is a function of
/// the arguments.
pub fn play_game(
    params: &SbeParams,
    p0: &mut dyn Agent<SbeState>,
    p1: &mut dyn Agent<SbeState>,
    seed: u64,
) -> GameRecord {
    let state = SbeState::new(params.clone(), derive_seed(seed, &[0]));
    play_from(state, p0, p1, seed, &mut |_, _| {})
}

/// Plays `state` to its end; `observe` sees every state and the joint action chosen in
/// it (for drawing trails or logging). Agent generators come from `seed` as in
/// [`play_game`]: the harness's loop with ship `i` flown by agent `i`.
pub fn play_from(
    state: SbeState,
    p0: &mut dyn Agent<SbeState>,
    p1: &mut dyn Agent<SbeState>,
    seed: u64,
    observe: &mut dyn FnMut(&SbeState, [SbeAction; 2]),
) -> GameRecord {
    let state = harness::play::play(
        state,
        &mut [p0, p1],
        &[0, 1],
        <SpaceBattle as GameDef>::AGENT_STREAM,
        seed,
        &mut |s, a| observe(s, [a[0], a[1]]),
    )
    .unwrap_or_else(|e| unreachable!("two agents fill Space Battle's two seats: {e}"));
    GameRecord::of(&state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{OneStepLookAhead, RotateAndShoot};

    #[test]
    fn same_seed_same_record() {
        let params = SbeParams::default();
        let a = play_game(
            &params,
            &mut OneStepLookAhead::new(),
            &mut RotateAndShoot,
            8,
        );
        let b = play_game(
            &params,
            &mut OneStepLookAhead::new(),
            &mut RotateAndShoot,
            8,
        );
        assert_eq!(a, b);
        assert_eq!(a.ticks, 2000);
    }

    #[test]
    fn observer_sees_every_tick() {
        let state = SbeState::new(SbeParams::default(), 1).with_max_ticks(50);
        let mut seen = 0;
        let record = play_from(
            state,
            &mut RotateAndShoot,
            &mut RotateAndShoot,
            1,
            &mut |s, a| {
                assert_eq!(s.tick(), seen);
                assert_eq!(a, [5, 5]);
                seen += 1;
            },
        );
        assert_eq!((seen, record.ticks), (50, 50));
        assert_eq!(record.winner(), None, "mirror-image play draws");
    }

    /// Prints ticks per second for RAS vs RAS with 0 and with 8 black holes, and a few
    /// sample records. Run with `cargo test --release --lib timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing_and_sample_games() {
        use crate::agents::DoNothing;
        use std::time::Instant;
        let mut eight = SbeParams {
            grid_size: 4,
            ..SbeParams::default()
        };
        for cell in [0, 2, 5, 7, 8, 10, 13, 15] {
            eight.blackhole_cells[cell] = true;
        }
        for (label, params) in [("0 holes", SbeParams::default()), ("8 holes", eight)] {
            let games = 200;
            let start = Instant::now();
            let mut ticks = 0u64;
            for seed in 0..games {
                ticks += u64::from(
                    play_game(&params, &mut RotateAndShoot, &mut RotateAndShoot, seed).ticks,
                );
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "RAS vs RAS, {label}: {:.0} ticks/s ({games} games in {secs:.2}s)",
                ticks as f64 / secs
            );
        }
        let start = Instant::now();
        let record = play_game(
            &SbeParams::default(),
            &mut OneStepLookAhead::new(),
            &mut RotateAndShoot,
            0,
        );
        println!(
            "1SLA vs RAS: {:.0} ticks/s; {record:?}",
            f64::from(record.ticks) / start.elapsed().as_secs_f64()
        );
        println!(
            "RAS vs DoNothing: {:?}",
            play_game(
                &SbeParams::default(),
                &mut RotateAndShoot,
                &mut DoNothing,
                0
            )
        );
        println!(
            "1SLA vs DoNothing: {:?}",
            play_game(
                &SbeParams::default(),
                &mut OneStepLookAhead::new(),
                &mut DoNothing,
                0
            )
        );
    }
}
