//! An external evaluator for playtune, in Rust: the weights of a Connect Four bot.
//!
//! Connect Four on a 6-wide, 5-high board: players drop pieces into columns in turn,
//! and the first with four in a row (across, up or diagonally) wins. The tuned bot
//! searches `depth` plies of minimax and scores the positions it reaches by the
//! windows of four cells it could still complete: `three` per window with three of
//! its pieces and an empty cell, `two` per window with two and two empty, `center` per
//! piece in the middle columns, and the opponent's windows likewise, times `defend`.
//! Its fitness is its score (1 a win, 1/2 a draw) over GAMES games, half of them
//! starting, against a fixed two-ply bot with middling weights; the first two moves of
//! each game are random, so that the games differ. Features: `moves`, the mean length
//! of a game, and `center`, the share of the tuned bot's moves in the middle columns.
//!
//! Build with `cargo build --release --example connect_eval`; the binary is then
//! `target/release/examples/connect_eval`. It serves both of playtune's modes: one
//! request on stdin and one result line out, or, with PLAYTUNE_WORKER=1 in the
//! environment, one reply line per request line (with the request's `id`) until its
//! input ends. Deterministic in the request's seed.

use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};

const COLS: usize = 6;
const ROWS: usize = 5;
const MIDDLE: [usize; 2] = [2, 3];
/// Above any heuristic score.
const WIN: f64 = 1e6;

/// splitmix64: all the randomness a game needs, from one seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone)]
struct Board {
    /// cells[col][row], row 0 at the bottom; 0 empty, 1 or 2 a player's piece.
    cells: [[u8; ROWS]; COLS],
    heights: [usize; COLS],
}

impl Board {
    fn new() -> Board {
        Board {
            cells: [[0; ROWS]; COLS],
            heights: [0; COLS],
        }
    }
    fn legal(&self) -> impl Iterator<Item = usize> + '_ {
        (0..COLS).filter(|&c| self.heights[c] < ROWS)
    }
    fn play(&mut self, col: usize, player: u8) {
        self.cells[col][self.heights[col]] = player;
        self.heights[col] += 1;
    }
    fn undo(&mut self, col: usize) {
        self.heights[col] -= 1;
        self.cells[col][self.heights[col]] = 0;
    }
    /// Whether the piece last dropped in `col` made four in a row.
    fn wins(&self, col: usize) -> bool {
        let row = self.heights[col] - 1;
        let who = self.cells[col][row];
        let at = |c: isize, r: isize| {
            c >= 0
                && r >= 0
                && (c as usize) < COLS
                && (r as usize) < ROWS
                && self.cells[c as usize][r as usize] == who
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| at(col as isize + sign * k * dc, row as isize + sign * k * dr))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }
}

/// Every window of four cells in a line, as (col, row) cells.
fn windows() -> Vec<[(usize, usize); 4]> {
    let mut all = Vec::new();
    for (dc, dr) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        for c in 0..COLS as isize {
            for r in 0..ROWS as isize {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if (0..COLS as isize).contains(&ec) && (0..ROWS as isize).contains(&er) {
                    let cell = |k: isize| ((c + k * dc) as usize, (r + k * dr) as usize);
                    all.push([cell(0), cell(1), cell(2), cell(3)]);
                }
            }
        }
    }
    all
}

#[derive(Clone, Copy)]
struct Weights {
    depth: usize,
    three: f64,
    two: f64,
    center: f64,
    defend: f64,
}

struct Bot<'a> {
    w: Weights,
    windows: &'a [[(usize, usize); 4]],
}

impl Bot<'_> {
    /// How good `b` looks to `me`.
    fn score(&self, b: &Board, me: u8) -> f64 {
        let mut s = 0.0;
        for win in self.windows {
            let (mut mine, mut theirs) = (0, 0);
            for &(c, r) in win {
                match b.cells[c][r] {
                    0 => {}
                    p if p == me => mine += 1,
                    _ => theirs += 1,
                }
            }
            let value = |n: usize| match n {
                3 => self.w.three,
                2 => self.w.two,
                _ => 0.0,
            };
            if theirs == 0 {
                s += value(mine);
            } else if mine == 0 {
                s -= self.w.defend * value(theirs);
            }
        }
        for c in MIDDLE {
            for r in 0..b.heights[c] {
                s += if b.cells[c][r] == me {
                    self.w.center
                } else {
                    -self.w.center
                };
            }
        }
        s
    }

    /// Minimax value for `me` of `b` with `to_move` to play, `depth` plies ahead.
    fn search(&self, b: &mut Board, to_move: u8, me: u8, depth: usize) -> f64 {
        if depth == 0 {
            return self.score(b, me);
        }
        let mut best: Option<f64> = None;
        for col in 0..COLS {
            if b.heights[col] == ROWS {
                continue;
            }
            b.play(col, to_move);
            // Sooner wins (more depth left) count for more.
            let v = if b.wins(col) {
                let v = WIN + depth as f64;
                if to_move == me { v } else { -v }
            } else {
                self.search(b, 3 - to_move, me, depth - 1)
            };
            b.undo(col);
            best = Some(match best {
                None => v,
                Some(x) if to_move == me => x.max(v),
                Some(x) => x.min(v),
            });
        }
        best.unwrap_or(0.0)
    }

    /// The best move for `me`, ties broken at random.
    fn choose(&self, b: &mut Board, me: u8, rng: &mut Rng) -> usize {
        let mut best = Vec::new();
        let mut top = f64::NEG_INFINITY;
        for col in b.legal().collect::<Vec<_>>() {
            b.play(col, me);
            let v = if b.wins(col) {
                WIN + self.w.depth as f64
            } else {
                self.search(b, 3 - me, me, self.w.depth - 1)
            };
            b.undo(col);
            if v > top + 1e-9 {
                top = v;
                best.clear();
            }
            if v >= top - 1e-9 {
                best.push(col);
            }
        }
        best[rng.below(best.len())]
    }
}

struct Totals {
    score: f64,
    moves: usize,
    tuned_moves: usize,
    tuned_middle: usize,
}

/// One game; the tuned bot is player 1 if `tuned_first`, else 2.
fn play(tuned: &Bot, baseline: &Bot, tuned_first: bool, rng: &mut Rng, t: &mut Totals) {
    let mut b = Board::new();
    let tuned_player = if tuned_first { 1 } else { 2 };
    let mut to_move = 1u8;
    for ply in 0..COLS * ROWS {
        let col = if ply < 2 {
            let legal: Vec<usize> = b.legal().collect();
            legal[rng.below(legal.len())]
        } else if to_move == tuned_player {
            tuned.choose(&mut b, to_move, rng)
        } else {
            baseline.choose(&mut b, to_move, rng)
        };
        if to_move == tuned_player {
            t.tuned_moves += 1;
            t.tuned_middle += usize::from(MIDDLE.contains(&col));
        }
        b.play(col, to_move);
        t.moves += 1;
        if b.wins(col) {
            t.score += f64::from(u8::from(to_move == tuned_player));
            return;
        }
        to_move = 3 - to_move;
    }
    t.score += 0.5;
}

fn number(point: &Value, name: &str, default: f64) -> Result<f64, String> {
    match point.get(name) {
        None => Ok(default),
        Some(v) => v
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("`{name}` must be a number, not {v}")),
    }
}

fn evaluate(request: &Value) -> Result<Value, String> {
    let point = request.get("point").ok_or("the request has no `point`")?;
    let seed = request
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or("the request has no numeric `seed`")?;
    let depth = number(point, "depth", 2.0)?;
    if !(1.0..=4.0).contains(&depth) {
        return Err(format!("depth must be 1 to 4, not {depth}"));
    }
    let tuned = Weights {
        depth: depth as usize,
        three: number(point, "three", 5.0)?,
        two: number(point, "two", 2.0)?,
        center: number(point, "center", 1.0)?,
        defend: number(point, "defend", 1.0)?,
    };
    let baseline = Weights {
        depth: 2,
        three: 4.0,
        two: 1.0,
        center: 1.0,
        defend: 1.0,
    };
    let games: usize = std::env::var("CONNECT_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100);
    let windows = windows();
    let (tuned, baseline) = (
        Bot {
            w: tuned,
            windows: &windows,
        },
        Bot {
            w: baseline,
            windows: &windows,
        },
    );
    let mut rng = Rng(seed);
    let mut t = Totals {
        score: 0.0,
        moves: 0,
        tuned_moves: 0,
        tuned_middle: 0,
    };
    for g in 0..games {
        play(&tuned, &baseline, g % 2 == 0, &mut rng, &mut t);
    }
    let games = games.max(1) as f64;
    Ok(json!({
        "fitness": t.score / games,
        "features": {
            "moves": t.moves as f64 / games,
            "center": t.tuned_middle as f64 / t.tuned_moves.max(1) as f64,
        },
    }))
}

fn serve() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request: Value = serde_json::from_str(&line)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        let mut reply = evaluate(&request).unwrap_or_else(|e| json!({ "error": e }));
        reply["id"] = request.get("id").cloned().unwrap_or(Value::Null);
        writeln!(out, "{reply}")?;
        out.flush()?;
    }
    Ok(())
}

fn main() {
    if std::env::var("PLAYTUNE_WORKER").as_deref() == Ok("1") {
        if let Err(e) = serve() {
            eprintln!("connect_eval: {e}");
            std::process::exit(1);
        }
        return;
    }
    let mut text = String::new();
    let result = std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::from_str::<Value>(&text).map_err(|e| e.to_string()))
        .and_then(|request| evaluate(&request));
    match result {
        Ok(r) => println!("{r}"),
        Err(e) => {
            eprintln!("connect_eval: {e}");
            std::process::exit(1);
        }
    }
}
