//! What the match protocol costs: matches a second of examples/duel played by its
//! Python process and its JavaScript process over the protocol, against the same rules
//! in Rust in process ([`playtune::games::external::duel::Duel`]), in one process on
//! one thread, alternating rounds. `benches/match_overhead.sh` runs it beside the
//! Python class in process and prints the table docs/benchmarks.md quotes.
//!
//!     cargo bench --bench match_overhead [-- ROUNDS MATCHES]

use playtune::games::external::{Description, ExternalGame, duel::Duel, load};
use playtune::harness::{AgentSpec, DynGame, GameRequest};
use std::path::Path;
use std::time::Instant;

fn rate(game: &dyn DynGame, matches: usize) -> f64 {
    let req = GameRequest {
        settings: game
            .settings_values(&[
                ("edge".into(), "0.4".into()),
                ("rounds".into(), "11".into()),
            ])
            .unwrap(),
        agents: AgentSpec::parse_all(&["novice", "expert"]).unwrap(),
        budget: None,
        seed: 7,
    };
    let start = Instant::now();
    let r = game
        .tournament(&req, matches)
        .expect("the tournament plays");
    assert_eq!(r.design.games, matches);
    matches as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = args.first().copied().unwrap_or(5);
    let matches = args.get(1).copied().unwrap_or(4000);
    // One thread: the cost of a match, not how many cores there are.
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("the first pool");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/duel");
    let rust = ExternalGame::with_player(
        Description::load(&root.join("duel.ron")).expect("duel.ron reads"),
        Box::new(Duel),
    );
    let mut games: Vec<(&str, &dyn DynGame)> = vec![("rust in process", &rust)];
    games.push((
        "python process",
        load(&root.join("duel.ron")).expect("duel.ron"),
    ));
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok();
    if node {
        games.push((
            "javascript process",
            load(&root.join("duel-js.ron")).expect("duel-js.ron"),
        ));
    } else {
        eprintln!("node is not installed: the JavaScript process is left out");
    }
    // A first match starts the processes: not counted.
    for (_, g) in &games {
        rate(*g, 10);
    }
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); games.len()];
    for _ in 0..rounds {
        for (i, (_, g)) in games.iter().enumerate() {
            rates[i].push(rate(*g, matches));
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let base = median(&mut rates[0].clone());
    println!("matches a second, one thread, median of {rounds} rounds of {matches} matches");
    for (i, (name, _)) in games.iter().enumerate() {
        let m = median(&mut rates[i]);
        println!(
            "{name:20} {m:12.0}   {:8.1}x the Rust rules' time",
            base / m
        );
    }
}
