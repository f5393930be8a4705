//! Helpers shared by the rolling-horizon agents: a forward-model budget, and (for tests)
//! a game wrapper that counts forward-model calls.

use crate::game::Game;

/// Forward-model calls ([`Game::advance`]) still allowed in one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    left: usize,
}

impl Budget {
    pub fn new(calls: usize) -> Self {
        Budget { left: calls }
    }

    /// Calls still allowed.
    pub fn left(&self) -> usize {
        self.left
    }

    /// Applies `actions` to `state` if a call is left (and spends it); returns false,
    /// leaving `state` untouched, if the budget is spent.
    pub fn advance<G: Game>(&mut self, state: &mut G, actions: &[G::Action]) -> bool {
        if self.left == 0 {
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
        fn winners(&self) -> Vec<bool> {
            self.inner.winners()
        }
    }
}
