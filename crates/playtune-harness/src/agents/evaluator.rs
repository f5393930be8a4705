//! State evaluators that a search agent may call at its leaves in place of a
//! heuristic or a playout: a learned value network ([`crate::learn`]) is one.

/// Values a state for a player without playing it out.
pub trait StateEvaluator<G>: Send + Sync {
    /// How good `state` is for `player`, from -1 (a sure loss) to 1 (a sure win).
    fn evaluate(&self, state: &G, player: usize) -> f64;

    /// A short name for agent names and tables ("learned:strategy-counts-v1").
    fn label(&self) -> String;
}

/// A shared evaluator that agents deriving `Debug` can hold.
pub(crate) struct SharedEvaluator<G>(pub std::sync::Arc<dyn StateEvaluator<G>>);

impl<G> Clone for SharedEvaluator<G> {
    fn clone(&self) -> Self {
        SharedEvaluator(self.0.clone())
    }
}

impl<G> std::fmt::Debug for SharedEvaluator<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedEvaluator({})", self.0.label())
    }
}
