//! The uniformly random agent, declared.

use super::GenericAgent;
use crate::agents::RandomAgent;
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};

/// The random agent in the registry: its name, settings and how it builds.
pub(crate) struct Random;

impl GenericAgent for Random {
    const NAME: &'static str = "random";
    const ABOUT: &'static str = "a uniformly random legal action";

    fn settings() -> Vec<Setting> {
        Vec::new()
    }

    fn build<G: Game + 'static>(_: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        Ok(Box::new(RandomAgent))
    }
}
