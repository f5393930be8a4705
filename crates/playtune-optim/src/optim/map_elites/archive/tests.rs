use super::*;

fn axis(bins: usize) -> FeatureAxis {
    FeatureAxis {
        name: "f".into(),
        low: 0.0,
        high: 10.0,
        bins,
    }
}

fn grid(axes: usize, bins: usize, overflow: bool) -> GridArchive {
    GridArchive::new(
        vec![axis(bins); axes],
        (0..axes).collect(),
        overflow,
        Better::Greater,
        None,
        0.0,
    )
}

fn out(status: AddStatus, improvement: f64) -> AddOutcome {
    AddOutcome {
        status,
        improvement,
    }
}

#[test]
fn bins_clip_or_overflow() {
    let a = grid(1, 10, false);
    assert_eq!(
        [-5.0, 0.0, 9.99, 10.0, 50.0].map(|x| a.bin(0, x)),
        [0, 0, 9, 9, 9]
    );
    let mut o = grid(1, 10, true);
    assert_eq!([-5.0, 0.0, 10.0, 50.0].map(|x| o.bin(0, x)), [0, 1, 10, 11]);
    assert_eq!(o.cells(), 12);
    // Under- and overflowing points are elites of their own edge buckets.
    assert_eq!(o.add(&[1.0], 1.0, &[-5.0], 0).status, AddStatus::New);
    assert_eq!(o.add(&[2.0], 1.0, &[50.0], 1).status, AddStatus::New);
    assert_eq!(o.add(&[3.0], 1.0, &[0.5], 2).status, AddStatus::New);
    assert_eq!(o.get(&[0]).unwrap().values, [1.0]);
    assert_eq!(o.get(&[11]).unwrap().values, [2.0]);
    assert_eq!(o.get(&[1]).unwrap().values, [3.0]);
}

#[test]
fn add_reports_status_and_improvement() {
    let mut a = GridArchive::new(
        vec![axis(2), axis(2)],
        vec![0, 1],
        false,
        Better::Greater,
        None,
        1.0,
    );
    assert_eq!(a.add(&[1.0], 5.0, &[1.0, 1.0], 0), out(AddStatus::New, 4.0));
    assert_eq!(
        a.add(&[2.0], 5.0, &[1.0, 1.0], 1),
        out(AddStatus::NotAdded, 0.0),
        "equal fitness does not replace under Greater"
    );
    assert_eq!(
        a.add(&[3.0], 7.0, &[2.0, 2.0], 2),
        out(AddStatus::Improved, 2.0)
    );
    assert_eq!(
        a.add(&[4.0], 1.0, &[2.0, 2.0], 3),
        out(AddStatus::NotAdded, -6.0)
    );
    assert_eq!(a.add(&[5.0], 2.0, &[9.0, 9.0], 4), out(AddStatus::New, 1.0));
    let nan = a.add(&[6.0], f64::NAN, &[9.0, 1.0], 5);
    assert!(nan.status == AddStatus::NotAdded && nan.improvement.is_nan());
    let m = a.metrics(6);
    assert_eq!(
        (
            m.filled,
            m.coverage,
            m.qd_score,
            m.max_fitness,
            m.mean_fitness
        ),
        (2, 0.5, 7.0, 7.0, 4.5)
    );
    assert_eq!((a.coverage(), a.qd_score()), (0.5, 7.0));
    assert_eq!(a.best().unwrap().values, [3.0]);
    assert_eq!(a.get(&[0, 0]).unwrap().found_at, 2);
    assert!(a.get(&[0, 1]).is_none());
}

#[test]
fn the_qd_score_is_the_sum_of_improvements() {
    let mut a = grid(2, 5, true);
    a.store.qd_offset = -3.0;
    let mut rng = rng_from_seed(3);
    let mut sum = 0.0;
    for i in 0..500 {
        let f = [rng.random_range(-2.0..12.0), rng.random_range(-2.0..12.0)];
        let o = a.add(&[i as f64], rng.random_range(-1.0..1.0), &f, i);
        if o.status != AddStatus::NotAdded {
            assert!(o.status == AddStatus::New || o.improvement > 0.0);
            sum += o.improvement;
        } else {
            assert!(o.improvement <= 0.0);
        }
    }
    assert!(
        (a.qd_score() - sum).abs() < 1e-9,
        "{} vs {sum}",
        a.qd_score()
    );
}

#[test]
fn lexicographic_ties_go_to_the_newcomer() {
    let mut l = GridArchive::new(
        vec![axis(1)],
        vec![0],
        false,
        Better::Lexicographic {
            secondary: "s".into(),
        },
        Some(1),
        0.0,
    );
    assert_eq!(l.add(&[1.0], 0.5, &[1.0, 10.0], 0).status, AddStatus::New);
    assert_eq!(
        l.add(&[2.0], 0.5, &[1.0, 9.0], 1).status,
        AddStatus::NotAdded
    );
    assert_eq!(
        l.add(&[3.0], 0.5, &[1.0, 10.0], 2),
        out(AddStatus::Improved, 0.0),
        "ties go to the newcomer"
    );
    assert_eq!(
        l.add(&[4.0], 0.6, &[1.0, 0.0], 3).status,
        AddStatus::Improved
    );
}

fn cvt(k: usize, seed: u64) -> CvtArchive {
    let axes = vec![
        axis(1),
        FeatureAxis {
            name: "g".into(),
            low: -1.0,
            high: 1.0,
            bins: 1,
        },
    ];
    CvtArchive::new(
        axes,
        vec![0, 1],
        k,
        20 * k,
        seed,
        Better::Greater,
        None,
        0.0,
    )
}

#[test]
fn cvt_centroids_are_seeded_spread_and_found_by_nearest() {
    let a = cvt(50, 7);
    assert_eq!(a, cvt(50, 7), "same seed, same cells");
    assert_ne!(a.centroids, cvt(50, 8).centroids);
    assert_eq!(a.cells(), 50);
    for c in &a.centroids {
        assert!((0.0..=10.0).contains(&c[0]) && (-1.0..=1.0).contains(&c[1]));
    }
    // Spread: every quarter of the box holds some centroids (k-means over uniform
    // samples puts about k/4 in each).
    for (x, y) in [(0.0, -1.0), (5.0, -1.0), (0.0, 0.0), (5.0, 0.0)] {
        let n = a
            .centroids
            .iter()
            .filter(|c| c[0] >= x && c[0] < x + 5.0 && c[1] >= y && c[1] < y + 1.0)
            .count();
        assert!((6..=19).contains(&n), "{n} centroids in quarter ({x}, {y})");
    }
    // Nearest centroid by brute force in range units; each centroid is its own.
    let mut rng = rng_from_seed(1);
    for (i, c) in a.centroids.iter().enumerate() {
        assert_eq!(a.nearest(c), i);
        let p = [rng.random_range(-5.0..15.0), rng.random_range(-2.0..2.0)];
        let d = |c: &Vec<f64>| ((c[0] - p[0]) / 10.0).powi(2) + ((c[1] - p[1]) / 2.0).powi(2);
        let n = a.nearest(&p);
        assert!(a.centroids.iter().all(|c| d(c) >= d(&a.centroids[n])));
    }
}

#[test]
fn cvt_add_fills_the_nearest_cell_and_survives_a_round_trip() {
    let mut a = cvt(20, 1);
    let f = a.centroids[3].clone();
    assert_eq!(a.add(&[1.0], 2.0, &f, 0), out(AddStatus::New, 2.0));
    assert_eq!(a.add(&[2.0], 3.0, &f, 1), out(AddStatus::Improved, 1.0));
    assert_eq!(a.get(3).unwrap().cell, [3]);
    assert_eq!(a.coverage(), 0.05);
    let mut back: AnyArchive =
        ron::from_str(&ron::to_string(&AnyArchive::Cvt(a.clone())).unwrap()).unwrap();
    back.reindex();
    assert_eq!(back.add(&[3.0], 2.5, &f, 2).status, AddStatus::NotAdded);
    assert_eq!(back.elites(), a.elites());
}
