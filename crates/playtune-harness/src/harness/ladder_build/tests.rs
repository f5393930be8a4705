use super::*;
use crate::game::{Acting, Game};
use crate::harness::{GameDef, Values};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// Tic-tac-toe: strength grows with search (a one-step look-ahead takes a win in
/// one; a tree search also blocks and forks).
#[derive(Clone, Debug)]
struct Board {
    cells: [u8; 9],
    mover: usize,
    steps: u32,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Board {
    fn winner(&self) -> Option<usize> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| usize::from(c - 1))
        })
    }
}

impl Game for Board {
    type Action = u8;
    fn num_players(&self) -> usize {
        2
    }
    fn acting(&self) -> Acting {
        Acting::Player(self.mover)
    }
    fn is_over(&self) -> bool {
        self.winner().is_some() || self.cells.iter().all(|&c| c != 0)
    }
    fn step_count(&self) -> u32 {
        self.steps
    }
    fn random_action(&self, _: usize, rng: &mut Rng) -> Option<u8> {
        let empty: Vec<u8> = (0..9).filter(|&i| self.cells[i as usize] == 0).collect();
        (!empty.is_empty()).then(|| empty[rng.random_range(0..empty.len())])
    }
    fn legal_actions(&self, _: usize, out: &mut Vec<u8>) -> bool {
        out.clear();
        out.extend((0..9).filter(|&i| self.cells[i as usize] == 0));
        true
    }
    fn advance(&mut self, actions: &[u8]) {
        self.cells[actions[0] as usize] = self.mover as u8 + 1;
        self.mover = 1 - self.mover;
        self.steps += 1;
    }
    fn score(&self, player: usize) -> f64 {
        match self.winner() {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }
    fn winners(&self) -> Vec<bool> {
        match self.winner() {
            Some(w) => vec![w == 0, w == 1],
            // A draw marks both.
            None => vec![true, true],
        }
    }
}

struct TicTacToe;

impl GameDef for TicTacToe {
    type State = Board;
    type Rules = Values;
    fn name(&self) -> &'static str {
        "tictactoe-test"
    }
    fn title(&self) -> &'static str {
        "Tic-tac-toe"
    }
    fn about(&self) -> &'static str {
        "three in a row"
    }
    fn settings(&self) -> Vec<Setting> {
        Vec::new()
    }
    // The settings as read are all its rules: it reads them as it sets a game up.
    fn rules(&self, s: &Values) -> Result<Values, Error> {
        Ok(s.clone())
    }

    fn new_state(&self, _: &Values, _: u64) -> Result<Board, Error> {
        Ok(Board {
            cells: [0; 9],
            mover: 0,
            steps: 0,
        })
    }
    fn default_agents(&self, _: &Values) -> Result<Vec<String>, Error> {
        Ok(vec!["random".into(), "random".into()])
    }
}

/// A coin decides the game: each seat makes one move, which changes nothing.
#[derive(Clone, Debug)]
struct Coin {
    players: usize,
    heads: usize,
    moved: usize,
}

impl Game for Coin {
    type Action = u8;
    fn num_players(&self) -> usize {
        self.players
    }
    fn acting(&self) -> Acting {
        Acting::Player(self.moved)
    }
    fn is_over(&self) -> bool {
        self.moved >= self.players
    }
    fn step_count(&self) -> u32 {
        self.moved as u32
    }
    fn random_action(&self, _: usize, rng: &mut Rng) -> Option<u8> {
        Some(rng.random_range(0..2))
    }
    fn legal_actions(&self, _: usize, out: &mut Vec<u8>) -> bool {
        out.clear();
        out.extend([0, 1]);
        true
    }
    fn advance(&mut self, _: &[u8]) {
        self.moved += 1;
    }
    fn score(&self, player: usize) -> f64 {
        if self.is_over() && player == self.heads {
            1.0
        } else {
            0.0
        }
    }
    fn winners(&self) -> Vec<bool> {
        (0..self.players).map(|p| p == self.heads).collect()
    }
}

struct CoinToss;

impl GameDef for CoinToss {
    type State = Coin;
    type Rules = Values;
    fn name(&self) -> &'static str {
        "coin-test"
    }
    fn title(&self) -> &'static str {
        "Coin toss"
    }
    fn about(&self) -> &'static str {
        "a coin decides"
    }
    fn settings(&self) -> Vec<Setting> {
        vec![Setting::new("players", "2", "seats")]
    }
    // The settings as read are all its rules: it reads them as it sets a game up.
    fn rules(&self, s: &Values) -> Result<Values, Error> {
        Ok(s.clone())
    }

    fn new_state(&self, s: &Values, seed: u64) -> Result<Coin, Error> {
        let players = s.count("players")?.max(1);
        Ok(Coin {
            players,
            heads: (seed % players as u64) as usize,
            moved: 0,
        })
    }
    fn default_agents(&self, s: &Values) -> Result<Vec<String>, Error> {
        Ok(vec!["random".into(); s.count("players")?])
    }
}

fn config(kinds: Option<&[&str]>, games: usize) -> BuildConfig {
    BuildConfig {
        kinds: kinds.map(|k| k.iter().map(|s| s.to_string()).collect()),
        games,
        ..BuildConfig::default()
    }
}

#[test]
fn where_search_buys_strength_the_ladder_is_ordered_at_every_step() {
    let builder = LadderBuilder::new(&TicTacToe, config(None, 200)).unwrap();
    let built = builder.build(&Unwatched).unwrap();
    assert_eq!(
        built.ladder,
        ["random", "osla", "mcts"],
        "{:#?}",
        built.steps
    );
    assert!(built.ordered() && built.complete());
    // Every kept step was shown stronger, and the look-ahead's more search (all nine
    // moves are tried at once already) was tried and passed over before MCTS.
    let kept: Vec<&LadderStep> = built.steps.iter().filter(|s| s.kept()).collect();
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().all(|s| s.score >= 0.6 && s.games <= 200));
    assert_eq!(built.steps[1].candidate, "osla(budget=4000)");
    assert!(built.steps[1].more_search && !built.steps[1].kept());
    // The cost counts every game played, a batch past a deciding look included.
    let counted: usize = built.steps.iter().map(|s| s.games).sum();
    assert!(
        (counted..=counted + 60 * built.steps.len()).contains(&built.games_played),
        "{} played, {counted} counted",
        built.games_played
    );
    assert!(built.verdict().contains("an ordered ladder of 3 rungs"));
    assert_eq!(built.spec(), "random,osla,mcts");
}

#[test]
fn where_a_coin_decides_no_ladder_is_ordered() {
    let builder = LadderBuilder::new(&CoinToss, config(None, 200)).unwrap();
    let built = builder.build(&Unwatched).unwrap();
    assert_eq!(built.ladder, ["random"]);
    assert!(!built.ordered());
    // Every kind was tried against random and none kept.
    let tried: Vec<&str> = built.steps.iter().map(|s| s.candidate.as_str()).collect();
    assert_eq!(tried, ["osla", "mcts", "ismcts"]);
    assert!(built.steps.iter().all(|s| !s.kept() && s.below == "random"));
    assert!(
        built.verdict().starts_with("no ordered ladder"),
        "{}",
        built.verdict()
    );
}

#[test]
fn the_same_seed_builds_the_same_ladder_on_one_thread_or_four() {
    let build = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let builder = LadderBuilder::new(
            &TicTacToe,
            BuildConfig {
                seed: 7,
                ..config(Some(&["osla", "mcts(iterations=12)"]), 120)
            },
        )
        .unwrap();
        let mut built = pool.install(|| builder.build(&Unwatched)).unwrap();
        built.seconds = 0.0;
        built
    };
    let one = build(1);
    assert_eq!(one, build(4));
    assert!(one.steps.len() >= 2, "{:#?}", one.steps);
}

#[test]
fn more_search_multiplies_every_limit_given_as_a_number() {
    let kind = |name: &str| Kind {
        spec: AgentSpec::parse(name).unwrap(),
        settings: Generic::ALL
            .iter()
            .find(|g| g.name() == name)
            .unwrap()
            .settings(),
    };
    let grow = |k: &Kind, spec: &str, factor: f64| {
        k.more_search(&AgentSpec::parse(spec).unwrap(), factor)
            .map(|s| s.to_string())
    };
    // MCTS: iterations grow, its unlimited budget stays unlimited.
    let mcts = kind("mcts");
    assert_eq!(grow(&mcts, "mcts", 4.0).unwrap(), "mcts(iterations=700)");
    assert_eq!(
        grow(&mcts, "mcts(depth=3,iterations=8)", 4.0).unwrap(),
        "mcts(depth=3,iterations=32)"
    );
    assert_eq!(
        grow(&mcts, "mcts(iterations=max,budget=100)", 2.0).unwrap(),
        "mcts(iterations=max,budget=200)"
    );
    // A rolling horizon's evaluations and budget both grow; a small number by at least
    // one.
    let bmrh = kind("bmrh");
    assert_eq!(
        grow(&bmrh, "bmrh", 2.0).unwrap(),
        "bmrh(evaluations=400,budget=2000)"
    );
    assert_eq!(
        grow(&kind("osla"), "osla(budget=1)", 1.2).unwrap(),
        "osla(budget=2)"
    );
    // Nothing to grow.
    assert_eq!(grow(&kind("random"), "random", 4.0), None);
    assert_eq!(grow(&mcts, "mcts(iterations=max)", 4.0), None);
}

#[test]
fn what_cannot_be_built_is_refused_before_any_game() {
    let refused = |c: BuildConfig| LadderBuilder::new(&TicTacToe, c).err().unwrap();
    assert!(matches!(refused(config(None, 0)), BuildError::NoGames));
    assert!(matches!(
        refused(config(None, MAX_GAMES + 1)),
        BuildError::TooManyGames { .. }
    ));
    for rungs in [0, 1, MAX_RUNGS + 1] {
        let e = refused(BuildConfig {
            rungs,
            ..BuildConfig::default()
        });
        assert!(matches!(e, BuildError::Rungs { .. }), "{e}");
    }
    for target in [0.5, 1.0, 0.2, f64::NAN] {
        let e = refused(BuildConfig {
            target,
            ..BuildConfig::default()
        });
        assert!(matches!(e, BuildError::Target { .. }), "{e}");
    }
    for factor in [1.0, 0.5, f64::INFINITY, 1e6] {
        let e = refused(BuildConfig {
            factor,
            ..BuildConfig::default()
        });
        assert!(matches!(e, BuildError::Factor { .. }), "{e}");
    }
    // A kind the game does not have, given by the user.
    let e = refused(config(Some(&["osla", "alphazero"]), 10));
    assert!(
        matches!(&e, BuildError::Kind { spec, .. } if spec == "alphazero"),
        "{e}"
    );
    // Three seats: only two-seat games.
    let e = LadderBuilder::new(
        &CoinToss,
        BuildConfig {
            settings: vec![("players".into(), "3".into())],
            ..BuildConfig::default()
        },
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("only two-seat games"), "{e}");
    // A setting the game does not have.
    let e = LadderBuilder::new(
        &CoinToss,
        BuildConfig {
            settings: vec![("colour".into(), "red".into())],
            ..BuildConfig::default()
        },
    )
    .err()
    .unwrap();
    assert!(matches!(e, BuildError::Game(_)), "{e}");
}

#[test]
fn the_key_names_the_game_its_rules_and_the_build() {
    let key = |c: BuildConfig| LadderBuilder::new(&CoinToss, c).unwrap().key();
    let base = key(BuildConfig::default());
    assert!(base.contains("game coin-test") && base.contains("rules players=2"));
    assert_ne!(
        base,
        key(BuildConfig {
            seed: 2,
            ..BuildConfig::default()
        })
    );
    assert_ne!(
        base,
        key(BuildConfig {
            rungs: 4,
            ..BuildConfig::default()
        })
    );
    // The rules as the game plays them: a default given is the default.
    assert_eq!(
        base,
        key(BuildConfig {
            settings: vec![("players".into(), "2".into())],
            ..BuildConfig::default()
        })
    );
}

fn built() -> BuiltLadder {
    BuiltLadder {
        game: "coin-test".into(),
        rules: vec![("players".into(), "2".into())],
        ladder: vec!["random".into(), "osla".into()],
        asked: 3,
        target: 0.6,
        cap: 200,
        steps: vec![LadderStep {
            rung: 1,
            candidate: "osla".into(),
            below: "random".into(),
            more_search: false,
            score: 0.75,
            se: 0.04,
            games: 31,
            decision: Decision::Better,
        }],
        games_played: 38,
        seconds: 1.5,
        notes: Vec::new(),
    }
}

#[test]
fn a_kept_ladder_reads_back_and_a_damaged_file_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let cache = LadderCache::at(dir.path().join("ladders"));
    assert!(matches!(cache.read("coin-test", "k"), CacheLookup::Miss));
    let file = cache.write("k", &built()).unwrap();
    assert_eq!(file, cache.file("coin-test", "k"));
    match cache.read("coin-test", "k") {
        CacheLookup::Hit(b) => assert_eq!(*b, built()),
        other => panic!("{other:?}"),
    }
    // Another key is another file.
    assert!(matches!(cache.read("coin-test", "k2"), CacheLookup::Miss));
    // A file of another key (moved by hand), a damaged one, an empty one: ignored.
    std::fs::copy(&file, cache.file("coin-test", "k2")).unwrap();
    assert!(matches!(
        cache.read("coin-test", "k2"),
        CacheLookup::Ignored { why, .. } if why.contains("another build")
    ));
    for text in [
        "(format: 1, key: \"k\", built: (game: 3))",
        "",
        "\u{0}\u{1}",
    ] {
        std::fs::write(&file, text).unwrap();
        assert!(
            matches!(cache.read("coin-test", "k"), CacheLookup::Ignored { .. }),
            "{text:?}"
        );
    }
    // Written again, it replaces the damaged file.
    cache.write("k", &built()).unwrap();
    assert!(matches!(cache.read("coin-test", "k"), CacheLookup::Hit(_)));
}

#[cfg(unix)]
#[test]
fn a_link_in_the_cache_is_neither_read_nor_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let cache = LadderCache::at(dir.path());
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, "not a ladder").unwrap();
    let file = cache.file("coin-test", "k");
    std::os::unix::fs::symlink(&outside, &file).unwrap();
    assert!(matches!(
        cache.read("coin-test", "k"),
        CacheLookup::Ignored { why, .. } if why.contains("not a plain file")
    ));
    cache.write("k", &built()).unwrap();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "not a ladder");
    assert!(!std::fs::symlink_metadata(&file).unwrap().is_symlink());
    assert!(matches!(cache.read("coin-test", "k"), CacheLookup::Hit(_)));
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty());
}
