//! The forward model from Rust: a small game written to the `Rules` trait, played by
//! every bot, then the same game failing each operation a search bot's view needs.
//! A match with a failing operation fails naming it; no bot panics (issue 72, item 1).

use playtune_external::forward::{
    Expanded, Expansion, ForwardError, Lineup, Node, Rules, RulesError, Setup, expand_each, play,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Nim with a hidden card: a pile of 7, each move takes 1 or 2, who takes the last
/// wins. Seat 0 is first dealt a card (0 or 1, a chance node) that seat 1 cannot see,
/// which changes nothing: it makes the game one that hides information, so search
/// bots resample.
#[derive(Clone, Debug)]
struct Pile {
    left: i64,
    to_move: usize,
    card: i64,
}

/// What goes wrong, and after how many calls of its operation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    None,
    /// `copy` answers an error.
    CopyErrors,
    /// `resample` answers an error.
    ResampleErrors,
    /// `resample` gives a finished game.
    ResampleFinished,
    /// `resample` gives the other seat's turn.
    ResampleOtherSeat,
    /// `resample` gives the seat's turn with no move.
    ResampleNoMove,
    /// The deal's probabilities are all 0.
    ChanceZero,
    /// The deal's probabilities sum past the largest number.
    ChanceOverflow,
    /// `copy` answers an error once, then copies again.
    CopyErrorsOnce,
    /// `heuristic` answers an error.
    HeuristicErrors,
}

struct Nim {
    fault: Fault,
    /// Calls of the faulty operation before it fails.
    after: u64,
    calls: AtomicU64,
    /// Calls of any operation after the first that failed.
    after_failure: AtomicU64,
    failed: std::sync::atomic::AtomicBool,
}

impl Nim {
    fn new(fault: Fault, after: u64) -> Nim {
        Nim {
            fault,
            after,
            calls: AtomicU64::new(0),
            after_failure: AtomicU64::new(0),
            failed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn node_of(&self, s: &Pile) -> Node {
        if s.card < 0 {
            let p = match self.fault {
                Fault::ChanceZero => 0.0,
                Fault::ChanceOverflow => f64::MAX,
                _ => 0.5,
            };
            return Node::Chance(vec![(0, p), (1, p)]);
        }
        if s.left == 0 {
            // The seat that took the last stone moved before `to_move`.
            let winner = 1 - s.to_move;
            let mut r = vec![0.0, 0.0];
            r[winner] = 1.0;
            return Node::Over(r);
        }
        Node::Player {
            player: s.to_move,
            legal: (1..=s.left.min(2)).collect(),
        }
    }

    /// Whether the faulty operation `f` fails on this call.
    fn fails(&self, f: Fault) -> bool {
        self.count();
        if self.fault != f || self.calls.fetch_add(1, Ordering::SeqCst) < self.after {
            return false;
        }
        if f == Fault::CopyErrorsOnce && self.failed.load(Ordering::SeqCst) {
            return false;
        }
        self.failed.store(true, Ordering::SeqCst);
        true
    }

    /// Counts a call made after the fault struck.
    fn count(&self) {
        if self.failed.load(Ordering::SeqCst) {
            self.after_failure.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl Rules for Nim {
    type State = Pile;

    fn players(&self) -> usize {
        2
    }

    fn node(&self, s: &Pile) -> Result<Node, RulesError> {
        Ok(self.node_of(s))
    }

    fn copy(&self, s: &Pile) -> Result<Pile, RulesError> {
        if self.fails(Fault::CopyErrors) || self.fails(Fault::CopyErrorsOnce) {
            return Err(RulesError::Game(
                "clone: the game raised ValueError('no copy')".into(),
            ));
        }
        Ok(s.clone())
    }

    fn heuristic(&self, s: &Pile, player: usize) -> Result<Option<f64>, RulesError> {
        if self.fails(Fault::HeuristicErrors) {
            return Err(RulesError::Answer(
                "heuristic_value() returned nan: give a finite number".into(),
            ));
        }
        // Stones left on one's own turn: a poor guess, but a number.
        Ok(Some(if s.to_move == player { 0.5 } else { -0.5 }))
    }

    fn features(&self, s: &Pile) -> Result<Vec<(String, Vec<f64>)>, RulesError> {
        match self.node_of(s) {
            Node::Over(r) => Ok(vec![("took_last".into(), r)]),
            _ => Ok(Vec::new()),
        }
    }

    fn show(&self, s: &Pile) -> Result<Option<String>, RulesError> {
        Ok(Some(format!("{} stones, card {}", s.left, s.card)))
    }

    fn apply(&self, s: &mut Pile, action: i64) -> Result<Node, RulesError> {
        self.count();
        if s.card < 0 {
            s.card = action;
            return Ok(self.node_of(s));
        }
        if !(1..=s.left.min(2)).contains(&action) {
            return Err(RulesError::Game(format!(
                "apply: {action} is not a legal move"
            )));
        }
        s.left -= action;
        s.to_move = 1 - s.to_move;
        Ok(self.node_of(s))
    }

    fn resample(&self, s: &Pile, player: usize, seed: u64) -> Result<(Pile, Node), RulesError> {
        self.count();
        let mut world = s.clone();
        if player != 0 && world.card >= 0 {
            world.card = (seed % 2) as i64;
        }
        let faulty = [
            Fault::ResampleErrors,
            Fault::ResampleFinished,
            Fault::ResampleOtherSeat,
            Fault::ResampleNoMove,
        ];
        if faulty.contains(&self.fault) && self.fails(self.fault) {
            return match self.fault {
                Fault::ResampleErrors => Err(RulesError::Game(
                    "resample: the game raised KeyError".into(),
                )),
                Fault::ResampleFinished => {
                    world.left = 0;
                    let node = self.node_of(&world);
                    Ok((world, node))
                }
                Fault::ResampleOtherSeat => {
                    world.to_move = 1 - world.to_move;
                    let node = self.node_of(&world);
                    Ok((world, node))
                }
                _ => Ok((
                    world,
                    Node::Player {
                        player,
                        legal: Vec::new(),
                    },
                )),
            };
        }
        let node = self.node_of(&world);
        Ok((world, node))
    }
}

const BOTS: [&str; 9] = [
    "random",
    "osla",
    "mcts(iterations=30)",
    "ismcts(iterations=30)",
    "bmrh",
    "srh",
    "microbial",
    "uct(iterations=30)",
    "uct(iterations=30,batch=8)",
];

fn setup() -> Setup {
    Setup {
        players: 2,
        hidden: true,
        searchable: true,
        max_steps: 100,
        features: vec!["took_last".into()],
    }
}

fn one_match(
    rules: Nim,
    bot: &str,
    seed: u64,
) -> Result<playtune_external::MatchReport, ForwardError> {
    let start = Pile {
        left: 7,
        to_move: 0,
        card: -1,
    };
    let node = rules.node_of(&start);
    let seats =
        playtune_harness::AgentSpec::parse_all(&[bot.to_string(), "random".to_string()]).unwrap();
    play(
        "nim",
        Arc::new(rules),
        (start, node),
        &setup(),
        &Lineup {
            seats: &seats,
            seed,
            show: false,
        },
    )
}

/// Every bot plays the game to its end, and the winner took the last stone.
#[test]
fn every_bot_plays_a_game_written_in_rust() {
    for bot in BOTS {
        for seed in 0..3 {
            let r = one_match(Nim::new(Fault::None, 0), bot, seed)
                .unwrap_or_else(|e| panic!("{bot}: {e}"));
            assert!(r.by_rules, "{bot}");
            assert_eq!(r.winners.len(), 1, "{bot}: {r:?}");
            assert!((4..=7).contains(&r.length), "{bot}: {r:?}");
        }
    }
}

/// Each operation a search bot's view needs, failing: the match fails naming it, for
/// every bot that searches; none panics.
#[test]
fn a_failing_view_fails_the_match_and_never_panics_a_bot() {
    let faults = [
        (Fault::CopyErrors, "clone: the game raised ValueError"),
        (Fault::ResampleErrors, "resample: the game raised KeyError"),
        (Fault::ResampleFinished, "resample gave a finished game"),
        (
            Fault::ResampleOtherSeat,
            "resample gave seat 1 to move, where seat 0 moves",
        ),
        (
            Fault::ResampleNoMove,
            "resample gave no legal move for seat 0",
        ),
    ];
    for (fault, reason) in faults {
        for bot in &BOTS[1..] {
            // The fault from its first call, and from its second (a later decision).
            for after in [0, 1] {
                let result = std::panic::catch_unwind(|| one_match(Nim::new(fault, after), bot, 1));
                let result = result.unwrap_or_else(|_| panic!("{bot} panicked on {fault:?}"));
                let e = result
                    .expect_err(&format!("{bot} on {fault:?} after {after}: no error"))
                    .to_string();
                assert!(e.contains(reason), "{bot} on {fault:?}: {e}");
            }
        }
    }
}

/// A chance node that cannot be sampled (every probability 0, or a sum past the
/// largest number) fails the match naming it: it was once played as its last outcome.
#[test]
fn chance_that_cannot_be_sampled_is_refused() {
    for fault in [Fault::ChanceZero, Fault::ChanceOverflow] {
        let e = one_match(Nim::new(fault, 0), "random", 1)
            .expect_err(&format!("{fault:?}: no error"))
            .to_string();
        assert!(
            e.contains("a chance node whose probabilities sum to"),
            "{fault:?}: {e}"
        );
    }
}

/// Once a call to the rules has failed, the match asks the rules nothing more: a game
/// past its timeout, or stopped, is not searched on to the end of the match (issue 72,
/// item 3: a match whose timeout struck went on for 40 s). The fault here answers
/// once, then the game would answer again.
#[test]
fn after_a_failure_no_call_reaches_the_rules() {
    for bot in &BOTS[1..] {
        let nim = Arc::new(Nim::new(Fault::CopyErrorsOnce, 3));
        let start = Pile {
            left: 7,
            to_move: 0,
            card: -1,
        };
        let node = nim.node_of(&start);
        let seats =
            playtune_harness::AgentSpec::parse_all(&[bot.to_string(), bot.to_string()]).unwrap();
        let e = play(
            "nim",
            nim.clone(),
            (start, node),
            &setup(),
            &Lineup {
                seats: &seats,
                seed: 5,
                show: false,
            },
        )
        .expect_err(bot)
        .to_string();
        assert!(e.contains("clone: the game raised"), "{bot}: {e}");
        assert_eq!(
            nim.after_failure.load(Ordering::SeqCst),
            0,
            "{bot}: calls to the rules after the failure"
        );
    }
}

/// A heuristic that fails (raises, or gives no finite number) fails the match naming
/// it, for every bot that reads it: it was once taken silently as "no heuristic"
/// (issue 72, item 8).
#[test]
fn a_failing_heuristic_fails_the_match() {
    for bot in [
        "osla",
        "bmrh",
        "srh",
        "microbial",
        "mcts(iterations=30,depth=2)",
    ] {
        let e = one_match(Nim::new(Fault::HeuristicErrors, 0), bot, 1)
            .expect_err(&format!("{bot}: no error"))
            .to_string();
        assert!(e.contains("heuristic_value() returned nan"), "{bot}: {e}");
    }
}

/// Issue 73, items 3 to 5: a forward-model match reports a trace (each seat's score
/// before every move and at the end: the heuristic, then the returns), the game's own
/// features of the final state, and, asked, each state and move in the game's text.
#[test]
fn a_match_reports_its_trace_its_features_and_its_frames() {
    let start = Pile {
        left: 7,
        to_move: 0,
        card: -1,
    };
    let rules = Nim::new(Fault::None, 0);
    let node = rules.node_of(&start);
    let seats = playtune_harness::AgentSpec::parse_all(&[
        "mcts(iterations=30)".to_string(),
        "random".to_string(),
    ])
    .unwrap();
    let lineup = |show| Lineup {
        seats: &seats,
        seed: 3,
        show,
    };
    let rules = Arc::new(rules);
    let r = play(
        "nim",
        rules.clone(),
        (start.clone(), node.clone()),
        &setup(),
        &lineup(true),
    )
    .unwrap();
    let trace = r.trace.as_ref().expect("a trace");
    assert_eq!(trace.len(), r.length as usize + 1, "{trace:?}");
    assert_eq!(
        trace[0],
        vec![0.5, -0.5],
        "seat 0 moves first: the heuristic"
    );
    assert_eq!(trace.last().unwrap(), &r.scores);
    let winner = r.winners[0];
    let mut took = vec![0.0, 0.0];
    took[winner] = 1.0;
    assert_eq!(r.features, vec![("took_last".to_string(), took)]);
    assert_eq!(r.frames.len(), r.length as usize + 1, "{:#?}", r.frames);
    assert!(
        r.frames[0].starts_with("move 1: seat 0 to move\n7 stones, card "),
        "{}",
        r.frames[0]
    );
    // The move shown is the one played: the next frame's pile is that much smaller.
    let left: i64 = r.frames[1]
        .lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        r.frames[0].ends_with(&format!("seat 0 plays {}", 7 - left)),
        "{:#?}",
        r.frames
    );
    assert!(
        r.frames.last().unwrap().starts_with("the end, after"),
        "{:#?}",
        r.frames
    );
    // Not asked, no frames, and the same match.
    let quiet = play(
        "nim",
        rules.clone(),
        (start.clone(), node.clone()),
        &setup(),
        &lineup(false),
    )
    .unwrap();
    assert!(quiet.frames.is_empty());
    assert_eq!((quiet.scores, quiet.length), (r.scores.clone(), r.length));
    // A feature the game does not declare fails the match, naming it.
    let undeclared = Setup {
        features: Vec::new(),
        ..setup()
    };
    let e = play("nim", rules, (start, node), &undeclared, &lineup(false))
        .unwrap_err()
        .to_string();
    assert!(e.contains("`took_last`, which it does not declare"), "{e}");
}

/// `uct` (issue 73, item 1) searches every seat's moves: from a pile of 7 taking 1 or
/// 2, the first seat wins with perfect play (leave a multiple of 3). Over 20 seeds,
/// `uct(iterations=100)` in seat 0 wins every match against `random` and at least 18
/// against itself, batched or not; a search that backed values up from the wrong
/// seat's side, or let the opponent play for it, loses most of them.
#[test]
fn uct_plays_nim_perfectly_from_the_winning_seat() {
    for spec in ["uct(iterations=100)", "uct(iterations=100,batch=8)"] {
        for opponent in ["random", spec] {
            let mut won = 0;
            for seed in 0..20 {
                let start = Pile {
                    left: 7,
                    to_move: 0,
                    card: -1,
                };
                let rules = Nim::new(Fault::None, 0);
                let node = rules.node_of(&start);
                let seats = playtune_harness::AgentSpec::parse_all(&[
                    spec.to_string(),
                    opponent.to_string(),
                ])
                .unwrap();
                let setup = Setup {
                    hidden: false,
                    ..setup()
                };
                let r = play(
                    "nim",
                    Arc::new(rules),
                    (start, node),
                    &setup,
                    &Lineup {
                        seats: &seats,
                        seed,
                        show: false,
                    },
                )
                .unwrap();
                won += usize::from(r.winners == [0]);
            }
            let least = if opponent == "random" { 20 } else { 18 };
            assert!(won >= least, "{spec} against {opponent}: {won} of 20");
        }
    }
}

/// The same Nim as a place that answers a batch of expansions itself, as a game
/// process does: it counts its batches and makes each with `expand_each`.
struct Batched {
    nim: Nim,
    batches: AtomicU64,
}

impl Rules for Batched {
    type State = Pile;

    fn players(&self) -> usize {
        self.nim.players()
    }
    fn node(&self, s: &Pile) -> Result<Node, RulesError> {
        self.nim.node(s)
    }
    fn copy(&self, s: &Pile) -> Result<Pile, RulesError> {
        self.nim.copy(s)
    }
    fn apply(&self, s: &mut Pile, action: i64) -> Result<Node, RulesError> {
        self.nim.apply(s, action)
    }
    fn resample(&self, s: &Pile, player: usize, seed: u64) -> Result<(Pile, Node), RulesError> {
        self.nim.resample(s, player, seed)
    }
    fn heuristic(&self, s: &Pile, player: usize) -> Result<Option<f64>, RulesError> {
        self.nim.heuristic(s, player)
    }
    fn remote(&self) -> bool {
        true
    }
    fn expand(&self, batch: &[Expansion<'_, Pile>]) -> Result<Vec<Expanded<Pile>>, RulesError> {
        self.batches.fetch_add(1, Ordering::SeqCst);
        expand_each(self, batch)
    }
}

/// `uct` asks a place whose states live elsewhere (`remote`) for its expansions in
/// batches of 32 by default, through `Rules::expand`, and plays the same matches as
/// `uct(batch=32)` on the plain rules.
#[test]
fn uct_batches_where_the_rules_are_remote_and_plays_the_same_matches() {
    for seed in 0..5 {
        let start = Pile {
            left: 7,
            to_move: 0,
            card: -1,
        };
        let node = Nim::new(Fault::None, 0).node_of(&start);
        let setup = Setup {
            hidden: false,
            ..setup()
        };
        let mut reports = Vec::new();
        let batched = Arc::new(Batched {
            nim: Nim::new(Fault::None, 0),
            batches: AtomicU64::new(0),
        });
        for (rules, spec) in [
            (None, "uct(iterations=64,batch=32)"),
            (Some(&batched), "uct(iterations=64)"),
        ] {
            let seats =
                playtune_harness::AgentSpec::parse_all(&[spec.to_string(), "random".to_string()])
                    .unwrap();
            let lineup = Lineup {
                seats: &seats,
                seed,
                show: false,
            };
            let r = match rules {
                None => play(
                    "nim",
                    Arc::new(Nim::new(Fault::None, 0)),
                    (start.clone(), node.clone()),
                    &setup,
                    &lineup,
                ),
                Some(b) => play(
                    "nim",
                    b.clone(),
                    (start.clone(), node.clone()),
                    &setup,
                    &lineup,
                ),
            }
            .unwrap();
            reports.push((r.scores, r.length, r.trace));
        }
        assert_eq!(reports[0], reports[1], "seed {seed}");
        // Seat 0 decides at most 4 times: 64 iterations a decision in 2 batches or more.
        let batches = batched.batches.load(Ordering::SeqCst);
        assert!(
            (2..=40).contains(&batches),
            "seed {seed}: {batches} batches"
        );
    }
}
