//! Search plans: the root's objects' futures, computed once per decision.
//!
//! Nothing a ship does moves a missile, bomb or pack: an object's path depends only on
//! where it starts and on the black holes, until a ship meets it. A search agent copies
//! its root state hundreds of times a decision and advances each copy up to some
//! horizon, so without a plan every copy re-moves every one of the root's objects every
//! tick. A [`SearchPlan`] moves them once, over the whole horizon, and files them per
//! tick in a grid of cells as wide as the largest ship-object reach; a copy then only
//! records which planned objects its ships have met, and each tick checks the planned
//! objects in the cells around each ship. The copies behave exactly as plain states
//! (the tests in `state.rs` step both side by side).

use super::geometry::{HEIGHT, Vec2, WIDTH};
use super::objects::{Object, SHIP_RADIUS};
use super::physics::{HoleField, move_object};

/// The root's objects over the ticks `start_tick + 1 ..= start_tick + horizon`.
#[derive(Debug, PartialEq)]
pub(crate) struct SearchPlan {
    pub(crate) start_tick: u32,
    pub(crate) horizon: u32,
    pub(crate) bomb_radius: u32,
    /// The root's objects, in order.
    pub(crate) roots: Vec<Object>,
    /// `during[(k - 1) * n + i]`: root object `i` as the ships meet it on tick
    /// `start_tick + k` (moved, not yet aged) if no ship had met it; `alive` is false
    /// once it is gone.
    during: Vec<Object>,
    cell_size: f64,
    cols: usize,
    rows: usize,
    /// `items[cell_start[(k - 1) * cells + c] .. cell_start[(k - 1) * cells + c + 1]]`:
    /// the objects present on tick `k` in cell `c` (cells in row-major order).
    cell_start: Vec<u32>,
    items: Vec<u32>,
}

impl SearchPlan {
    /// Plans `roots` (the objects of a state at `start_tick`) over `horizon` ticks.
    pub(crate) fn new(
        roots: &[Object],
        start_tick: u32,
        horizon: u32,
        field: &HoleField,
        bomb_radius: u32,
    ) -> Self {
        let n = roots.len();
        let h = horizon as usize;
        let mut during = Vec::with_capacity(n * h);
        let mut current = roots.to_vec();
        let mut reach = 1.0f64;
        for _ in 0..h {
            for object in current.iter_mut() {
                if object.alive {
                    move_object(object, field);
                    reach = reach.max(SHIP_RADIUS + object.radius);
                }
                during.push(*object);
                if object.alive {
                    object.end_tick(bomb_radius);
                }
            }
        }
        // A ship meets an object closer than their reach, so it need only look in its
        // own cell and the eight around it.
        let cell_size = reach;
        let cols = (WIDTH / cell_size).ceil() as usize;
        let rows = (HEIGHT / cell_size).ceil() as usize;
        let cells = cols * rows;
        let mut plan = Self {
            start_tick,
            horizon,
            bomb_radius,
            roots: roots.to_vec(),
            during,
            cell_size,
            cols,
            rows,
            cell_start: vec![0; h * cells + 1],
            items: Vec::new(),
        };
        // Counting sort of (tick, cell, object).
        let mut slot = Vec::with_capacity(n * h);
        for k in 0..h {
            for i in 0..n {
                let o = &plan.during[k * n + i];
                if o.alive {
                    let c = k * cells + plan.cell_of(o.pos);
                    plan.cell_start[c + 1] += 1;
                    slot.push((c, i as u32));
                }
            }
        }
        for c in 1..plan.cell_start.len() {
            plan.cell_start[c] += plan.cell_start[c - 1];
        }
        let mut next = plan.cell_start.clone();
        plan.items = vec![0; slot.len()];
        for (c, i) in slot {
            plan.items[next[c] as usize] = i;
            next[c] += 1;
        }
        plan
    }

    pub(crate) fn len(&self) -> usize {
        self.roots.len()
    }

    fn cell_coords(&self, pos: Vec2) -> (usize, usize) {
        // Positions lie on the map; `min` guards the last partial cell's edge. Via i32:
        // the quotients are small and non-negative, and a float to usize conversion
        // costs several times more.
        let cx = ((pos.x / self.cell_size) as i32 as usize).min(self.cols - 1);
        let cy = ((pos.y / self.cell_size) as i32 as usize).min(self.rows - 1);
        (cx, cy)
    }

    fn cell_of(&self, pos: Vec2) -> usize {
        let (cx, cy) = self.cell_coords(pos);
        cy * self.cols + cx
    }

    /// Root object `i` as the ships meet it on tick `start_tick + k` (1-based).
    #[inline]
    pub(crate) fn during(&self, k: u32, i: u32) -> &Object {
        &self.during[(k as usize - 1) * self.roots.len() + i as usize]
    }

    /// Calls `f` with every root object present on tick `start_tick + k` that could be
    /// within reach of a ship at `pos`: those in the 3 x 3 cells around it.
    #[inline]
    pub(crate) fn near(&self, k: u32, pos: Vec2, mut f: impl FnMut(u32)) {
        let (cx, cy) = self.cell_coords(pos);
        let base = (k as usize - 1) * self.cols * self.rows;
        let (x0, x1) = (cx.saturating_sub(1), (cx + 1).min(self.cols - 1));
        for y in cy.saturating_sub(1)..=(cy + 1).min(self.rows - 1) {
            // A row's three cells are adjacent in the sort: one run of items.
            let row = base + y * self.cols;
            let from = self.cell_start[row + x0] as usize;
            let to = self.cell_start[row + x1 + 1] as usize;
            for &i in &self.items[from..to] {
                f(i);
            }
        }
    }

    /// Root object `i` at the end of tick `start_tick + k` (`k` = 0: the root's), had no
    /// ship met it; `None` once it is gone.
    pub(crate) fn after(&self, k: u32, i: usize) -> Option<Object> {
        if k == 0 {
            return Some(self.roots[i]);
        }
        let mut o = *self.during(k, i as u32);
        (o.alive && o.end_tick(self.bomb_radius)).then_some(o)
    }
}
