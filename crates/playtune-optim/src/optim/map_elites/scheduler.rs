//! The scheduler: runs emitters over one archive and is the [`Optimizer`].

use super::archive::{AddOutcome, AddStatus, AnyArchive, Archive, CvtArchive, GridArchive};
use super::archive::{Better, Metrics, Replay};
use super::emitters::Emitter;
use super::{ArchiveConfig, MAX_CELLS, MapElitesConfig, check_axis};
use crate::eval::{Evaluation, FeatureAxis};
use crate::optim::{Candidate, Optimizer, Phase, Recommendation};
use crate::rng::{item_rng, rng_from_seed};
use crate::space::{Space, random_point};
use crate::stats::Summary;
use serde::{Deserialize, Serialize};

/// What one emitter's candidates did to the archive.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct EmitterStats {
    pub name: String,
    /// Candidates it proposed and the archive was told about.
    pub told: u64,
    pub new: u64,
    pub improved: u64,
    /// Sum of the improvements of its New and Improved candidates: its share of the
    /// QD score.
    pub gain: f64,
}

/// MAP-Elites' loop: batch b goes to emitter b mod E (round-robin), so each batch is
/// one emitter's and is evaluated in parallel; the initial points fill the first
/// batches. Batch b's randomness is the generator of work item (seed, b, emitter).
pub struct Scheduler {
    config: MapElitesConfig,
    space: Space,
    seed: u64,
    archive: AnyArchive,
    emitters: Vec<Box<dyn Emitter>>,
    stats: Vec<EmitterStats>,
    /// Batches asked so far.
    batches: u64,
    /// The emitter of the batch in flight and how many initial points precede its
    /// candidates there.
    pending: Option<(usize, usize)>,
    remaining: u64,
    evaluations: u64,
    init: Vec<Vec<f64>>,
    history: Vec<Metrics>,
    replaying: bool,
    replay_done: bool,
    /// Scratch for emitters' candidates and outcomes, kept to save allocations.
    proposed: Vec<Vec<f64>>,
    outcomes: Vec<AddOutcome>,
}

impl Scheduler {
    /// MAP-Elites over `space` with `budget` evaluations, seeded by `seed`. The axes are
    /// the configuration's, or with none `default_axes`; each must name one of the
    /// problem's `features`.
    pub fn new(
        config: MapElitesConfig,
        space: Space,
        budget: u64,
        seed: u64,
        features: &[String],
        default_axes: &[FeatureAxis],
    ) -> Result<Scheduler, crate::optim::Error> {
        config.check()?;
        let axes = if config.axes.is_empty() {
            default_axes.to_vec()
        } else {
            config.axes.clone()
        };
        if axes.is_empty() {
            return Err(crate::optim::Error::NoAxes);
        }
        let mut axis_features = Vec::new();
        for a in &axes {
            let f = features.iter().position(|n| *n == a.name).ok_or_else(|| {
                crate::optim::Error::AxisNotAFeature {
                    axis: a.name.clone(),
                    known: features.join(", "),
                }
            })?;
            check_axis(a)?;
            axis_features.push(f);
        }
        let secondary = match &config.better {
            Better::Greater => None,
            Better::Lexicographic { secondary } => Some(
                features
                    .iter()
                    .position(|n| n == secondary)
                    .ok_or_else(|| crate::optim::Error::SecondaryNotAFeature(secondary.clone()))?,
            ),
        };
        let emitters = config
            .emitters()
            .map(|m| m.emitter(&space))
            .collect::<Result<Vec<_>, _>>()?;
        let archive = match config.archive {
            ArchiveConfig::Grid => {
                let cells = axes.iter().try_fold(1usize, |n, a| {
                    n.checked_mul(a.bins + if config.overflow_bins { 2 } else { 0 })
                });
                if cells.is_none_or(|n| n > MAX_CELLS) {
                    return Err(crate::optim::Error::ArchiveTooLarge(MAX_CELLS));
                }
                AnyArchive::Grid(GridArchive::new(
                    axes,
                    axis_features,
                    config.overflow_bins,
                    config.better.clone(),
                    secondary,
                    config.qd_offset,
                ))
            }
            ArchiveConfig::Cvt {
                centroids,
                samples,
                seed,
            } => AnyArchive::Cvt(CvtArchive::new(
                axes,
                axis_features,
                centroids,
                samples,
                seed,
                config.better.clone(),
                secondary,
                config.qd_offset,
            )),
        };
        let mut rng = rng_from_seed(seed);
        let mut init = Vec::new();
        if config.init_one_hot {
            for &d in &space.free_dims() {
                let mut p: Vec<u32> = space
                    .dims
                    .iter()
                    .map(|x| if x.fixed { x.default as u32 } else { 0 })
                    .collect();
                p[d] = space.dims[d].arity() as u32 - 1;
                init.push(space.decode(&p));
            }
        }
        // No more than the budget can evaluate.
        for _ in 0..(config.init_random as u64).min(budget) {
            init.push(space.decode(&random_point(&space, &mut rng)));
        }
        init.reverse(); // asked by popping
        Ok(Scheduler {
            stats: emitters
                .iter()
                .map(|e| EmitterStats {
                    name: e.name().into(),
                    ..Default::default()
                })
                .collect(),
            emitters,
            space,
            seed,
            archive,
            batches: 0,
            pending: None,
            remaining: budget,
            evaluations: 0,
            init,
            history: Vec::new(),
            config,
            replaying: false,
            replay_done: false,
            proposed: Vec::new(),
            outcomes: Vec::new(),
        })
    }

    fn ask_reevaluations(&mut self) -> Vec<Candidate> {
        if self.config.reevaluate == 0 || self.replay_done || self.archive.elites().is_empty() {
            return Vec::new();
        }
        self.replaying = true;
        let r = self.config.reevaluate as usize;
        self.archive
            .elites()
            .iter()
            .flat_map(|e| {
                std::iter::repeat_n(
                    Candidate {
                        values: e.values.clone(),
                        phase: Phase::Reevaluate,
                        common: None,
                    },
                    r,
                )
            })
            .collect()
    }

    fn tell_reevaluations(&mut self, results: &[Option<Evaluation>]) {
        let r = self.config.reevaluate as usize;
        for (e, chunk) in self.archive.elites_mut().iter_mut().zip(results.chunks(r)) {
            // Replays that failed are left out; an elite none of whose replays
            // succeeded keeps no replay.
            let chunk: Vec<&Evaluation> = chunk.iter().flatten().collect();
            if chunk.is_empty() {
                continue;
            }
            let fitness = Summary::of(&chunk.iter().map(|x| x.fitness).collect::<Vec<_>>());
            let features = (0..e.features.len())
                .map(|f| Summary::of(&chunk.iter().map(|x| x.features[f]).collect::<Vec<_>>()))
                .collect();
            e.replay = Some(Replay { fitness, features });
        }
        self.replaying = false;
        self.replay_done = true;
    }
}

impl Optimizer for Scheduler {
    fn ask(&mut self) -> Vec<Candidate> {
        if self.remaining == 0 {
            return self.ask_reevaluations();
        }
        let n = (self.config.batch.max(1) as u64).min(self.remaining) as usize;
        self.remaining -= n as u64;
        let mut batch = Vec::with_capacity(n);
        while batch.len() < n {
            match self.init.pop() {
                Some(values) => batch.push(Candidate {
                    values,
                    phase: Phase::Search,
                    common: None,
                }),
                None => break,
            }
        }
        let from_init = batch.len();
        let e = (self.batches % self.emitters.len() as u64) as usize;
        let mut rng = item_rng(self.seed, &[self.batches, e as u64]);
        self.batches += 1;
        self.proposed.clear();
        self.emitters[e].ask(&self.archive, n - from_init, &mut rng, &mut self.proposed);
        batch.extend(self.proposed.drain(..).map(|values| Candidate {
            values,
            phase: Phase::Search,
            common: None,
        }));
        self.pending = Some((e, from_init));
        batch
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        if self.replaying {
            return self.tell_reevaluations(results);
        }
        self.outcomes.clear();
        for (c, r) in asked.iter().zip(results) {
            // A failed evaluation is not inserted; its emitter hears "not added".
            let o = match r {
                Some(r) => self
                    .archive
                    .add(&c.values, r.fitness, &r.features, self.evaluations),
                None => AddOutcome {
                    status: AddStatus::NotAdded,
                    improvement: 0.0,
                },
            };
            self.outcomes.push(o);
            self.evaluations += 1;
        }
        if let Some((e, from_init)) = self.pending.take() {
            let outcomes = &self.outcomes[from_init.min(self.outcomes.len())..];
            let s = &mut self.stats[e];
            for o in outcomes {
                s.told += 1;
                match o.status {
                    AddStatus::New => s.new += 1,
                    AddStatus::Improved => s.improved += 1,
                    AddStatus::NotAdded => continue,
                }
                s.gain += o.improvement;
            }
            self.emitters[e].tell(&asked[from_init.min(asked.len())..], outcomes);
        }
        self.history.push(self.archive.metrics(self.evaluations));
    }

    fn recommend(&self) -> Recommendation {
        Recommendation::evaluated(
            self.archive
                .best()
                .map(|e| (e.values.as_slice(), e.fitness)),
            &self.space,
        )
    }

    fn archive(&self) -> Option<&AnyArchive> {
        Some(&self.archive)
    }

    fn metrics_history(&self) -> &[Metrics] {
        &self.history
    }
}
