//! `playtune play` and `playtune render`: one Space Battle game between named agents,
//! on default parameters, a point written by name, or a run's recommendation.

use crate::games::space_battle::problem::{SbeAgent, space};
use crate::games::space_battle::{SbeParams, SbeState, play_from};
use crate::plot::space_battle::{Snapshot, game_map};
use crate::rng::derive_seed;
use crate::run::read_result;
use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct GameArgs {
    /// The game (only space-battle so far; Rinascimento plays through `tournament`).
    #[arg(long, alias = "problem", default_value = "space-battle")]
    game: String,
    /// Game parameters: NAME=VALUE,NAME=VALUE (the rest keep their defaults), or a
    /// run folder / result.ron whose recommendation to play.
    #[arg(long)]
    params: Option<String>,
    /// Which trial's recommendation, when --params names a run.
    #[arg(long, default_value_t = 0)]
    trial: usize,
    /// Agent flying ship 0: nothing, random, ras, 1sla, mcts.
    #[arg(long, default_value = "mcts")]
    p1: String,
    /// Agent flying ship 1 [default: the one ENEMY_ID picks].
    #[arg(long)]
    p2: Option<String>,
    /// A setting of the space-battle problem, NAME=VALUE (max_ticks, mcts_iterations, ...).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct RenderArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Ticks to draw, one panel each [default: 0, a third, two thirds, the end].
    #[arg(long, value_delimiter = ',')]
    at: Vec<u32>,
    /// Output picture (.png or .svg).
    #[arg(long, default_value = "plots/space_battle.png")]
    out: PathBuf,
}

/// The point to play: defaults, overridden by NAME=VALUE pairs or a run's recommendation.
fn params(a: &GameArgs) -> Result<SbeParams> {
    let s = space();
    let mut given: BTreeMap<String, String> = BTreeMap::new();
    if let Some(p) = &a.params {
        let path = Path::new(p);
        if path.exists() {
            let dir = if path.is_dir() {
                path.to_path_buf()
            } else {
                path.parent().unwrap_or(Path::new(".")).to_path_buf()
            };
            let r = read_result(&dir).map_err(anyhow::Error::msg)?;
            let t = r.trials.get(a.trial).ok_or_else(|| {
                anyhow!(
                    "--trial {}: the run has {} trial(s)",
                    a.trial,
                    r.trials.len()
                )
            })?;
            given.extend(t.recommendation.iter().cloned());
        } else {
            for pair in p.split(',').filter(|x| !x.trim().is_empty()) {
                let (k, v) = pair
                    .split_once('=')
                    .ok_or_else(|| anyhow!("--params {pair}: expected NAME=VALUE"))?;
                given.insert(k.trim().into(), v.trim().into());
            }
        }
    }
    let mut values = s.decode(&s.default_indices());
    for (k, v) in &given {
        let i = s
            .position(k)
            .ok_or_else(|| anyhow!("--params: Space Battle has no parameter `{k}`"))?;
        values[i] = s.dims[i].domain.parse_number(v).ok_or_else(|| {
            anyhow!(
                "--params {k}={v}: not a value of {k} ({})",
                s.dims[i].domain.describe()
            )
        })?;
    }
    SbeParams::from_values(|n| s.position(n).map(|i| values[i])).map_err(anyhow::Error::msg)
}

struct Prepared {
    params: SbeParams,
    p0: SbeAgent,
    p1: SbeAgent,
    config: crate::games::space_battle::problem::SkillDepthConfig,
}

fn prepare(a: &GameArgs) -> Result<Prepared> {
    if a.game != "space-battle" {
        bail!(
            "--game {}: play and render know space-battle (Rinascimento: `playtune tournament`)",
            a.game
        );
    }
    let mut settings = BTreeMap::new();
    for s in &a.settings {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| anyhow!("--set {s}: expected NAME=VALUE"))?;
        settings.insert(k.trim().to_string(), v.trim().to_string());
    }
    let config = crate::registry::space_battle_settings(&settings).map_err(anyhow::Error::msg)?;
    let params = params(a)?;
    let p0 = SbeAgent::parse(&a.p1).map_err(anyhow::Error::msg)?;
    let p1 = match &a.p2 {
        Some(n) => SbeAgent::parse(n).map_err(anyhow::Error::msg)?,
        None => SbeAgent::enemy(params.enemy_id).map_err(anyhow::Error::msg)?,
    };
    Ok(Prepared {
        params,
        p0,
        p1,
        config,
    })
}

/// Plays the game, calling `observe` on every state before its step.
fn play(
    p: &Prepared,
    seed: u64,
    observe: &mut dyn FnMut(&SbeState),
) -> crate::games::space_battle::GameRecord {
    let mut a0 = p.p0.build(&p.config.mcts);
    let mut a1 = p.p1.build(&p.config.mcts);
    let state =
        SbeState::new(p.params.clone(), derive_seed(seed, &[0])).with_max_ticks(p.config.max_ticks);
    play_from(state, a0.as_mut(), a1.as_mut(), seed, &mut |s, _| {
        observe(s)
    })
}

pub fn play_cmd(a: GameArgs) -> Result<()> {
    let p = prepare(&a)?;
    let started = std::time::Instant::now();
    let r = play(&p, a.seed, &mut |_| {});
    let secs = started.elapsed().as_secs_f64();
    let t = crate::games::space_battle::problem::game_t(&r);
    println!(
        "{} (ship 0) vs {} (ship 1), {} ticks, seed {}",
        p.p0.name(),
        p.p1.name(),
        r.ticks,
        a.seed
    );
    for s in 0..2 {
        let st = &r.ships[s];
        println!(
            "  ship {s}: {:>7.1} points  {} kills, {} packs, {} missiles fired, {} penalty ticks",
            r.scores[s], st.kills, st.collected, st.shots_fired, st.penalty_ticks
        );
    }
    let outcome = match r.winner() {
        Some(w) => format!("ship {w} wins"),
        None => "draw".into(),
    };
    println!("{outcome}; T (Eq. 2, ship 0's side) = {t:.2}; {secs:.2} s");
    if a.json {
        println!(
            "{}",
            serde_json::json!({"p1": p.p0.name(), "p2": p.p1.name(), "scores": r.scores, "winner": r.winner(), "t": t, "ticks": r.ticks, "seconds": secs})
        );
    }
    Ok(())
}

pub fn render_cmd(a: RenderArgs) -> Result<()> {
    if !crate::plot::is_picture(&a.out) {
        bail!(
            "--out {}: the file name must end in .png or .svg",
            a.out.display()
        );
    }
    let p = prepare(&a.game)?;
    let end = p.config.max_ticks;
    let mut at = if a.at.is_empty() {
        vec![0, end / 3, 2 * end / 3, end]
    } else {
        a.at.clone()
    };
    at.sort_unstable();
    at.dedup();
    let mut trails: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    let mut snaps = Vec::new();
    let mut last: Option<SbeState> = None;
    let record = play(&p, a.game.seed, &mut |s| {
        for (i, t) in trails.iter_mut().enumerate() {
            t.push((s.ship(i).pos.x, s.ship(i).pos.y));
        }
        if at.contains(&s.tick()) {
            snaps.push(Snapshot {
                tick: s.tick(),
                state: s.clone(),
                trails: trails.clone(),
            });
        }
        last = Some(s.clone());
    });
    // The final state is not observed (no step follows it): add it if asked for.
    if let Some(s) = last {
        if at.iter().any(|&t| t >= record.ticks)
            && !snaps
                .iter()
                .any(|x| x.tick >= record.ticks.saturating_sub(1))
        {
            snaps.push(Snapshot {
                tick: s.tick() + 1,
                state: s,
                trails: trails.clone(),
            });
        }
    }
    if snaps.is_empty() {
        bail!("--at {:?}: the game lasted {} ticks", a.at, record.ticks);
    }
    let title = format!(
        "{} vs {}: {:.0} to {:.0}",
        p.p0.name(),
        p.p1.name(),
        record.scores[0],
        record.scores[1]
    );
    game_map(&a.out, &title, &snaps).with_context(|| format!("rendering {}", a.out.display()))?;
    println!("wrote {}", a.out.display());
    Ok(())
}
