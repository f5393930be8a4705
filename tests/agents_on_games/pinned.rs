//! Pins every decision of the rolling-horizon agents (BMRH, SRH, the microbial EA)
//! whose act loops share [`Rollouts`](super::Rollouts) and
//! [`one_plus_one`](super::one_plus_one): a hash of every action over Rinascimento
//! games (each opponent model, each mutation point) and Space Battle games. The
//! expected value was computed with the loops as they were before they were shared.
use playtune_harness::agents::{
    Bmrh, BmrhConfig, MicrobialConfig, MicrobialEa, MutationPoint, OpponentModel, Srh, SrhConfig,
};
use playtune_harness::game::{Acting, Agent, Game};
use playtune_optim::rng::{mix64, rng_from_seed};
use playtune_rinascimento::{RinState, Rules};
use playtune_space_battle::{self as space_battle, SbeParams, SbeState};

fn absorb(hash: &mut u64, text: String) {
    for b in text.bytes() {
        *hash = mix64(*hash ^ u64::from(b));
    }
    *hash = mix64(*hash ^ 0xFF);
}

/// Every action of a 2-player Rinascimento game, both seats by the agents given.
fn rin_game(agents: &mut [&mut dyn Agent<RinState>; 2], seed: u64, hash: &mut u64) {
    let mut rng = rng_from_seed(seed);
    let mut s = RinState::new(&Rules::splendor(2), seed).unwrap();
    for a in agents.iter_mut() {
        a.reset();
    }
    for _ in 0..120 {
        if s.is_over() {
            break;
        }
        let Acting::Player(p) = s.acting() else {
            unreachable!()
        };
        let a = agents[p].act(&s, p, &mut rng);
        absorb(hash, format!("{a:?}"));
        s.advance(&[a]);
    }
}

#[test]
fn rolling_horizon_decisions_are_pinned_by_hash() {
    let mut hash = 0u64;
    let opponents = [
        OpponentModel::DoNothing,
        OpponentModel::Random,
        OpponentModel::Osla,
    ];
    let mutations = [
        MutationPoint::Uniform,
        MutationPoint::Exponential { decay: 0.7 },
        MutationPoint::Gaussian { mean: 0.3, sd: 1.0 },
        MutationPoint::Fresh,
    ];
    for (k, opponent) in opponents.into_iter().enumerate() {
        let mut bmrh = Bmrh::new(BmrhConfig {
            sequence_length: 3,
            mutation: mutations[k],
            opponent,
            opponent_budget: 0.05,
            budget: 120,
            shift_buffer: k != 1,
            ..BmrhConfig::default()
        });
        let mut srh = Srh::new(SrhConfig {
            sequence_length: 3,
            flip_at_least_one: k == 2,
            opponent,
            opponent_budget: 0.05,
            budget: 120,
            shift_buffer: k != 0,
            ..SrhConfig::default()
        });
        let mut microbial = MicrobialEa::new(MicrobialConfig {
            opponent,
            opponent_budget: 0.05,
            budget: 150,
            ..MicrobialConfig::default()
        });
        rin_game(&mut [&mut bmrh, &mut srh], k as u64, &mut hash);
        rin_game(&mut [&mut microbial, &mut bmrh], 10 + k as u64, &mut hash);
        let mut sbe_bmrh = Bmrh::new(BmrhConfig {
            mutation: mutations[3 - k],
            opponent,
            budget: 60,
            ..BmrhConfig::default()
        });
        let mut sbe_microbial = MicrobialEa::new(MicrobialConfig {
            macro_action: 1 + 2 * k,
            opponent,
            budget: 80,
            ..MicrobialConfig::default()
        });
        let state = SbeState::new(SbeParams::default(), 20 + k as u64).with_max_ticks(60);
        let mut observe = |_: &SbeState, actions: [_; 2]| absorb(&mut hash, format!("{actions:?}"));
        let record = space_battle::play_from(
            state,
            &mut sbe_microbial,
            &mut sbe_bmrh,
            k as u64,
            &mut observe,
        );
        absorb(&mut hash, format!("{record:?}"));
    }
    assert_eq!(hash, EXPECTED);
}

const EXPECTED: u64 = 1980577584477620347;
