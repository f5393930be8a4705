//! The fuzz cases of `sbatch` options (issue 16's suite): every spelling of a reserved
//! option is refused, harmless ones pass, and no text panics.

use super::{SlurmError, split_args};
use proptest::prelude::*;

/// A fixed seed, so CI runs the same cases every time; `PROPTEST_RNG_SEED=N` explores
/// others.
fn config(cases: u32) -> ProptestConfig {
    let seed = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_125);
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    }
}

/// Every spelling sbatch reads as a reserved option, with a value.
fn reserved_spelling() -> impl Strategy<Value = String> {
    let long = prop::sample::select(vec![
        ("array", 2usize),
        ("job-name", 1),
        ("output", 2),
        ("error", 2),
    ])
    .prop_flat_map(|(name, shortest)| (Just(name), shortest..=name.len(), any::<bool>()))
    .prop_map(|(name, len, equals)| {
        let prefix = &name[..len];
        if equals {
            format!("--{prefix}=v1")
        } else {
            format!("--{prefix} v1")
        }
    });
    let short = (
        prop::sample::select(vec!['a', 'J', 'o', 'e']),
        prop::sample::select(vec!["", "H", "v", "vQ", "HO"]),
        any::<bool>(),
    )
        .prop_map(|(c, flags, attached)| {
            if attached {
                format!("-{flags}{c}v1")
            } else {
                format!("-{flags}{c} v1")
            }
        });
    prop_oneof![long, short]
}

/// sbatch words that set nothing playtune sets.
fn harmless_words() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop::sample::select(vec![
            "--partition=cpu",
            "-p cpu",
            "-pcpu",
            "--time 5",
            "-t5",
            "--hold",
            "-H",
            "-vv",
            "--exclusive",
            "--comment=--array=1",
            "--comment -Jx",
            "--qos low",
            "-N 2",
            "--mem=4G",
            "--parsable",
            "-Q",
        ])
        .prop_map(String::from),
        0..4,
    )
}

proptest! {
    #![proptest_config(config(8_000))]
    #[test]
    fn reserved_sbatch_options_are_refused_in_every_spelling(
        before in harmless_words(),
        reserved in reserved_spelling(),
        after in harmless_words(),
    ) {

        let text = format!("{} {reserved} {}", before.join(" "), after.join(" "));
        let e = split_args(&text);
        prop_assert!(matches!(e, Err(SlurmError::Reserved(_))), "{text}: {e:?}");
        let harmless = format!("{} {}", before.join(" "), after.join(" "));
        prop_assert!(split_args(&harmless).is_ok(), "{harmless}: {:?}", split_args(&harmless));
    }

    #[test]
    fn slurm_args_never_panic(text in "[-a-zA-Z=' \"0-9]{0,40}") {

        match split_args(&text) {
            Ok(words) => prop_assert!(words.iter().all(|w| w != "--")),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
