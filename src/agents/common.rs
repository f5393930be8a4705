//! Helpers shared by the rolling-horizon agents: a forward-model budget, and (for tests)
//! a game wrapper that counts forward-model calls.

use crate::game::Game;

/// Forward-model calls ([`Game::advance`]) still allowed in one decision, and
/// optionally a limit on thinking time.
///
/// Thinking time is the deciding thread's CPU time, not the wall clock: games run in
/// parallel, one per thread, and a build or another game sharing a core must not take
/// thinking time from an agent. It is still a measurement, so a timed decision is not
/// reproducible from its seed; call budgets are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    left: usize,
    /// The thread CPU time at which thinking stops, if timed.
    deadline: Option<std::time::Duration>,
    /// Calls until the clock is read again (reading it is a system call).
    until_check: u32,
}

/// Calls between two readings of the clock of a timed budget.
const CHECK_EVERY: u32 = 16;

/// CPU time used so far by the calling thread.
pub fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux and
    // macOS both define. On failure `ts` stays zero, which only ends thinking early.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    std::time::Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

impl Budget {
    pub fn new(calls: usize) -> Self {
        Budget {
            left: calls,
            deadline: None,
            until_check: CHECK_EVERY,
        }
    }

    /// `calls` calls, and at most `time` of this thread's CPU time from now.
    pub fn timed(calls: usize, time: std::time::Duration) -> Self {
        Budget {
            deadline: Some(thread_cpu_time() + time),
            ..Budget::new(calls)
        }
    }

    /// Calls still allowed.
    pub fn left(&self) -> usize {
        self.left
    }

    /// Whether thinking may go on: calls are left and the time limit, if any, has not
    /// passed (the clock is read every few checks). Work that costs no forward-model
    /// call, such as a learned evaluation, checks here.
    pub fn check(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        if let Some(deadline) = self.deadline {
            self.until_check = self.until_check.saturating_sub(1);
            if self.until_check == 0 {
                self.until_check = CHECK_EVERY;
                if thread_cpu_time() >= deadline {
                    self.left = 0;
                    return false;
                }
            }
        }
        true
    }

    /// Whether the time limit, if any, still allows thinking (it does not spend a
    /// call): for work that costs no forward-model call, such as a learned leaf
    /// evaluation. An untimed budget always answers true.
    pub fn in_time(&mut self) -> bool {
        self.deadline.is_none() || self.check()
    }

    /// Applies `actions` to `state` if a call is left (and spends it); returns false,
    /// leaving `state` untouched, if the budget is spent.
    pub fn advance<G: Game>(&mut self, state: &mut G, actions: &[G::Action]) -> bool {
        if !self.check() {
            return false;
        }
        self.left -= 1;
        state.advance(actions);
        true
    }
}

/// A game that counts every [`Game::advance`] made on it or any of its clones, for
/// tests that check budgets.
#[cfg(test)]
pub(crate) mod counted {
    use crate::game::{Acting, Game};
    use crate::rng::Rng;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Clone, Debug)]
    pub struct Counted<G> {
        pub inner: G,
        pub calls: Arc<AtomicUsize>,
    }

    impl<G> Counted<G> {
        pub fn new(inner: G) -> Self {
            Counted {
                inner,
                calls: Arc::new(AtomicUsize::new(0)),
            }
        }

        /// Calls counted so far; resets the count.
        pub fn take(&self) -> usize {
            self.calls.swap(0, Ordering::Relaxed)
        }
    }

    impl<G: Game> Game for Counted<G> {
        type Action = G::Action;
        fn num_players(&self) -> usize {
            self.inner.num_players()
        }
        fn acting(&self) -> Acting {
            self.inner.acting()
        }
        fn is_over(&self) -> bool {
            self.inner.is_over()
        }
        fn step_count(&self) -> u32 {
            self.inner.step_count()
        }
        fn random_action(&self, player: usize, rng: &mut Rng) -> Option<G::Action> {
            self.inner.random_action(player, rng)
        }
        fn legal_actions(&self, player: usize, out: &mut Vec<G::Action>) -> bool {
            self.inner.legal_actions(player, out)
        }
        fn advance(&mut self, actions: &[G::Action]) {
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.inner.advance(actions);
        }
        fn score(&self, player: usize) -> f64 {
            self.inner.score(player)
        }
        fn value(&self, player: usize) -> f64 {
            self.inner.value(player)
        }
        fn winners(&self) -> Vec<bool> {
            self.inner.winners()
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::counted::Counted;
    use crate::game::{Acting, Agent, Game};
    use crate::games::rinascimento::{self, RinState, Rules};
    use crate::rng::rng_from_seed;

    /// Wins of `agent` (agent 0) against `other` over `games` 2-player games.
    pub fn rin_wins(
        agent: &mut dyn Agent<RinState>,
        other: &mut dyn Agent<RinState>,
        games: u64,
    ) -> u64 {
        let rules = Rules::splendor(2);
        let mut wins = 0;
        for seed in 0..games {
            let record = rinascimento::play_game(&rules, &mut [&mut *agent, &mut *other], seed);
            if record.winners[0] && !record.winners[1] {
                wins += 1;
            }
        }
        wins
    }

    /// Plays up to `decisions` Rinascimento decisions (every seat by `agent`) and
    /// returns the most forward-model calls one decision made.
    pub fn max_rin_calls(agent: &mut dyn Agent<Counted<RinState>>, decisions: usize) -> usize {
        let mut rng = rng_from_seed(9);
        let mut s = Counted::new(RinState::new(&Rules::splendor(2), 5).unwrap());
        let mut most = 0;
        for _ in 0..decisions {
            if s.is_over() {
                break;
            }
            let Acting::Player(p) = s.acting() else {
                unreachable!()
            };
            let a = agent.act(&s, p, &mut rng);
            most = most.max(s.take());
            s.inner.advance(&[a]);
        }
        most
    }

    /// The actions `agent` chooses over the first 30 decisions of a game, `seed`
    /// seeding its generator.
    pub fn rin_actions(
        agent: &mut dyn Agent<RinState>,
        seed: u64,
    ) -> Vec<<RinState as Game>::Action> {
        agent.reset();
        let mut rng = rng_from_seed(seed);
        let mut s = RinState::new(&Rules::splendor(2), 11).unwrap();
        let mut seq = Vec::new();
        for _ in 0..30 {
            if s.is_over() {
                break;
            }
            let Acting::Player(p) = s.acting() else {
                unreachable!()
            };
            let a = agent.act(&s, p, &mut rng);
            seq.push(a);
            s.advance(&[a]);
        }
        seq
    }

    /// Decisions per second of `agent` over the first decisions of a few games.
    pub fn rin_decisions_per_second(agent: &mut dyn Agent<RinState>) -> f64 {
        let start = std::time::Instant::now();
        let mut decisions = 0;
        for game in 0..3 {
            let mut rng = rng_from_seed(game);
            let mut s = RinState::new(&Rules::splendor(2), game).unwrap();
            agent.reset();
            while !s.is_over() && decisions < 100 * (game + 1) {
                let Acting::Player(p) = s.acting() else {
                    unreachable!()
                };
                let a = agent.act(&s, p, &mut rng);
                s.advance(&[a]);
                decisions += 1;
            }
        }
        decisions as f64 / start.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::rin_decisions_per_second;
    use crate::agents::{Bmrh, BmrhConfig, MicrobialConfig, MicrobialEa, Srh, SrhConfig};

    #[test]
    #[ignore = "timing report: cargo test --release --lib agents::common -- --ignored --nocapture"]
    fn decisions_per_second_at_budget_1000() {
        let budget = 1000;
        let bmrh = rin_decisions_per_second(&mut Bmrh::new(BmrhConfig {
            evaluations: usize::MAX,
            budget,
            ..BmrhConfig::default()
        }));
        let srh = rin_decisions_per_second(&mut Srh::new(SrhConfig {
            evaluations: usize::MAX,
            budget,
            ..SrhConfig::default()
        }));
        let microbial = rin_decisions_per_second(&mut MicrobialEa::new(MicrobialConfig {
            budget,
            ..MicrobialConfig::default()
        }));
        println!(
            "Rinascimento, budget {budget} calls: BMRH {bmrh:.0}/s, SRH {srh:.0}/s, \
             MicrobialEA {microbial:.0}/s decisions"
        );
    }
}

/// Helpers shared by the agents' tests.
#[cfg(test)]
pub(crate) mod test_games {
    use crate::game::Agent;
    use crate::games::space_battle::{self, SbeParams, SbeState};
    use crate::rng::derive_seed;

    /// Total score of ship 0 (`a`) and ship 1 (`b`) over four 300-tick games.
    pub fn sbe_scores(a: &mut dyn Agent<SbeState>, b: &mut dyn Agent<SbeState>) -> (f64, f64) {
        let (mut sa, mut sb) = (0.0, 0.0);
        for seed in 0..4 {
            let state =
                SbeState::new(SbeParams::default(), derive_seed(seed, &[0])).with_max_ticks(300);
            let record = space_battle::play_from(state, a, b, seed, &mut |_, _| {});
            sa += record.scores[0];
            sb += record.scores[1];
        }
        (sa, sb)
    }
}
