//! Helpers shared by the rolling-horizon agents: a forward-model budget, the plan
//! rollout and (1+1) loop of BMRH, SRH and the microbial EA, and (for tests) a game
//! wrapper that counts forward-model calls.

use super::opponents::{OpponentModel, Simulator, opponent_calls};
use crate::game::Game;
use crate::rng::Rng;

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
    pub(crate) fn in_time(&mut self) -> bool {
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

/// What the rolling-horizon agents (BMRH, SRH, the microbial EA) share: the opponent
/// simulator and a scratch state that every plan is played on, so that a decision
/// allocates one state however many plans it tries.
#[derive(Clone, Debug)]
pub(crate) struct Rollouts<G: Game> {
    sim: Simulator<G>,
    scratch: Option<G>,
}

impl<G: Game> Rollouts<G> {
    /// For an agent whose other players act by `opponent`, an OSLA opponent spending
    /// `share` of the agent's `budget` per choice.
    pub(crate) fn new(opponent: OpponentModel, budget: usize, share: f64) -> Self {
        Rollouts {
            sim: Simulator::new(opponent, opponent_calls(budget, share)),
            scratch: None,
        }
    }

    /// Sets the opponents for one decision and returns its budget (see
    /// [`Simulator::prepare`]).
    pub(crate) fn prepare(&mut self, opponent: OpponentModel, budget: usize, share: f64) -> Budget {
        self.sim.prepare(opponent, budget, share)
    }

    /// Plays one plan of up to `steps` own steps from a copy of `root`: first the
    /// other players' turns until `player` acts, then for each step `i` the action
    /// `choose(i, state, rng)` (none ends the plan) repeated `repeat` times with the
    /// others acting by the opponent model, calling `stepped(state)` after each step.
    /// Stops early when the game ends. Returns the steps played and, unless the budget
    /// ran out (or the simulation could not go on), `end` of the final state.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn play<V>(
        &mut self,
        root: &G,
        player: usize,
        steps: usize,
        repeat: usize,
        budget: &mut Budget,
        rng: &mut Rng,
        mut choose: impl FnMut(usize, &G, &mut Rng) -> Option<G::Action>,
        mut stepped: impl FnMut(&G),
        end: impl FnOnce(&G) -> V,
    ) -> (usize, Option<V>) {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        let mut ok = self.sim.play_others(&mut state, player, budget, rng);
        let mut i = 0;
        while ok && i < steps && !state.is_over() {
            let Some(action) = choose(i, &state, rng) else {
                break;
            };
            ok = self
                .sim
                .step(&mut state, player, &action, repeat, budget, rng);
            i += 1;
            stepped(&state);
        }
        let value = ok.then(|| end(&state));
        self.scratch = Some(state);
        (i, value)
    }

    /// Forgets the scratch state (between games).
    pub(crate) fn reset(&mut self) {
        self.scratch = None;
    }
}

/// The plan a rolling-horizon decision (BMRH, SRH) starts from, in `child`: with
/// `shift`, the rest of the last decision's `best` (its first action was played),
/// at most `len` long; else nothing. The caller completes it.
pub(crate) fn start_from_best<T: Clone>(best: &[T], child: &mut Vec<T>, shift: bool, len: usize) {
    child.clear();
    if shift {
        child.extend(best.iter().skip(1).take(len).cloned());
    }
}

/// A rolling-horizon agent's name: `NAME(len L, E evals, budget B)`.
pub(crate) fn horizon_name(name: &str, len: usize, evaluations: usize, budget: usize) -> String {
    format!("{name}(len {len}, {evaluations} evals, budget {budget})")
}

/// The (1+1) evolutionary loop of BMRH and SRH: evaluates the plan in `child` (told
/// `first`) and makes it the best; then, up to `evaluations - 1` times, `mutate`
/// changes a copy of the best in `child` and tells `evaluate` what it did; a child
/// that scores at least as well as the best replaces it. Stops at the first
/// evaluation that cannot be paid for (`None`). Returns the best plan's value, `None`
/// if even the first could not be evaluated.
pub(crate) fn one_plus_one<T: Clone, M>(
    best: &mut Vec<T>,
    child: &mut Vec<T>,
    evaluations: usize,
    rng: &mut Rng,
    first: M,
    mut mutate: impl FnMut(&mut Vec<T>, &mut Rng) -> M,
    mut evaluate: impl FnMut(&mut Vec<T>, M, &mut Rng) -> Option<f64>,
) -> Option<f64> {
    let mut best_value = evaluate(child, first, rng);
    std::mem::swap(best, child);
    if best_value.is_some() {
        for _ in 1..evaluations {
            child.clone_from(best);
            let told = mutate(child, rng);
            let Some(v) = evaluate(child, told, rng) else {
                break;
            };
            if best_value.is_none_or(|b| v >= b) {
                best_value = Some(v);
                std::mem::swap(best, child);
            }
        }
    }
    best_value
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
    pub(crate) struct Counted<G> {
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
    pub(crate) fn rin_wins(
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

    /// Asserts that `agent` (`name` in messages) wins more than 60% of 20 two-player
    /// Rinascimento games against random play.
    pub(crate) fn beats_random(agent: &mut dyn Agent<RinState>, name: &str) {
        let wins = rin_wins(agent, &mut crate::agents::RandomAgent, 20);
        println!("{name}* vs Random: {wins}/20 wins");
        assert!(wins * 10 > 20 * 6, "{name} won {wins} of 20");
    }

    /// Plays up to `decisions` Rinascimento decisions (every seat by `agent`) and
    /// returns the most forward-model calls one decision made.
    pub(crate) fn max_rin_calls(
        agent: &mut dyn Agent<Counted<RinState>>,
        decisions: usize,
    ) -> usize {
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
    pub(crate) fn rin_actions(
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
    pub(crate) fn rin_decisions_per_second(agent: &mut dyn Agent<RinState>) -> f64 {
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
    use crate::game::{Agent, Game};
    use crate::games::space_battle::{self, SbeParams, SbeState};
    use crate::rng::{derive_seed, rng_from_seed};

    /// The actions `agent` (ship 0) chooses over a 40-tick Space Battle game, `seed`
    /// seeding its generator, while ship 1 plays `other` every tick.
    pub(crate) fn sbe_actions(
        agent: &mut dyn Agent<SbeState>,
        seed: u64,
        other: <SbeState as Game>::Action,
    ) -> Vec<<SbeState as Game>::Action> {
        let mut rng = rng_from_seed(seed);
        let mut s = SbeState::new(SbeParams::default(), 3).with_max_ticks(40);
        let mut seq = Vec::new();
        while !s.is_over() {
            let a = agent.act(&s, 0, &mut rng);
            seq.push(a);
            s.advance(&[a, other]);
        }
        seq
    }

    /// Total score of ship 0 (`a`) and ship 1 (`b`) over four 300-tick games.
    pub(crate) fn sbe_scores(
        a: &mut dyn Agent<SbeState>,
        b: &mut dyn Agent<SbeState>,
    ) -> (f64, f64) {
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

/// Pins every decision of the rolling-horizon agents (BMRH, SRH, the microbial EA)
/// whose act loops share [`Rollouts`](super::Rollouts) and
/// [`one_plus_one`](super::one_plus_one): a hash of every action over Rinascimento
/// games (each opponent model, each mutation point) and Space Battle games. The
/// expected value was computed with the loops as they were before they were shared.
#[cfg(test)]
mod pinned {
    use crate::agents::{
        Bmrh, BmrhConfig, MicrobialConfig, MicrobialEa, MutationPoint, OpponentModel, Srh,
        SrhConfig,
    };
    use crate::game::{Acting, Agent, Game};
    use crate::games::rinascimento::{RinState, Rules};
    use crate::games::space_battle::{self, SbeParams, SbeState};
    use crate::rng::{mix64, rng_from_seed};

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
            let mut observe =
                |_: &SbeState, actions: [_; 2]| absorb(&mut hash, format!("{actions:?}"));
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
}
