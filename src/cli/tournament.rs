//! `playtune tournament`: Rinascimento games between named agents.

use crate::games::rinascimento::agents::{DEFAULT_BUDGET, RinAgentSpec};
use crate::games::rinascimento::tournament::tournament;
use crate::games::rinascimento::{Preset, Rules};
use anyhow::{Result, bail};
use clap::Args;

#[derive(Args)]
pub struct TournamentArgs {
    /// The game (rinascimento).
    #[arg(long, default_value = "rinascimento")]
    game: String,
    /// Players per game (2-4). With 2 players and more than 2 agents: a round robin.
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// Agents, comma-separated: rnd, osla, bmrh*, srh*, mcts* (one per seat, or a
    /// round-robin list with --players 2).
    #[arg(long, value_delimiter = ',', default_value = "rnd,rnd,rnd,rnd")]
    agents: Vec<String>,
    /// Readings where the spec and the reference Java framework differ: spec (the
    /// spec's rules, the paper's random player) or reference (the framework's end of
    /// game, full-hand reserve, card colours, and its random player's kind weights and
    /// give-back).
    #[arg(long, default_value = "spec")]
    rules: String,
    /// Games (per pairing in a round robin).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Forward-model budget per decision, in actions.
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    budget: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
}

pub fn run(a: TournamentArgs) -> Result<()> {
    if a.game != "rinascimento" {
        bail!(
            "--game {}: tournaments know rinascimento (Space Battle: `playtune play`)",
            a.game
        );
    }
    if !(2..=4).contains(&a.players) {
        bail!("--players {}: Rinascimento takes 2 to 4 players", a.players);
    }
    if a.games == 0 {
        bail!("--games 0: play at least one game");
    }
    let preset = Preset::parse(&a.rules).map_err(|e| anyhow::anyhow!("--rules: {e}"))?;
    let specs = a
        .agents
        .iter()
        .map(|n| RinAgentSpec::parse(n, a.budget).map(|s| preset.agent(s)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    let rules = preset.rules(Rules::splendor(a.players as u32));
    let started = std::time::Instant::now();
    let r = tournament(&rules, &specs, a.players, a.games, a.seed).map_err(anyhow::Error::msg)?;
    let secs = started.elapsed().as_secs_f64();
    let states = r.mean_length * r.games as f64;
    println!(
        "{} games of {} players, seed {}, budget {} per decision, {} rules",
        r.games,
        a.players,
        a.seed,
        a.budget,
        preset.name()
    );
    println!(
        "{:10} {:>8} {:>9} {:>8} {:>12}",
        "agent", "games", "win rate", "se", "mean points"
    );
    for ag in &r.agents {
        println!(
            "{:10} {:>8} {:>9.3} {:>8.3} {:>12.2}",
            ag.name, ag.games, ag.win_rate, ag.win_rate_se, ag.mean_points
        );
    }
    for p in &r.pairs {
        println!(
            "  {} vs {}: {} - {} of {}",
            r.agents[p.a].name, r.agents[p.b].name, p.wins_a, p.wins_b, p.games
        );
    }
    println!(
        "length {:.2} +- {:.2} (sd) actions, stalemates {} ({:.1}%), {:.3} ms a game, {:.0} states/s on {} thread(s)",
        r.mean_length,
        r.sd_length,
        r.stalemates,
        100.0 * r.stalemate_rate,
        1000.0 * secs / r.games as f64,
        states / secs,
        rayon::current_num_threads()
    );
    println!(
        "lengths: stalemated {:.1}, finished {:.1}, under 100 {:.1}%, 160 or more {:.1}%, min {}, max {}",
        r.mean_length_stalemated,
        r.mean_length_finished,
        100.0 * r.share_under_100,
        100.0 * r.share_160_plus,
        r.min_length,
        r.max_length
    );
    if a.json {
        let agents: Vec<_> = r
            .agents
            .iter()
            .map(|ag| serde_json::json!({"name": ag.name, "games": ag.games, "win_rate": ag.win_rate, "win_rate_se": ag.win_rate_se, "mean_points": ag.mean_points}))
            .collect();
        let win_rates: Vec<f64> = r.agents.iter().map(|ag| ag.win_rate).collect();
        println!(
            "{}",
            serde_json::json!({
                "games": r.games, "players": a.players, "mean_length": r.mean_length, "sd_length": r.sd_length,
                "stalemates": r.stalemates, "stalemate_rate": r.stalemate_rate, "win_rates": win_rates, "agents": agents,
                "seconds": secs, "states_per_second": states / secs, "rules": preset.name(),
                "mean_length_stalemated": r.mean_length_stalemated, "mean_length_finished": r.mean_length_finished,
                "share_under_100": r.share_under_100, "share_160_plus": r.share_160_plus,
                "min_length": r.min_length, "max_length": r.max_length,
            })
        );
    }
    Ok(())
}
