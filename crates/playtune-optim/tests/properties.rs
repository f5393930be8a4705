//! Property tests of spaces: mutation, neighbours, random points, value round trips
//! and RON round trips.

use playtune_optim::rng::rng_from_seed;
use playtune_optim::space::mutate::mutate_value;
use playtune_optim::space::{
    Dimension, Domain, Space, neighbour, parse_space, random_point, to_space_file,
};
use proptest::prelude::*;

fn domain() -> impl Strategy<Value = Domain> {
    prop_oneof![
        (-5i64..5, 0i64..6, 1i64..4).prop_map(|(min, n, step)| Domain::Int {
            min,
            max: min + n * step,
            step
        }),
        prop::collection::btree_set(-100i32..100, 1..6)
            .prop_map(|s| Domain::List(s.into_iter().map(|x| x as f64 * 0.5).collect())),
        (1usize..5).prop_map(|n| Domain::Categories((0..n).map(|i| format!("c{i}")).collect())),
        Just(Domain::Bool),
        (-3.0f64..3.0, 0.5f64..4.0, 2u32..7).prop_map(|(min, w, levels)| Domain::Float {
            min,
            max: min + w,
            levels
        }),
    ]
}

fn space() -> impl Strategy<Value = Space> {
    prop::collection::vec((domain(), any::<bool>(), any::<u32>()), 1..8).prop_map(|dims| Space {
        name: "p".into(),
        dims: dims
            .into_iter()
            .enumerate()
            .map(|(i, (domain, fixed, d))| {
                let default = d as usize % domain.len();
                Dimension {
                    name: format!("d{i}"),
                    domain,
                    default,
                    fixed,
                }
            })
            .collect(),
        groups: Vec::new(),
        constraints: Vec::new(),
    })
}

proptest! {
    #[test]
    fn mutation_changes_the_value_and_stays_in_the_domain(arity in 2usize..20, start in 0u32..20, seed in any::<u64>()) {
        let mut rng = rng_from_seed(seed);
        let mut point = vec![start % arity as u32];
        for _ in 0..50 {
            let before = point[0];
            mutate_value(&mut point, 0, arity, &mut rng);
            prop_assert_ne!(point[0], before);
            prop_assert!((point[0] as usize) < arity);
        }
    }

    #[test]
    fn neighbours_differ_only_in_free_dimensions(s in space(), seed in any::<u64>(), p in 0.5f64..3.0) {
        let free = s.free_dims();
        prop_assume!(!free.is_empty());
        let mut rng = rng_from_seed(seed);
        let current = random_point(&s, &mut rng);
        let (mut out, mut reported) = (Vec::new(), Vec::new());
        for _ in 0..20 {
            neighbour(&s, &free, &current, p, &mut rng, &mut out, &mut reported);
            let changed: Vec<usize> = (0..s.len()).filter(|&d| out[d] != current[d]).collect();
            prop_assert_eq!(&changed, &reported, "the mutated dimensions are reported");
            prop_assert!(!changed.is_empty(), "a neighbour differs from the current point");
            prop_assert!(changed.iter().all(|d| free.contains(d)), "only free dimensions change");
            prop_assert!(out.iter().zip(&s.dims).all(|(&v, d)| (v as usize) < d.arity().max(d.domain.len())));
        }
    }

    #[test]
    fn random_points_respect_domains_and_fixed_dimensions(s in space(), seed in any::<u64>()) {
        let p = random_point(&s, &mut rng_from_seed(seed));
        for (v, d) in p.iter().zip(&s.dims) {
            prop_assert!((*v as usize) < d.domain.len());
            if d.fixed { prop_assert_eq!(*v as usize, d.default); }
        }
        // Values and indices round trip, and rendering parses back.
        let values = s.decode(&p);
        prop_assert_eq!(s.encode(&values), Some(p.clone()));
        for ((d, v), i) in s.dims.iter().zip(&values).zip(&p) {
            prop_assert_eq!(d.domain.parse_value(&d.domain.render(*v)), Some(*i as usize));
        }
    }

    #[test]
    fn spaces_round_trip_through_the_file_format(s in space()) {
        let back = parse_space(&to_space_file(&s), "written").unwrap();
        // The file format has no `fixed` flag: fixing is a command-line choice.
        let unfixed: Vec<Dimension> = s.dims.iter().cloned().map(|d| Dimension { fixed: false, ..d }).collect();
        prop_assert_eq!(back.dims, unfixed);
    }

    #[test]
    fn spaces_round_trip_through_ron(s in space()) {
        let text = ron::ser::to_string_pretty(&s, ron::ser::PrettyConfig::default()).unwrap();
        let back: Space = ron::from_str(&text).unwrap();
        prop_assert_eq!(back, s);
    }
}

#[test]
fn space_files_round_trip_through_the_file_format() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spaces/example_every_kind.ron"
    ))
    .unwrap();
    let s = parse_space(&text, "example").unwrap();
    let written = playtune_optim::space::to_space_file(&s);
    assert_eq!(parse_space(&written, "written").unwrap(), s);
}
