//! A design run's ladder, before its search: where the user names none and the game
//! declares none, one built to be ordered (from the cache, or played now); otherwise
//! the ladder checked at the game's own rules: a round robin of its rungs says whether
//! each rung beats the one below by more than two standard errors, and proposes the
//! largest ordered set of them where it is not ordered. The command line's
//! `check-ladder` and `build-ladder` print the same reports.

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use playtune::harness::DynGame;
use playtune::harness::ladder_build::{
    self, BuildProgress, BuiltLadder, CacheLookup, LadderBuilder, LadderCache, LadderStep,
};
use playtune::harness::ladder_check::{LadderCheck, MIN_GAMES, check_ladder};
use playtune::run::ProblemSpec;
use std::path::PathBuf;

/// The ladder check's stream under the run's seed: its games are none of the search's.
const LADDER_CHECK_STREAM: u64 = 0x1add_e4c4;

/// What a design run does with its ladder before the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LadderCheckMode {
    /// Check it; where a rung is not shown stronger than the one below, say so with
    /// the results and an ordered ladder to use, and search on the ladder as given.
    #[default]
    Warn,
    /// Check it, and search on the proposed ordered ladder where it is not ordered.
    Use,
    /// Do not check it.
    Off,
}

impl LadderCheckMode {
    /// Every mode, in the order a front end lists them.
    pub const ALL: [LadderCheckMode; 3] = [Self::Warn, Self::Use, Self::Off];

    /// The mode's name as a user writes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Warn => "warn",
            Self::Use => "use",
            Self::Off => "off",
        }
    }

    /// What the mode does, in one sentence (a front end's help).
    pub fn about(self) -> &'static str {
        match self {
            Self::Warn => {
                "Check it; where a rung is not shown stronger than the one below, say so with the results and an ordered ladder to use, and search on the ladder as given"
            }
            Self::Use => {
                "Check it, and search on the proposed ordered ladder where it is not ordered"
            }
            Self::Off => "Do not check it",
        }
    }
}

impl std::str::FromStr for LadderCheckMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|m| m.name()).collect();
                format!("`{s}` is not a ladder check (one of: {})", names.join(", "))
            })
    }
}

/// How a design run checks its ladder: what it does with it, and the games a pair of
/// rungs plays (`None`: 100, fewer where that would be over a tenth of the search's
/// games, never under 10).
#[derive(Clone, Copy, Debug, Default)]
pub struct LadderCheckSettings {
    /// What the run does with its ladder.
    pub mode: LadderCheckMode,
    /// Games each pair of rungs plays.
    pub games: Option<usize>,
}

/// Plays the check with a progress bar on a terminal.
pub fn watched(
    game: &dyn DynGame,
    settings: &[(String, String)],
    ladder: &[String],
    budget: Option<usize>,
    games: usize,
    seed: u64,
) -> Result<Option<LadderCheck>> {
    // A two-seat game plays every pair of rungs; a game of more seats each step once.
    let seats = game
        .settings_values(settings)
        .and_then(|v| game.players(&v))
        .unwrap_or(2);
    let steps = if seats > 2 {
        ladder.len().saturating_sub(1)
    } else {
        ladder.len() * ladder.len().saturating_sub(1) / 2
    };
    crate::progress::with_games_bar(steps.saturating_mul(games) as u64, |watch| {
        check_ladder(game, settings, ladder, budget, games, seed, watch)
    })
}

/// The check's report: a line a step, then the verdict and the proposal.
pub fn report(game: &str, check: &LadderCheck) -> String {
    let mut out = if check.seats > 2 {
        format!(
            "ladder check of {game} at its own rules ({} seats: each rung against {} copies of the one below, {} games a step):\n",
            check.seats,
            check.seats - 1,
            check.games
        )
    } else {
        format!(
            "ladder check of {game} at its own rules ({} games a pair of rungs):\n",
            check.games
        )
    };
    for line in check.lines() {
        out += &format!("  {line}\n");
    }
    if check.ordered() {
        out += "  the ladder is ordered: every rung beats the one below by more than 2 standard errors\n";
    } else if check.games < FULL_CHECK_GAMES {
        out += &format!(
            "  the ladder is not shown ordered at {} games a pair, which is inconclusive: `playtune check-ladder --game {game} --games {FULL_CHECK_GAMES}` plays enough to tell\n",
            check.games
        );
    } else {
        out += "  the ladder is NOT shown ordered: skill depth measured on it measures a step that may not exist\n";
        match &check.proposal {
            // No round robin of pairs: the steps above say which rungs to drop.
            None if check.seats > 2 => {
                out += "  drop or strengthen each rung NOT shown stronger than the one below (more search: its iterations, simulations or budget), or play more games\n"
            }
            Some(p) => {
                out += &format!(
                    "  an ordered ladder of these rungs: {} (--set ladder=\"{}\", or --ladder-check use)\n",
                    p.join(", "),
                    p.join(",")
                );
            }
            None => {
                out += "  no two of its rungs are separated: give stronger rungs (more search: their iterations, simulations or budget), or more games\n"
            }
        }
    }
    out
}

/// Games a pair of rungs plays in a check that can tell (`check-ladder`'s default):
/// fewer leave a step that is there unshown too often to call the ladder unordered.
pub const FULL_CHECK_GAMES: usize = 100;

/// The games a pair of rungs plays, given as `label` says (the refusal's words before
/// the number): enough to show a step, and no more than a tournament's lineup plays.
pub fn check_games(label: &str, games: usize) -> Result<()> {
    let max = playtune::harness::tournament::MAX_GAMES;
    if !(MIN_GAMES..=max).contains(&games) {
        anyhow::bail!(
            "{label}{games}: give {MIN_GAMES} to {max} games a pair of rungs (fewer than {MIN_GAMES} cannot show a step)"
        );
    }
    Ok(())
}

/// A progress bar on a terminal: the candidate's games of its cap, each step's
/// result printed above it as it is decided.
struct Bar(ProgressBar);

impl BuildProgress for Bar {
    fn candidate(&self, candidate: &str, below: &str, cap: usize) {
        self.0.set_length(cap as u64);
        self.0.set_position(0);
        self.0.set_message(format!("{candidate} against {below}"));
    }

    fn game(&self) {
        self.0.inc(1);
    }

    fn step(&self, step: &LadderStep, target: f64) {
        self.0.println(format!("  {}", step.line(target)));
    }
}

/// Builds with a progress bar on standard error where it is a terminal (imitating
/// `check-ladder`'s), the games of the candidate playing counted.
fn watched_build(builder: &LadderBuilder<'_>, cap: usize) -> Result<BuiltLadder> {
    let bar = crate::progress::counting_bar(true, cap as u64, "games");
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{elapsed_precise}] {msg}")
    {
        bar.set_style(style);
    }
    let built = builder.build(&Bar(bar.clone()));
    bar.finish_and_clear();
    built.map_err(anyhow::Error::msg)
}

/// Where the ladder came from: played now (and kept where), or read from the cache.
pub enum Source {
    /// Played now; the ladder file kept where the cache could take it.
    Played {
        /// The ladder file kept, where it was.
        kept: Option<PathBuf>,
    },
    /// Read from the cache's file.
    Cached {
        /// The cache's file.
        file: PathBuf,
    },
}

/// The ladder `builder` builds for `game` (`cap` games a candidate at most): read from the cache where it holds it
/// (unless `rebuild`), else played now, with a progress bar on a terminal, and kept.
pub fn built_or_cached(
    game: &dyn playtune::harness::DynGame,
    builder: &LadderBuilder<'_>,
    cap: usize,
    rebuild: bool,
) -> Result<(BuiltLadder, Source)> {
    let key = builder.key();
    let cache = ladder_build::default_cache_dir().map(LadderCache::at);
    if let Some(c) = cache.as_ref().filter(|_| !rebuild) {
        match c.read(game.name(), &key) {
            CacheLookup::Hit(built) => {
                let file = c.file(game.name(), &key);
                return Ok((*built, Source::Cached { file }));
            }
            CacheLookup::Miss => {}
            CacheLookup::Ignored { file, why } => eprintln!(
                "warning: the cached ladder {} is not used ({why}): building it again",
                file.display()
            ),
        }
    }
    let built = watched_build(builder, cap)?;
    let kept = match &cache {
        Some(c) => match c.write(&key, &built) {
            Ok(file) => Some(file),
            Err(e) => {
                eprintln!(
                    "warning: the ladder is not kept in the cache {}: {e}",
                    c.dir().display()
                );
                None
            }
        },
        None => {
            eprintln!(
                "warning: no cache folder (set PLAYTUNE_CACHE, XDG_CACHE_HOME or HOME): the ladder is not kept"
            );
            None
        }
    };
    Ok((built, Source::Played { kept }))
}

/// The ladder built for `design`'s game at its own rules (with the settings the run
/// holds), from the cache or played now, as `--set ladder=` takes it; `None`, with
/// the reason on standard error, where no rung beats `random`.
fn built_ladder(design: &playtune::registry::DesignLadder, quiet: bool) -> Result<Option<String>> {
    use playtune::harness::ladder_build::{BuildConfig, LadderBuilder};
    let config = BuildConfig {
        settings: design.own_rules.clone(),
        ..BuildConfig::default()
    };
    let cap = config.games;
    let builder = LadderBuilder::new(design.game, config).map_err(anyhow::Error::msg)?;
    let (built, source) = built_or_cached(design.game, &builder, cap, false)?;
    let cost = match &source {
        Source::Cached { file } => {
            format!("read from the cache {}", file.display())
        }
        Source::Played { .. } => format!(
            "built now: {} games in {}",
            built.games_played,
            playtune::run::duration_text(built.seconds)
        ),
    };
    if !built.ordered() {
        if !quiet {
            eprintln!(
                "ladder: {} declares no ladder, and none could be built at its own rules ({}; {cost}): the run plays the generic ladder {}, whose steps are not shown, so its skill depth may measure noise",
                design.game.name(),
                built.verdict(),
                design.ladder.join(",")
            );
        }
        return Ok(None);
    }
    if !quiet {
        eprintln!(
            "ladder: {} declares no ladder; the run plays one built to be ordered at its own rules, each rung shown to score at least {} against the one below: {} ({cost}; `playtune build-ladder` shows the steps)",
            design.game.name(),
            built.target,
            built.spec()
        );
    }
    Ok(Some(built.spec()))
}

/// Before a design run: where the user names no ladder and the game declares none,
/// puts a ladder built to be ordered in `spec`; otherwise checks `spec`'s ladder as
/// `args` says, reports on standard error (unless `quiet`), and under
/// [`LadderCheckMode::Use`] puts the proposed ladder in `spec`. Returns whether
/// `spec` changed.
pub(crate) fn before_design(
    spec: &mut ProblemSpec,
    args: &LadderCheckSettings,
    budget: u64,
    seed: u64,
    quiet: bool,
) -> Result<bool> {
    let Some(design) = playtune::registry::design_ladder(spec).map_err(anyhow::Error::msg)? else {
        return Ok(false);
    };
    // A game that declares no ladder of its own plays one built to be ordered, each
    // step shown by the builder's sequential test (and kept, so built once).
    if !spec.settings.contains_key("ladder") && design.game.generic_ladder() {
        if let Some(built) = built_ladder(&design, quiet)? {
            spec.settings.insert("ladder".into(), built);
            return Ok(true);
        }
    }
    if args.mode == LadderCheckMode::Off {
        return Ok(false);
    }
    let rungs = design.ladder.len();
    let pairs = (rungs * rungs.saturating_sub(1) / 2).max(1) as u64;
    let games = match args.games {
        Some(n) => {
            // Checked where it was given, naming it there.
            check_games("games a pair of rungs: ", n)?;
            n
        }
        None => {
            let search = budget
                .saturating_mul(rungs as u64)
                .saturating_mul(design.games as u64);
            (search / 10 / pairs).clamp(10, 100) as usize
        }
    };
    let seed = playtune::rng::derive_seed(seed, &[LADDER_CHECK_STREAM]);
    let Some(check) = watched(
        design.game,
        &design.own_rules,
        &design.ladder,
        design.budget,
        games,
        seed,
    )?
    else {
        return Ok(false);
    };
    if !quiet {
        if check.ordered() {
            eprintln!(
                "ladder check: {} is ordered at {}'s own rules ({} games a pair)",
                design.ladder.join(", "),
                design.game.name(),
                check.games
            );
        } else {
            eprint!("{}", report(design.game.name(), &check));
        }
    }
    if args.mode == LadderCheckMode::Use
        && !check.ordered()
        && let Some(p) = check.proposal
    {
        if !quiet {
            eprintln!("  searching on the ordered ladder: {}", p.join(", "));
        }
        spec.settings.insert("ladder".into(), p.join(","));
        return Ok(true);
    }
    Ok(false)
}
