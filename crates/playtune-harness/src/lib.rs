//! playtune's games floor: what every game, agent and game-playing problem shares.
//!
//! - [`game`]: the [`Game`] trait a game implements for agents (rules and forward
//!   model) and the [`Agent`] trait agents implement.
//! - [`agents`]: random, OSLA, MCTS, the microbial EA, BMRH, SRH, HPS and opponent
//!   models, generic over [`Game`].
//! - [`learn`]: learned state evaluation without training: encodings, the self-play
//!   sample file, the network file and its forward pass, the network as a leaf
//!   evaluator. Training (candle) is the crate `playtune-train`.
//! - [`harness`]: the one play loop and game record ([`play`]), tournaments
//!   ([`tournament`]), self-play, the skill-depth ladder ([`ladder`]), the agent
//!   registry ([`AgentSpec`], [`all_agents`]), the design metrics ([`metrics`]), the
//!   `design` and `tune-agent` problems ([`design`], [`tune`]), and the [`GameDef`] a
//!   game implements. Its names are re-exported here, `playtune_harness::DynGame`.
//! - [`draw`]: PNG and SVG files with the bundled font, for games' maps and charts.
//!
//! It depends on `playtune-optim` (spaces, problems, random numbers), on plotters only
//! with the `draw` feature, and never on a game: the games are crates above it
//! (`playtune-rinascimento`, ...), and the generic agents are tested on them from the
//! root crate's `tests/agents_on_games/`.

pub mod agents;
pub mod draw;
pub mod game;
pub mod harness;
pub mod learn;

pub use game::{Acting, Agent, Game};
pub use harness::agents::{GenericAgent, all_agents, build_agent, list, mcts_config};
pub use harness::{
    AgentEntry, AgentInfo, AgentSpec, DynGame, Error, GameDef, GameRequest, Generic, PreparedGame,
    Record, SampleSink, Setting, SettingError, TournamentResult, Values, Watch, numbered_names,
    own_settings, split_agents,
};
pub use harness::{design, error, ladder, ladder_check, metrics, play, tournament, tune};
