//! `playtune play`, `render`, `tournament` and `games`: any registered game
//! ([`playtune::registry::GAMES`]) between agents named with their settings.

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use playtune::harness::settings::parse_pairs;
use playtune::harness::{
    AgentSpec, DynGame, GameRequest, Generic, Record, Setting, Values, split_agents,
};
use playtune::registry::read_result;
use std::path::{Path, PathBuf};

/// How every game command plays: agents' budget, seed, output.
#[derive(Args)]
struct RunArgs {
    /// Forward-model budget per decision for every agent with a `budget` setting that
    /// does not set its own [default: each agent's].
    #[arg(long)]
    budget: Option<usize>,
    /// Seed: every game and evaluation derives its seed from it, so the same seed
    /// gives the same results with any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
}

/// What every game command takes: the game, its settings, the agents, the seed.
#[derive(Args)]
pub(super) struct GameArgs {
    /// The game (see `playtune games`); every game command defaults to the same one.
    #[arg(long, alias = "problem", default_value = playtune::registry::DEFAULT_GAME)]
    game: String,
    /// Agents, one per seat, comma-separated, each NAME or NAME(KEY=VALUE,...), e.g.
    /// `mcts(iterations=200,depth=10),random` [default: the game's lineup].
    #[arg(long)]
    agents: Option<String>,
    /// The agent in seat 0, replacing the default lineup's (kept from before --agents).
    #[arg(long)]
    p1: Option<String>,
    /// The agent in seat 1, replacing the default lineup's.
    #[arg(long)]
    p2: Option<String>,
    /// Game settings as NAME=VALUE,NAME=VALUE (the rest keep their defaults), or a run
    /// folder / result.ron whose recommendation to play.
    #[arg(long)]
    params: Option<String>,
    /// Which trial's recommendation, when --params names a run.
    #[arg(long, default_value_t = 0)]
    trial: usize,
    /// A game setting, NAME=VALUE (repeatable), e.g. --set max_ticks=300.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Args)]
pub(super) struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Print each state and the move made in it, then the final state, in the game's
    /// own text form (a game that brings its rules: Python's `str(state)`, or the
    /// protocol's `show` operation; else the moves it offers).
    #[arg(long)]
    show: bool,
}

#[derive(Args)]
pub(super) struct RenderArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Turns to draw, one panel each: the map after that many turns (0: the start;
    /// Space Battle: ticks; Strategy: turns, in which each tribe plays once), or `end`
    /// for the final state, which a turn past the end also draws, e.g. `--at 0,10,end`
    /// [default: the start, a third, two thirds and the end].
    #[arg(long, value_delimiter = ',', value_parser = parse_turn, value_name = "TURNS")]
    at: Vec<u32>,
    /// Output picture (.png or .svg) [default: plots/GAME.png].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// A turn of `--at`: a number, or `end` (the final state, as `u32::MAX`).
fn parse_turn(text: &str) -> Result<u32, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("end") {
        return Ok(u32::MAX);
    }
    t.parse()
        .map_err(|_| format!("`{t}` is not a turn: give a number of turns (0: the start) or `end`"))
}

#[derive(Args)]
pub(super) struct TournamentArgs {
    /// The game (see `playtune games`).
    #[arg(long, default_value = playtune::registry::DEFAULT_GAME)]
    game: String,
    /// Agents, comma-separated (NAME or NAME(KEY=VALUE,...)): one per seat, or more
    /// than two for a 2-player round robin [default: the game's lineup].
    #[arg(long)]
    agents: Option<String>,
    /// Players per game: the game setting `players`.
    #[arg(long)]
    players: Option<usize>,
    /// Rule readings: the game setting `rules` (Rinascimento: spec or reference).
    #[arg(long)]
    rules: Option<String>,
    /// A game setting, NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Game settings as NAME=VALUE,NAME=VALUE, or a run folder / result.ron whose
    /// recommendation to play (a design run's rules), as `play` takes them; --set
    /// goes on top.
    #[arg(long)]
    params: Option<String>,
    /// Which trial's recommendation, when --params names a run.
    #[arg(long, default_value_t = 0)]
    trial: usize,
    /// Games (per pairing in a round robin).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    #[command(flatten)]
    run: RunArgs,
}

/// The game's settings from --params: NAME=VALUE pairs, or the recommendation of trial
/// `trial` of a run folder (or its result.ron), every name checked against the game's.
fn params_settings(
    game: &dyn DynGame,
    params: Option<&str>,
    trial: usize,
) -> Result<Vec<(String, String)>> {
    let Some(p) = params else {
        return Ok(Vec::new());
    };
    let path = Path::new(p);
    let given = if path.exists() {
        let dir = if path.is_dir() {
            path.to_path_buf()
        } else {
            path.parent().unwrap_or(Path::new(".")).to_path_buf()
        };
        let r = read_result(&dir).map_err(anyhow::Error::msg)?;
        let t = r
            .trials
            .get(trial)
            .ok_or_else(|| anyhow!("--trial {trial}: the run has {} trial(s)", r.trials.len()))?;
        t.recommendation.clone()
    } else {
        parse_pairs([p]).map_err(|e| anyhow::anyhow!("--params {e}"))?
    };
    let known = game.settings();
    if let Some((k, _)) = given
        .iter()
        .find(|(k, _)| !known.iter().any(|s| &s.name == k))
    {
        bail!("--params: {} has no parameter `{k}`", game.name());
    }
    Ok(given)
}

/// The game's settings from --params (pairs or a run's recommendation) and --set.
fn settings(game: &dyn DynGame, a: &GameArgs) -> Result<Vec<(String, String)>> {
    let mut given = params_settings(game, a.params.as_deref(), a.trial)?;
    given.extend(
        parse_pairs(a.settings.iter().map(String::as_str))
            .map_err(|e| anyhow::anyhow!("--set {e}"))?,
    );
    Ok(given)
}

fn request(a: &GameArgs) -> Result<(&'static dyn DynGame, GameRequest)> {
    let game = playtune::registry::game(&a.game).map_err(anyhow::Error::msg)?;
    // The settings and the bots read once, here where they enter.
    let settings = game
        .settings_values(&settings(game, a)?)
        .map_err(anyhow::Error::msg)?;
    let mut agents = match &a.agents {
        Some(list) => AgentSpec::parse_all(&split_agents(list)).map_err(anyhow::Error::msg)?,
        None if a.p1.is_some() || a.p2.is_some() => game
            .default_agents(&settings)
            .and_then(|d| AgentSpec::parse_all(&d))
            .map_err(anyhow::Error::msg)?,
        None => Vec::new(),
    };
    for (seat, name) in [&a.p1, &a.p2].into_iter().enumerate() {
        if let Some(name) = name {
            match agents.get_mut(seat) {
                Some(slot) => *slot = AgentSpec::parse(name).map_err(anyhow::Error::msg)?,
                None => bail!("--p{}: {} has no seat {seat}", seat + 1, game.name()),
            }
        }
    }
    Ok((
        game,
        GameRequest {
            settings,
            agents,
            budget: a.run.budget,
            seed: a.run.seed,
        },
    ))
}

/// The agents' names as played (the default lineup when none were given).
fn lineup(game: &dyn DynGame, req: &GameRequest) -> Result<Vec<String>> {
    if req.agents.is_empty() {
        game.default_agents(&req.settings)
            .map_err(anyhow::Error::msg)
    } else {
        Ok(req.agents.iter().map(ToString::to_string).collect())
    }
}

fn print_record(names: &[String], r: &Record, seed: u64) {
    println!("{}: {} steps, seed {seed}", names.join(" vs "), r.length);
    for (i, name) in names.iter().enumerate() {
        println!(
            "  {name} (seat {}): {:.1} points{}",
            r.seats[i],
            r.scores[i],
            if r.winners[i] { ", won" } else { "" }
        );
    }
    let extra: Vec<String> = r.extra.iter().map(|(k, v)| format!("{k}={v:.2}")).collect();
    if !extra.is_empty() {
        println!("  {}", extra.join(" "));
    }
    match r.winner() {
        Some(w) => println!("{} wins", names[w]),
        None if r.winners.contains(&true) => println!("draw"),
        None => println!("no winner"),
    }
}

fn record_json(names: &[String], r: &Record, secs: f64) -> serde_json::Value {
    let mut j = serde_json::json!({
        "agents": names, "p1": names.first(), "p2": names.get(1), "scores": r.scores,
        "winners": r.winners, "winner": r.winner(), "seats": r.seats, "length": r.length,
        "ticks": r.length, "seconds": secs,
    });
    for (k, v) in &r.extra {
        j[k] = serde_json::json!(v);
    }
    j
}

pub(super) fn play_cmd(p: PlayArgs) -> Result<()> {
    let a = p.game;
    let (game, req) = request(&a)?;
    let names = lineup(game, &req)?;
    let started = std::time::Instant::now();
    let r = if p.show {
        let (r, frames) = game.play_shown(&req).map_err(anyhow::Error::msg)?;
        for frame in frames {
            println!("{frame}\n");
        }
        r
    } else {
        game.play(&req).map_err(anyhow::Error::msg)?
    };
    let secs = started.elapsed().as_secs_f64();
    print_record(&names, &r, a.run.seed);
    println!("{secs:.2} s");
    if a.run.json {
        println!("{}", record_json(&names, &r, secs));
    }
    Ok(())
}

pub(super) fn render_cmd(a: RenderArgs) -> Result<()> {
    let (game, req) = request(&a.game)?;
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from(format!("plots/{}.png", game.name().replace('-', "_"))));
    if !playtune_report::plot::is_picture(&out) {
        bail!(
            "--out {}: the file name must end in .png or .svg",
            out.display()
        );
    }
    game.render(&req, &a.at, &out)
        .map_err(|e| match e {
            playtune::harness::Error::NoPicture { .. } => anyhow!(
                "{e}: name a game that draws one with --game (space-battle and strategy do)"
            ),
            e => anyhow::Error::msg(e),
        })
        .with_context(|| format!("rendering {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// A tournament with a progress bar on a terminal (games played of all), with the
/// game's settings as read (defaults filled in) and its players under them.
fn watched_tournament(
    game: &dyn DynGame,
    req: &GameRequest,
    games: usize,
) -> Result<(playtune::harness::TournamentResult, Values, usize)> {
    let agents = game.agent_names(req).map_err(anyhow::Error::msg)?.len();
    let values = req.settings.clone();
    let players = game.players(&values).map_err(anyhow::Error::msg)?;
    let lineups = playtune::harness::tournament::lineups(agents, players)
        .map_err(anyhow::Error::msg)?
        .len();
    let total = lineups.saturating_mul(games) as u64;
    let r = playtune_exec::progress::with_games_bar(total, |watch| {
        game.tournament_watched(req, games, watch)
    })?;
    Ok((r, values, players))
}

pub(super) fn tournament_cmd(a: TournamentArgs) -> Result<()> {
    let game = playtune::registry::game(&a.game).map_err(anyhow::Error::msg)?;
    let mut settings = params_settings(game, a.params.as_deref(), a.trial)?;
    settings.extend(
        parse_pairs(a.settings.iter().map(String::as_str))
            .map_err(|e| anyhow::anyhow!("--set {e}"))?,
    );
    if let Some(p) = a.players {
        settings.push(("players".into(), p.to_string()));
    }
    if let Some(r) = &a.rules {
        settings.push(("rules".into(), r.clone()));
    }
    // The settings and the bots read once, here where they enter.
    let req = GameRequest {
        agents: AgentSpec::parse_all(&a.agents.as_deref().map(split_agents).unwrap_or_default())
            .map_err(anyhow::Error::msg)?,
        settings: game
            .settings_values(&settings)
            .map_err(anyhow::Error::msg)?,
        budget: a.run.budget,
        seed: a.run.seed,
    };
    let max = playtune::harness::tournament::MAX_GAMES;
    if !(1..=max).contains(&a.games) {
        bail!("--games {}: give 1 to {max} games a pairing", a.games);
    }
    let started = std::time::Instant::now();
    let (r, values, players) = watched_tournament(game, &req, a.games)?;
    let secs = started.elapsed().as_secs_f64();
    let states = r.mean_length * r.games as f64;
    println!(
        "{} games of {} ({players} players), seed {}",
        r.games,
        game.name(),
        a.run.seed
    );
    println!(
        "{:24} {:>8} {:>9} {:>8} {:>12}",
        "agent", "games", "win rate", "se", "mean points"
    );
    for ag in &r.agents {
        println!(
            "{:24} {:>8} {:>9.3} {:>8.3} {:>12.2}",
            ag.name, ag.games, ag.win_rate, ag.win_rate_se, ag.mean_points
        );
    }
    for p in &r.pairs {
        let mut line = format!(
            "  {} vs {}: {} games, {} won by the first, {} by the second",
            r.agents[p.a].name,
            r.agents[p.b].name,
            p.games,
            p.wins_a - p.both,
            p.wins_b - p.both
        );
        if p.both > 0 {
            line += &format!(", {} shared", p.both);
        }
        if p.neither > 0 {
            line += &format!(", {} without a winner", p.neither);
        }
        println!("{line}");
    }
    if r.no_winner > 0 || r.design.draw_rate > 0.0 {
        // One rule, the ladder check's too.
        println!(
            "  (win rate: 1 a game won alone, 1/k a win shared by k seats, 1/n each of n seats where none won)"
        );
    }
    // The mean length of each kind of game only where there are games of that kind:
    // "stalemated 0.0" read as stalemates of no length.
    let finished = r.games - r.no_winner;
    let mut by_kind = Vec::new();
    if finished > 0 {
        by_kind.push(format!(
            "{:.1} in the {finished} with a winner",
            r.mean_length_finished
        ));
    }
    if r.no_winner > 0 {
        by_kind.push(format!(
            "{:.1} in the {} without",
            r.mean_length_stalemated, r.no_winner
        ));
    }
    println!(
        "length {:.2} +- {:.2} (sd) steps, min {}, max {}; mean length {}; {:.3} ms a game, {:.0} states/s on {} thread(s)",
        r.mean_length,
        r.sd_length,
        r.min_length,
        r.max_length,
        by_kind.join(", "),
        1000.0 * secs / r.games as f64,
        states / secs,
        rayon::current_num_threads()
    );
    let extra: Vec<String> = r.extra.iter().map(|(k, v)| format!("{k} {v:.3}")).collect();
    if !extra.is_empty() {
        println!("means: {}", extra.join(", "));
    }
    let d = &r.design;
    let seats: Vec<String> = d.seat_win_rate.iter().map(|w| format!("{w:.3}")).collect();
    let lead = if d.lead_changes.is_nan() {
        "lead metrics unavailable (the game reports no trace)".to_string()
    } else {
        format!(
            "{:.2} lead changes a game, the winner leads for good from {:.0}% of the game",
            d.lead_changes,
            100.0 * d.decided_at
        )
    };
    println!(
        "design: seat win rates {} (seat advantage {:.3}), draws {:.1}%, no winner {:.1}%, ended by the rules {:.1}%, {lead}",
        seats.join(" / "),
        d.seat_advantage,
        100.0 * d.draw_rate,
        100.0 * d.stalemate_rate,
        100.0 * d.ended_by_rules,
    );
    if a.run.json {
        let win_rates: Vec<f64> = r.agents.iter().map(|ag| ag.win_rate).collect();
        let mut j = serde_json::json!({
            "game": game.name(), "games": r.games, "players": players, "agents": r.agents,
            "pairs": r.pairs, "win_rates": win_rates, "mean_length": r.mean_length,
            "sd_length": r.sd_length, "min_length": r.min_length, "max_length": r.max_length,
            "no_winner": r.no_winner, "seconds": secs, "states_per_second": states / secs,
            "mean_length_stalemated": r.mean_length_stalemated,
            "mean_length_finished": r.mean_length_finished,
        });
        // The game's settings as played, by name (e.g. `rules`), then its statistics.
        for (k, v) in values.pairs() {
            j[k] = serde_json::json!(v);
        }
        j["players"] = serde_json::json!(players);
        for (k, v) in &r.extra {
            j[k] = serde_json::json!(v);
        }
        // The metrics as Python's `tournament()["design"]` holds them: one shape.
        j["design"] = serde_json::json!(r.design);
        println!("{j}");
    }
    Ok(())
}

/// The values a setting takes, as a newcomer reads them: a list as its items, a
/// stepped range with its step, categories by name.
fn takes(domain: &playtune::space::Domain) -> String {
    use playtune::space::Domain;
    match domain {
        Domain::Int { min, max, step } if *step > 1 => {
            format!("{min} to {max} in steps of {step}")
        }
        Domain::Int { min, max, .. } => format!("{min} to {max}"),
        Domain::List(v) => {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            format!("one of {}", items.join(", "))
        }
        Domain::Categories(v) => format!("one of {}", v.join(", ")),
        Domain::Bool => "true or false".into(),
        Domain::Float { min, max, .. } => format!("{min} to {max}"),
    }
}

fn print_settings(indent: &str, settings: &[Setting]) {
    for s in settings {
        let tuned = s
            .tune
            .as_ref()
            .map(|d| format!(" [tune-agent: {}]", d.describe()))
            .unwrap_or_default();
        let range = match (&s.values, s.range) {
            (Some(values), _) => format!(" [takes {}]", takes(values)),
            (None, Some((lo, hi))) => format!(" [takes {lo} to {hi}]"),
            (None, None) => String::new(),
        };
        println!(
            "{indent}{}={}  {}{range}{tuned}",
            s.name, s.default, s.about
        );
    }
}

/// One game's settings, playability and own agents, as `playtune games` lists them.
fn print_game(game: &dyn playtune::harness::DynGame) {
    println!("{}  {}", game.name(), game.about());
    println!("  settings:");
    print_settings("    ", &game.settings());
    let playable = game
        .settings_values(&[])
        .and_then(|v| game.playability(&v))
        .unwrap_or_default();
    if !playable.is_empty() {
        println!(
            "  playable (design holds a search to these unless --set playable=false): {}",
            playable.join("; ")
        );
    }
    if let Some(ladder) = game.default_ladder() {
        if game.generic_ladder() {
            println!(
                "  playtune's generic ladder, weakest first: {} (a design run plays one built to be ordered instead: `playtune build-ladder`)",
                ladder.join(", ")
            );
        } else {
            println!("  its design ladder, weakest first: {}", ladder.join(", "));
        }
    }
    if !game.traced() {
        println!(
            "  lead metrics (lead_changes, decided_at): unavailable, its matches report no trace"
        );
    }
    // A game of rules only has no agents of its own: playtune's bots play it.
    if game.generic_ladder() {
        println!("  playtune's bots for it:");
    } else {
        println!("  its own agents and presets:");
    }
    for a in game.own_agents() {
        println!("    {}  {}", a.names.join(" | "), a.about);
        print_settings("      ", &a.settings);
    }
    println!();
}

/// `playtune games`: every built-in game and every described game on the search path
/// with its settings and own agents, then the generic agents every built-in game
/// offers; `playtune games GAME`: that game alone.
pub(super) fn games_cmd(only: Option<&str>) -> Result<()> {
    if let Some(name) = only {
        print_game(playtune::registry::game(name).map_err(anyhow::Error::msg)?);
        return Ok(());
    }
    for game in playtune::registry::GAMES {
        print_game(*game);
    }
    let described = playtune::games::external::listed();
    if !described.is_empty() {
        println!("described games (game descriptions on $PLAYTUNE_GAMES and ./games):");
        for path in described {
            match playtune::registry::game(&path.display().to_string()) {
                Ok(game) => {
                    print!("{}: ", path.display());
                    print_game(game);
                }
                Err(e) => println!("{}: {e}\n", path.display()),
            }
        }
    }
    println!("generic agents, in every built-in game (NAME or NAME(KEY=VALUE,...)):");
    for g in Generic::ALL {
        println!("  {}  {}", g.name(), g.about());
        print_settings("    ", &g.settings());
    }
    Ok(())
}
