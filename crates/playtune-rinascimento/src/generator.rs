//! The content a rule vector plays with ([`content_for`]: the real cards where they fit),
//! and procedural cards and nobles for rule vectors the real set does not cover: 3 to 8
//! token colours (`MIN_COLOURS`..=`MAX_COLOURS`) and 1 to 5 decks (..=`MAX_DECKS`).
//!
//! How it scales, and why the default reproduces the real statistics:
//! - **Templates.** Every real card is reduced to a colour-free template: its points, the
//!   cost in its own bonus colour, and the sorted costs in the other colours. Generated
//!   cards re-colour real templates, so each card keeps a real points/cost pairing.
//! - **Decks.** Deck `l` of `D` sits at position `0.5 + 3 (l + 0.5) / D` on the real
//!   level scale 1..3 (the centres of `D` equal slices of [0.5, 3.5]), clamped to [1, 3]:
//!   with 3 decks the positions are exactly 1, 2, 3; one deck is all level 2; five decks
//!   sit at 1, 1.4, 2, 2.6, 3. A card at a fractional position takes its template from
//!   the level below or above with probability given by the fraction, so expected cost
//!   and points interpolate linearly between real levels.
//! - **Card counts.** Splendor has 8, 6, 4 cards per colour at levels 1, 2, 3, i.e.
//!   `10 - 2 * position`; with `D` decks each deck gets that times `3 / D` (rounded), so
//!   the box holds about 18 cards per colour whatever the number of decks.
//! - **Colours.** Total cost is kept whatever the number of colours (the token income
//!   per turn does not depend on it). With fewer colours than a template's cost
//!   entries, the smallest entry is merged into the next smallest until they fit; the
//!   entries then go to randomly chosen distinct other colours.
//! - **Dealing.** Templates of a level are dealt from a shuffled pool, reshuffled only
//!   when used up. With 5 colours and 3 decks each colour gets 8/6/4 cards, the pools
//!   hold 40/30/20 templates and every one is dealt exactly once: mean cost and points
//!   per level equal the real cards' exactly, only the colours of the costs change.
//! - **Nobles.** Ten nobles of 3 points like the real ones: five need 3 bonuses in each
//!   of 3 colours, five need 4 in each of 2 (colours drawn at random).

use rand::RngExt;
use rand::seq::SliceRandom;

use super::cards::{Card, Content, MAX_CARDS, Noble, reference_splendor_content, splendor_content};
use super::rules::{CardColours, MAX_COLOURS, MAX_DECKS, MAX_NOBLES, MIN_COLOURS, Rules};
use playtune_optim::rng::{Rng, derive_seed, rng_from_seed};
use std::sync::{Mutex, OnceLock};

/// A real card without colours.
#[derive(Clone, Debug)]
struct Template {
    points: u8,
    own: u8,
    /// Costs in colours other than the bonus, largest first.
    others: Vec<u8>,
}

/// Position of deck `level` (0-based) of `decks` on the real level scale 1.0..=3.0.
pub(crate) fn deck_position(level: usize, decks: usize) -> f64 {
    (0.5 + 3.0 * (level as f64 + 0.5) / decks as f64).clamp(1.0, 3.0)
}

/// Cards of each colour in deck `level` of `decks`.
pub(crate) fn cards_per_colour(level: usize, decks: usize) -> usize {
    let pos = deck_position(level, decks);
    ((10.0 - 2.0 * pos) * 3.0 / decks as f64).round().max(1.0) as usize
}

/// Deals templates of one real level from a shuffled pool.
struct Dealer {
    pool: Vec<Template>,
    next: usize,
}

impl Dealer {
    fn deal(&mut self, rng: &mut Rng) -> Template {
        if self.next == self.pool.len() {
            self.pool.shuffle(rng);
            self.next = 0;
        }
        self.next += 1;
        self.pool[self.next - 1].clone()
    }
}

fn templates(level: usize) -> Vec<Template> {
    splendor_content()
        .cards
        .iter()
        .filter(|c| c.level as usize == level)
        .map(|c| {
            let b = c.bonus as usize;
            let mut others: Vec<u8> = (0..5)
                .filter(|&i| i != b && c.cost[i] > 0)
                .map(|i| c.cost[i])
                .collect();
            others.sort_unstable_by(|a, b| b.cmp(a));
            Template {
                points: c.points,
                own: c.cost[b],
                others,
            }
        })
        .collect()
}

/// Merges the smallest cost entries until at most `slots` remain (total kept).
fn fold(mut others: Vec<u8>, slots: usize) -> Vec<u8> {
    while others.len() > slots.max(1) {
        let smallest = others.pop().unwrap_or(0);
        if let Some(last) = others.last_mut() {
            *last = last.saturating_add(smallest);
        }
        others.sort_unstable_by(|a, b| b.cmp(a));
    }
    others
}

/// Cards and nobles for `colours` colours and `decks` decks (clamped to the supported
/// bounds), reproducible from `seed`.
pub(crate) fn generate(colours: usize, decks: usize, seed: u64) -> Content {
    let n = colours.clamp(MIN_COLOURS, MAX_COLOURS);
    let decks = decks.clamp(1, MAX_DECKS);
    let mut rng = rng_from_seed(derive_seed(seed, &[n as u64, decks as u64]));
    let mut dealers: Vec<Dealer> = (0..3)
        .map(|level| {
            let pool = templates(level);
            Dealer {
                next: pool.len(),
                pool,
            }
        })
        .collect();
    let mut cards = Vec::new();
    let mut palette: Vec<u8> = Vec::with_capacity(MAX_COLOURS);
    for level in 0..decks {
        let pos = deck_position(level, decks);
        let lower = (pos.floor() as usize).clamp(1, 3);
        let frac = pos - lower as f64;
        for bonus in 0..n {
            for _ in 0..cards_per_colour(level, decks) {
                let source = if frac > 1e-9 && rng.random_bool(frac) {
                    lower + 1
                } else {
                    lower
                };
                let t = dealers[(source - 1).min(2)].deal(&mut rng);
                let mut cost = [0u8; MAX_COLOURS];
                cost[bonus] = t.own;
                palette.clear();
                palette.extend((0..n as u8).filter(|&c| c as usize != bonus));
                palette.shuffle(&mut rng);
                for (amount, &colour) in fold(t.others, n - 1).iter().zip(&palette) {
                    cost[colour as usize] = *amount;
                }
                cards.push(Card {
                    level: level as u8,
                    bonus: bonus as u8,
                    points: t.points,
                    cost,
                });
            }
        }
    }
    debug_assert!(cards.len() <= MAX_CARDS);
    cards.truncate(MAX_CARDS);
    let nobles = (0..MAX_NOBLES)
        .map(|i| {
            let (count, amount) = if i < MAX_NOBLES / 2 { (3, 3) } else { (2, 4) };
            palette.clear();
            palette.extend(0..n as u8);
            palette.shuffle(&mut rng);
            let mut requires = [0u8; MAX_COLOURS];
            for &c in &palette[..count] {
                requires[c as usize] = amount;
            }
            Noble {
                points: 3,
                requires,
            }
        })
        .collect();
    Content {
        colours: n,
        decks,
        cards,
        nobles,
    }
}

/// The content for a rule vector: the real cards for 5 colours and 3 decks (as the
/// rules' [`CardColours`] pair bonuses with colours), otherwise cards generated for
/// (token_types, decks, content_seed), built once and cached.
pub(crate) fn content_for(rules: &Rules) -> &'static Content {
    if rules.uses_real_cards() {
        return match rules.card_colours {
            CardColours::Own => splendor_content(),
            CardColours::Reference => reference_splendor_content(),
        };
    }
    type Cache = Mutex<Vec<((u32, u32, u64), &'static Content)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (rules.token_types, rules.decks, rules.content_seed);
    let mut cache = CACHE
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, c)) = cache.iter().find(|(k, _)| *k == key) {
        return c;
    }
    let content: &'static Content = Box::leak(Box::new(generate(
        rules.token_types as usize,
        rules.decks as usize,
        rules.content_seed,
    )));
    cache.push((key, content));
    content
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_card_colours_move_four_bonuses() {
        let own = splendor_content();
        let reference = content_for(&Rules {
            card_colours: CardColours::Reference,
            ..Rules::default()
        });
        assert!(std::ptr::eq(reference, reference_splendor_content()));
        // White, blue, green, red, black count as green, blue, red, black, white.
        let moved = [2, 1, 3, 4, 0];
        for (a, b) in own.cards.iter().zip(&reference.cards) {
            assert_eq!((a.level, a.points, a.cost), (b.level, b.points, b.cost));
            assert_eq!(b.bonus, moved[a.bonus as usize]);
        }
        assert_eq!(own.nobles, reference.nobles);
        // Generated content ignores the setting.
        let g = Rules {
            token_types: 6,
            card_colours: CardColours::Reference,
            ..Rules::default()
        };
        assert!(std::ptr::eq(
            content_for(&g),
            content_for(&Rules {
                card_colours: CardColours::Own,
                ..g
            })
        ));
    }

    #[test]
    fn content_for_default_is_real_and_generated_is_cached() {
        let r = Rules::default();
        assert!(std::ptr::eq(content_for(&r), splendor_content()));
        let g = Rules {
            token_types: 6,
            ..Rules::default()
        };
        assert!(std::ptr::eq(content_for(&g), content_for(&g)));
        assert_eq!(content_for(&g).colours, 6);
    }

    fn total(c: &Card) -> u32 {
        c.cost.iter().map(|&x| x as u32).sum()
    }

    #[test]
    fn five_colours_three_decks_match_the_real_statistics() {
        let real = splendor_content();
        for seed in 0..5 {
            let g = generate(5, 3, seed);
            assert_eq!(g.cards.len(), 90);
            for level in 0..3 {
                assert_eq!(g.deck_size(level), real.deck_size(level));
                let (gc, gp) = g.level_means(level);
                let (rc, rp) = real.level_means(level);
                assert!(
                    (gc - rc).abs() < 1e-9 && (gp - rp).abs() < 1e-9,
                    "level {level}"
                );
                // Same multiset of (points, total cost) pairs.
                let mut a: Vec<(u8, u32)> = g
                    .cards
                    .iter()
                    .filter(|c| c.level as usize == level)
                    .map(|c| (c.points, total(c)))
                    .collect();
                let mut b: Vec<(u8, u32)> = real
                    .cards
                    .iter()
                    .filter(|c| c.level as usize == level)
                    .map(|c| (c.points, total(c)))
                    .collect();
                a.sort();
                b.sort();
                assert_eq!(a, b);
            }
            let req = |c: &Content| {
                c.nobles
                    .iter()
                    .map(|n| n.requires.iter().map(|&x| x as u32).sum::<u32>())
                    .sum::<u32>()
            };
            assert_eq!(req(&g), req(real));
            assert!(g.nobles.iter().all(|n| n.points == 3));
        }
        assert_eq!(generate(5, 3, 1), generate(5, 3, 1));
        assert_ne!(generate(5, 3, 1), generate(5, 3, 2));
    }

    #[test]
    fn every_supported_shape_is_well_formed() {
        for n in MIN_COLOURS..=MAX_COLOURS {
            for d in 1..=MAX_DECKS {
                let g = generate(n, d, 7);
                assert!(
                    g.cards.len() <= MAX_CARDS,
                    "{n} colours {d} decks: {}",
                    g.cards.len()
                );
                let per_colour = g.cards.len() as f64 / n as f64;
                assert!((16.0..=20.0).contains(&per_colour), "{n}/{d}: {per_colour}");
                for c in &g.cards {
                    assert!((c.bonus as usize) < n && (c.level as usize) < d);
                    assert!(c.cost[n..].iter().all(|&x| x == 0));
                    assert!(total(c) >= 3);
                }
                for level in 0..d {
                    assert!(g.deck_size(level) >= n);
                }
                // Later decks are dearer and worth more (on average over seeds: small
                // decks at neighbouring positions may invert by chance).
                let means = |level: usize| {
                    let m: Vec<(f64, f64)> = (0..20)
                        .map(|seed| generate(n, d, seed).level_means(level))
                        .collect();
                    (
                        m.iter().map(|x| x.0).sum::<f64>() / 20.0,
                        m.iter().map(|x| x.1).sum::<f64>() / 20.0,
                    )
                };
                for level in 1..d {
                    let (c0, p0) = means(level - 1);
                    let (c1, p1) = means(level);
                    assert!(
                        c1 > c0 && p1 > p0,
                        "{n}/{d} level {level}: {c0} {p0} -> {c1} {p1}"
                    );
                }
                assert_eq!(g.nobles.len(), MAX_NOBLES);
                for nb in &g.nobles {
                    assert!(nb.requires[n..].iter().all(|&x| x == 0));
                    let t: u32 = nb.requires.iter().map(|&x| x as u32).sum();
                    assert!(t == 8 || t == 9);
                }
            }
        }
    }

    #[test]
    fn folding_keeps_the_total() {
        assert_eq!(fold(vec![5, 3, 3, 3], 2), vec![8, 6]);
        assert_eq!(fold(vec![1, 1, 1, 1], 2), vec![2, 2]);
        assert_eq!(fold(vec![3], 2), vec![3]);
    }
}
