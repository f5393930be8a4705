//! Pictures: what every drawing shares, so that a game (floor 3) can draw its own map
//! and the charts (`plot`, floor 5) share the same file handling. The errors and the
//! choice of frames are always here; drawing itself (the bundled font, PNG and SVG
//! files, legends) comes with the `draw` feature, which brings plotters: a game that
//! draws nothing builds none of it.

#[cfg(feature = "draw")]
mod picture;
#[cfg(feature = "draw")]
pub use picture::*;

/// An error while drawing or writing a picture.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {message}")]
pub struct PlotError {
    /// The picture's file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

/// What the drawing library reported while drawing. Its error type differs with each
/// backend (PNG, SVG) a chart is drawn on, so one drawing, written once for both,
/// keeps its message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DrawError(String);

/// Keeps a drawing error's message (see [`DrawError`]).
pub fn text<E: std::fmt::Display>(e: E) -> DrawError {
    DrawError(e.to_string())
}

/// About how wide `s` is in pixels at font size `size` (DejaVu Sans averages a little
/// under 0.6 em; a wide letter or two more is allowed for).
pub fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.58
}

/// One panel of a game's picture: which state of its history, after how many turns,
/// and whether it is the final state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The state's index in the history.
    pub index: usize,
    /// Turns played before it.
    pub turn: u32,
    /// Whether it is the final state.
    pub end: bool,
}

/// The states to draw for `at`, a list of turns (empty: the start, a third, two thirds
/// and the end), given how many turns each state of a game's history comes after
/// (never decreasing; the last is the final state). A turn draws the first state that
/// many turns in; a turn past the final state's (`u32::MAX`: `--at end`) draws the
/// final state, so the end can always be drawn. Sorted, without repeats.
pub fn frames(turns: &[u32], at: &[u32]) -> Vec<Frame> {
    let Some(&end) = turns.last() else {
        return Vec::new();
    };
    let last = turns.len() - 1;
    let wanted: Vec<u32> = if at.is_empty() {
        vec![0, end / 3, 2 * end / 3, u32::MAX]
    } else {
        at.to_vec()
    };
    let mut indices: Vec<usize> = wanted
        .iter()
        .map(|&k| {
            if k > end {
                last
            } else {
                turns.iter().position(|&t| t >= k).unwrap_or(last)
            }
        })
        .collect();
    indices.sort_unstable();
    indices.dedup();
    indices
        .into_iter()
        .map(|index| Frame {
            index,
            turn: turns[index],
            end: index == last,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_take_turns_and_always_reach_the_end() {
        // Two states a turn (a turn-based game), the final one after turn 3.
        let turns = [0, 0, 1, 1, 2, 2, 3];
        let f = frames(&turns, &[]);
        let picked: Vec<(usize, u32, bool)> = f.iter().map(|f| (f.index, f.turn, f.end)).collect();
        assert_eq!(
            picked,
            [(0, 0, false), (2, 1, false), (4, 2, false), (6, 3, true)]
        );
        // Past the end, or `end` (u32::MAX): the final state, once.
        let f = frames(&turns, &[40, 1, u32::MAX, 1]);
        assert_eq!(f.len(), 2);
        assert_eq!((f[0].index, f[0].turn), (2, 1));
        assert!(f[1].end && f[1].index == 6);
        // One state a turn (ticks): turn k is state k.
        let ticks: Vec<u32> = (0..=10).collect();
        let f = frames(&ticks, &[5, 0]);
        assert_eq!(f.iter().map(|f| f.index).collect::<Vec<_>>(), [0, 5]);
        // A game that ended during turn 1: "after 1 turn" is the start of turn 1, the
        // end is the last state, and the default's last panel is the end.
        let mid = [0, 0, 1, 1, 1];
        assert_eq!(frames(&mid, &[1])[0].index, 2);
        assert!(frames(&mid, &[2])[0].end);
        let f = frames(&mid, &[]);
        assert_eq!(f.iter().map(|f| f.index).collect::<Vec<_>>(), [0, 4]);
        assert!(frames(&[], &[1]).is_empty());
    }
}
