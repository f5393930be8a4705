//! Information-set MCTS, declared: MCTS's settings, a world re-sampled every iteration.

use super::GenericAgent;
use super::mcts::{Mcts, mcts_config};
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};

/// Information-set MCTS in the registry: its name, settings and how it builds.
pub(crate) struct Ismcts;

impl GenericAgent for Ismcts {
    const NAME: &'static str = "ismcts";
    const ABOUT: &'static str = "information-set MCTS: open-loop MCTS, each iteration in a world re-sampled from what the player has seen";

    fn settings() -> Vec<Setting> {
        Mcts::settings()
    }

    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        Ok(Box::new(crate::agents::Mcts::<G>::information_set(
            mcts_config(v)?,
        )))
    }
}
