//! The MAP-Elites archives as a caller outside the crate uses them: what each addition
//! did (pyribs' statuses: new cell, improved elite, not added) and by how much, the
//! store of elites behind it, and a CVT archive's fixed cells.

use playtune_optim::eval::FeatureAxis;
use playtune_optim::optim::map_elites::{
    AddOutcome, AddStatus, Archive, Better, CvtArchive, EliteStore, GridArchive,
};

fn axis(name: &str) -> FeatureAxis {
    FeatureAxis {
        name: name.into(),
        low: 0.0,
        high: 1.0,
        bins: 4,
    }
}

#[test]
fn each_addition_says_what_it_did_and_by_how_much() {
    let mut grid = GridArchive::new(vec![axis("a")], vec![0], false, Better::Greater, None, 0.0);
    let first: AddOutcome = grid.add(&[1.0], 0.5, &[0.1], 1);
    assert_eq!(first.status, AddStatus::New);
    let better = grid.add(&[2.0], 0.75, &[0.2], 2);
    assert_eq!(better.status, AddStatus::Improved);
    assert!((better.improvement - 0.25).abs() < 1e-12, "{better:?}");
    let worse = grid.add(&[3.0], 0.1, &[0.15], 3);
    assert_eq!(worse.status, AddStatus::NotAdded);
    let other_cell = grid.add(&[4.0], 0.0, &[0.9], 4);
    assert_eq!(other_cell.status, AddStatus::New);
    let store: &EliteStore = grid.store();
    assert_eq!(store.elites.len(), 2);
    assert_eq!(grid.best().unwrap().values, vec![2.0]);
    assert!((grid.coverage() - 0.5).abs() < 1e-12);
}

#[test]
fn a_cvt_archive_places_the_same_cells_from_the_same_seed() {
    let make = |seed| {
        CvtArchive::new(
            vec![axis("a"), axis("b")],
            vec![0, 1],
            8,
            200,
            seed,
            Better::Greater,
            None,
            0.0,
        )
    };
    let (mut x, mut y) = (make(3), make(3));
    assert_eq!(x.cells(), 8);
    for (i, f) in [[0.1, 0.1], [0.9, 0.9], [0.1, 0.9], [0.12, 0.11]]
        .iter()
        .enumerate()
    {
        let (a, b) = (x.add(&[i as f64], 1.0, f, 1), y.add(&[i as f64], 1.0, f, 1));
        assert_eq!(a, b);
    }
    assert_eq!(x.store(), y.store());
}

/// A search configured for a CVT archive fills one of that many cells, on the axes
/// given: the configuration reaches the archive it names.
#[test]
fn a_search_configured_for_cvt_fills_a_cvt_archive() {
    use playtune_optim::optim::map_elites::{
        AnyArchive, ArchiveConfig, MapElitesConfig, Scheduler,
    };
    use playtune_optim::{Dimension, Optimizer, Space};
    let dims = ["x", "y"]
        .iter()
        .map(|n| Dimension {
            name: n.to_string(),
            domain: playtune_optim::Domain::Int {
                min: 0,
                max: 9,
                step: 1,
            },
            default: 0,
            fixed: false,
        })
        .collect();
    let space = Space {
        name: "grid".into(),
        dims,
        groups: vec![],
        constraints: vec![],
    };
    let config = MapElitesConfig {
        axes: vec![
            FeatureAxis {
                name: "x".into(),
                low: 0.0,
                high: 9.0,
                bins: 1,
            },
            FeatureAxis {
                name: "y".into(),
                low: 0.0,
                high: 9.0,
                bins: 1,
            },
        ],
        archive: ArchiveConfig::Cvt {
            centroids: 12,
            samples: 400,
            seed: 5,
        },
        ..MapElitesConfig::default()
    };
    let features = vec!["x".to_string(), "y".to_string()];
    let mut search = Scheduler::new(config, space, 300, 1, &features, &[]).unwrap();
    loop {
        let asked = search.ask();
        if asked.is_empty() {
            break;
        }
        let told: Vec<_> = asked
            .iter()
            .map(|c| {
                let v = &c.values;
                Some(playtune_optim::Evaluation {
                    fitness: -(v[0] - 4.0).abs() - (v[1] - 4.0).abs(),
                    features: v.clone(),
                })
            })
            .collect();
        search.tell(&asked, &told);
    }
    let Some(AnyArchive::Cvt(cvt)) = search.archive() else {
        panic!("not a CVT archive");
    };
    assert_eq!(cvt.cells(), 12);
    assert!(cvt.coverage() > 0.5, "{}", cvt.coverage());
}
