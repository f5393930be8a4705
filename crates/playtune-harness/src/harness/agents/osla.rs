//! One-step look-ahead, declared.

use super::GenericAgent;
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};

/// OSLA in the registry: its name, settings and how it builds.
pub(crate) struct Osla;

impl GenericAgent for Osla {
    const NAME: &'static str = "osla";
    const ABOUT: &'static str =
        "one-step look-ahead: tries up to `budget` own actions for one step";

    fn settings() -> Vec<Setting> {
        vec![Setting::new(
            "budget",
            "1000",
            "own actions tried per decision",
        )]
    }

    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        // OSLA without enumerated actions samples `budget` of them: `max` would never
        // end.
        Ok(Box::new(crate::agents::Osla::<G>::new(
            v.count("budget").map_err(|e| {
                Error::from(e).note("osla's budget counts actions tried; max would never end in a game that does not list its actions")
            })?,
        )))
    }
}
