use super::*;
use proptest::prelude::*;

proptest! {
    /// The scorer's mean of its prepared point is the model's, bit for bit.
    #[test]
    fn the_prepared_point_mean_is_the_model_mean(
        raw in prop::collection::vec((prop::collection::vec(0u32..3, 4), -10.0f64..10.0), 1..40),
        query in prop::collection::vec(0u32..3, 4),
    ) {
        let mut tuples: Vec<Vec<usize>> = (0..4).map(|i| vec![i]).collect();
        for i in 0..4 { for j in i + 1..4 { tuples.push(vec![i, j]); } }
        tuples.push((0..4).collect());
        let mut model = TupleModel::new(&tuples, &[3, 3, 3, 3]);
        for (p, f) in &raw { model.add(p, *f); }
        let mut scorer = MeanScorer::default();
        for p in raw.iter().map(|(p, _)| p).chain([&query]) {
            scorer.prepare(&model, p);
            prop_assert_eq!(
                scorer.point_mean().map(f64::to_bits),
                model.mean(p).map(f64::to_bits)
            );
        }
    }
}

proptest! {
    /// Every tuple's statistics equal a brute-force recomputation from the raw log.
    #[test]
    fn tuple_statistics_match_brute_force(
        arity in prop::collection::vec(2usize..6, 2..6),
        raw in prop::collection::vec((prop::collection::vec(0u32..1000, 6), -10.0f64..10.0), 1..60),
    ) {
        let d = arity.len();
        let points: Vec<(Vec<u32>, f64)> = raw.iter()
            .map(|(p, f)| (p.iter().take(d).zip(&arity).map(|(&v, &m)| v % m as u32).collect(), *f))
            .collect();
        let mut tuples: Vec<Vec<usize>> = (0..d).map(|i| vec![i]).collect();
        for i in 0..d { for j in i + 1..d { tuples.push(vec![i, j]); } }
        tuples.push((0..d).collect());
        let mut model = TupleModel::new(&tuples, &arity);
        for (p, f) in &points { model.add(p, *f); }
        prop_assert_eq!(model.evaluations(), points.len() as u64);
        for (t, dims) in tuples.iter().enumerate() {
            for (query, _) in &points {
                let same: Vec<f64> = points.iter()
                    .filter(|(p, _)| dims.iter().all(|&k| p[k] == query[k]))
                    .map(|(_, f)| *f).collect();
                let s = model.stat(t, query).unwrap();
                prop_assert_eq!(s.n as usize, same.len());
                let mean = same.iter().sum::<f64>() / same.len() as f64;
                prop_assert!((s.mean() - mean).abs() < 1e-9);
                let sq: f64 = same.iter().map(|x| x * x).sum();
                prop_assert!((s.sum_sq - sq).abs() < 1e-6);
            }
        }
    }
}

proptest! {
    /// The incremental neighbour means and point estimates are within their bounds
    /// of the full means, and a dimension's ceiling is above every neighbour's mean.
    #[test]
    fn incremental_means_are_within_their_bound(
        raw in prop::collection::vec((prop::collection::vec(0u32..3, 5), -1e3f64..1e3), 1..40),
    ) {
        let arity = [3usize; 5];
        let mut tuples: Vec<Vec<usize>> = (0..5).map(|i| vec![i]).collect();
        for i in 0..5 { for j in i + 1..5 { tuples.push(vec![i, j]); } }
        tuples.push((0..5).collect());
        let mut model = TupleModel::new(&tuples, &arity);
        for (p, f) in &raw { model.add(p, *f); }
        let mut scorer = MeanScorer::default();
        let ceilings = model.ceilings_by_dim(&model.mean_ceilings());
        for (p, _) in &raw {
            scorer.prepare(&model, p);
            let own = model.mean(p).unwrap();
            let (estimate, slack) = scorer.point_estimate().unwrap();
            prop_assert!((own - estimate).abs() <= slack, "{} {} {}", own, estimate, slack);
            for d in 0..5 {
                let ceiling = scorer.ceiling(&model, d, &ceilings[d]);
                for v in 0..3 {
                    let mut q = p.clone();
                    q[d] = v;
                    if let Some(m) = model.mean(&q) {
                        prop_assert!(ceiling.is_some_and(|c| m <= c), "{} {:?}", m, ceiling);
                    }
                }
                for v in 0..3 {
                    let mut q = p.clone();
                    q[d] = v;
                    let exact = model.mean(&q);
                    let fast = scorer.mean(&model, &q, d);
                    prop_assert_eq!(exact.is_some(), fast.is_some());
                    if let (Some(e), Some((m, bound))) = (exact, fast) {
                        prop_assert!((e - m).abs() <= bound, "{} {} {}", e, m, bound);
                    }
                }
            }
        }
    }
}

#[test]
fn unseen_patterns_and_ucb() {
    let mut m = TupleModel::new(&[vec![0], vec![1], vec![0, 1]], &[3, 3]);
    m.add(&[0, 0], 1.0);
    m.add(&[0, 1], 3.0);
    assert_eq!(m.mean(&[2, 2]), None);
    assert_eq!(m.mean(&[0, 1]), Some((2.0 + 3.0 + 3.0) / 3.0));
    let mut table = Vec::new();
    m.exploration_table(0.5, &mut table);
    assert_eq!(table.len(), 3);
    assert!((table[0] - (3f64.ln() / 0.5).sqrt()).abs() < 1e-12);
    // An unseen point: mean 0, every tuple explores at n = 0.
    assert!((m.ucb(&[2, 2], 2.0, &table) - 2.0 * table[0]).abs() < 1e-12);
    // [1, 1]: tuple 1 seen once (mean 3), tuples 0 and 2 unseen.
    let expect = 3.0 + 2.0 * (table[1] + 2.0 * table[0]) / 3.0;
    assert!((m.ucb(&[1, 1], 2.0, &table) - expect).abs() < 1e-12);
}

#[test]
fn incremental_scores_equal_full_scores() {
    use crate::rng::rng_from_seed;
    use rand::RngExt;
    let arity = vec![2, 3, 4, 2, 5, 3];
    let mut tuples: Vec<Vec<usize>> = (0..6).map(|i| vec![i]).collect();
    for i in 0..6 {
        for j in i + 1..6 {
            tuples.push(vec![i, j]);
        }
    }
    tuples.push((0..6).collect());
    let mut m = TupleModel::new(&tuples, &arity);
    let mut rng = rng_from_seed(3);
    let random = |rng: &mut crate::rng::Rng| {
        arity
            .iter()
            .map(|&a| rng.random_range(0..a as u32))
            .collect::<Vec<_>>()
    };
    let mut scorer = NeighbourScorer::default();
    let mut explore = Vec::new();
    for _ in 0..60 {
        let current = random(&mut rng);
        m.add(&current, rng.random::<f64>() * 10.0);
        m.exploration_table(0.5, &mut explore);
        scorer.prepare(&m, &current, &explore);
        for _ in 0..20 {
            let other = random(&mut rng);
            let changed: Vec<usize> = (0..6).filter(|&d| other[d] != current[d]).collect();
            let full = m.ucb(&other, 1.5, &explore);
            let fast = scorer.score(&m, &other, &changed, 1.5, &explore);
            assert!((full - fast).abs() < 1e-9, "{full} vs {fast}");
        }
    }
}

#[test]
fn huge_tuples_hash_their_keys() {
    let arity = vec![1000usize; 8]; // 10^24 patterns: more than 64 bits
    let mut m = TupleModel::new(&[(0..8).collect()], &arity);
    m.add(&[1, 2, 3, 4, 5, 6, 7, 8], 2.0);
    assert_eq!(m.stat(0, &[1, 2, 3, 4, 5, 6, 7, 8]).map(|s| s.n), Some(1));
    assert!(m.stat(0, &[1, 2, 3, 4, 5, 6, 7, 9]).is_none());
}
