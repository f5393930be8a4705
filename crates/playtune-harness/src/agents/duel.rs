//! A toy two-player duel for the portfolio agents' tests: small enough to reason
//! about, with several actions per turn like the strategy game.

use crate::agents::RandomAgent;
use crate::agents::portfolio::{PhasePlayers, Portfolio, Suggestion};
use crate::game::{Acting, Agent, Game};
use playtune_optim::rng::Rng;
use playtune_optim::rng::rng_from_seed;
use rand::RngExt;

/// A toy duel: on its turn a player may build (army + 1, at most twice), strike
/// once (the opponent loses hit points equal to the striker's army), then end the
/// turn. First to 0 hit points loses; 12 turns each at most.
#[derive(Clone, Debug)]
pub(crate) struct Duel {
    pub hp: [i32; 2],
    pub army: [i32; 2],
    pub built: i32,
    pub struck: bool,
    pub mover: usize,
    pub turns: u32,
    pub steps: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Move {
    Build,
    Strike,
    End,
}

impl Duel {
    pub(crate) fn new() -> Self {
        Duel {
            hp: [20, 20],
            army: [0, 0],
            built: 0,
            struck: false,
            mover: 0,
            turns: 0,
            steps: 0,
        }
    }
}

impl Game for Duel {
    type Action = Move;
    fn num_players(&self) -> usize {
        2
    }
    fn acting(&self) -> Acting {
        Acting::Player(self.mover)
    }
    fn is_over(&self) -> bool {
        self.hp.iter().any(|&h| h <= 0) || self.turns >= 24
    }
    fn step_count(&self) -> u32 {
        self.steps
    }
    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<Move> {
        let mut all = Vec::new();
        self.legal_actions(player, &mut all);
        Some(all[rng.random_range(0..all.len())])
    }
    fn legal_actions(&self, _: usize, out: &mut Vec<Move>) -> bool {
        out.clear();
        if self.built < 2 {
            out.push(Move::Build);
        }
        if !self.struck {
            out.push(Move::Strike);
        }
        out.push(Move::End);
        true
    }
    fn advance(&mut self, actions: &[Move]) {
        let p = self.mover;
        self.steps += 1;
        match actions[0] {
            Move::Build => {
                self.army[p] += 1;
                self.built += 1;
            }
            Move::Strike => {
                self.hp[1 - p] -= self.army[p];
                self.struck = true;
            }
            Move::End => {
                self.mover = 1 - p;
                self.built = 0;
                self.struck = false;
                self.turns += 1;
            }
        }
    }
    fn score(&self, player: usize) -> f64 {
        f64::from(self.hp[player] - self.hp[1 - player])
    }
    fn winners(&self) -> Vec<bool> {
        let s = self.score(0);
        vec![s >= 0.0, s <= 0.0]
    }
}

/// Phases: build (none, one, two) then strike (hold, strike).
pub(crate) struct DuelPlayers;

impl PhasePlayers<Duel> for DuelPlayers {
    fn phases(&self) -> &[(&'static str, &'static [&'static str])] {
        &[
            ("build", &["none", "one", "two"]),
            ("strike", &["hold", "strike"]),
        ]
    }
    fn next_action(
        &self,
        s: &Duel,
        _: usize,
        phase: usize,
        option: usize,
        _: &mut Rng,
    ) -> Option<Move> {
        match phase {
            0 if s.built < option as i32 => Some(Move::Build),
            1 if option == 1 && !s.struck => Some(Move::Strike),
            _ => None,
        }
    }
    fn end_turn(&self, _: &Duel, _: usize) -> Move {
        Move::End
    }
    fn heuristic(&self, s: &Duel, p: usize) -> f64 {
        f64::from(s.hp[p] - s.hp[1 - p])
    }
}

/// Scripts: build, strike, end the turn (values: build 0.5, strike by damage, end 0.1).
pub(crate) struct DuelPortfolio;

impl Portfolio<Duel> for DuelPortfolio {
    fn scripts(&self) -> &[&'static str] {
        &["build", "strike", "end"]
    }
    fn suggest(&self, s: &Duel, p: usize, out: &mut Vec<Suggestion<Move>>) {
        if s.built < 2 {
            out.push(Suggestion {
                action: Move::Build,
                script: 0,
                value: 0.5,
            });
        }
        if !s.struck {
            let value = (f64::from(s.army[p]) / 4.0).min(1.0);
            out.push(Suggestion {
                action: Move::Strike,
                script: 1,
                value,
            });
        }
        out.push(Suggestion {
            action: Move::End,
            script: 2,
            value: 0.1,
        });
    }
}

/// A stand-in for a learned evaluator: the hit-point margin squashed into (-1, 1), or
/// its opposite when `wrong` (an evaluator that misleads), counting its calls.
pub(crate) struct DuelEvaluator {
    pub wrong: bool,
    pub calls: std::sync::atomic::AtomicUsize,
}

impl DuelEvaluator {
    pub(crate) fn new(wrong: bool) -> Self {
        DuelEvaluator {
            wrong,
            calls: std::sync::atomic::AtomicUsize::new(0),
        }
    }
}

impl crate::agents::StateEvaluator<Duel> for DuelEvaluator {
    fn evaluate(&self, s: &Duel, p: usize) -> f64 {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let v = (f64::from(s.hp[p] - s.hp[1 - p]) / 10.0).tanh();
        if self.wrong { -v } else { v }
    }
    fn label(&self) -> String {
        "duel-margin".into()
    }
}

/// Games `agent` wins out of `games` against a random player, seats alternating.
pub(crate) fn wins_against_random(agent: &mut dyn Agent<Duel>, games: u64) -> usize {
    let mut wins = 0;
    for seed in 0..games {
        let mut s = Duel::new();
        let mut rng = rng_from_seed(seed);
        agent.reset();
        let seat = (seed % 2) as usize;
        while !s.is_over() {
            let p = s.mover;
            let a = if p == seat {
                agent.act(&s, p, &mut rng)
            } else {
                RandomAgent.act(&s, p, &mut rng)
            };
            s.advance(&[a]);
        }
        if s.winners()[seat] && !s.winners()[1 - seat] {
            wins += 1;
        }
    }
    wins
}
