//! Self-play sample files and evaluation networks: a damaged record is named by byte,
//! left out and its game played again; a damaged network is refused on read, and none
//! is ever written broken.

use crate::common::{playtune, refused, run};
use playtune::learn::samples::SampleFile;
use std::path::Path;

fn selfplay(out: &Path) -> (Option<i32>, String, String) {
    run(playtune()
        .args([
            "selfplay",
            "--agents",
            "random,random",
            "--games",
            "8",
            "--set",
            "turns=6",
            "-q",
            "--out",
        ])
        .arg(out))
}

/// Each record's byte range in a version 2 sample file.
fn records(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let magic = b"playtune-samples 2\n".len();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let mut at = magic + 4 + u32_at(magic) + 8;
    let mut out = Vec::new();
    while at < bytes.len() {
        let end = at + 16 + u32_at(at + 4);
        out.push(at..end);
        at = end;
    }
    out
}

fn games_of(path: &Path) -> Vec<(u32, u8, Vec<u8>, Vec<u8>)> {
    let mut g: Vec<_> = SampleFile::read(path)
        .unwrap()
        .games
        .into_iter()
        .map(|g| (g.game, g.winner, g.movers, g.counts))
        .collect();
    g.sort();
    g
}

/// One flipped bit in the first record costs that game only; a cut file keeps the
/// games before the cut; a copied record is named and left out; a winner no seat can
/// be (with a valid check) is refused. `selfplay` plays the lost games again and the
/// file's games are the undamaged ones; `train-eval` names what it leaves out.
#[test]
fn sample_file_flip_truncate_duplicate_and_impossible_values() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let (code, _, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    let path = out.join("samples.bin");
    let clean = std::fs::read(&path).unwrap();
    let clean_games = games_of(&path);
    assert_eq!(clean_games.len(), 8);
    let recs = records(&clean);
    assert_eq!(recs.len(), 8);

    // A flipped bit in the first record: train-eval names it, selfplay replays it.
    let mut bytes = clean.clone();
    bytes[recs[0].start + 17] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    let (code, outp, err) = run(playtune()
        .arg("train-eval")
        .arg(&out)
        .args([
            "--hidden",
            "8",
            "--epochs",
            "1",
            "--validation",
            "0.3",
            "-q",
        ])
        .arg("--out")
        .arg(dir.path().join("m.evalnet"))
        .arg("--runs-dir")
        .arg(dir.path().join("runs"))
        .arg("--plots-dir")
        .arg(dir.path().join("plots")));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("samples.bin: left out 1 damaged game record(s)")
            && err.contains(&format!("byte {}", recs[0].start))
            && err.contains("check does not match"),
        "{err}"
    );
    // Trained on the 7 intact games: 12 samples each.
    assert!(outp.contains("kept epoch"), "{outp}");
    let samples: usize = clean_games.iter().skip(1).map(|g| g.2.len()).sum();
    let number_before = |w: &str| -> usize {
        let before = outp.split(w).next().unwrap();
        before.rsplit([' ', '(']).next().unwrap().parse().unwrap()
    };
    let trained = number_before(" training and ") + number_before(" validation samples");
    assert_eq!(trained, samples, "{outp}");
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(outp.contains("1 played now, 7 kept"), "{outp}");
    assert!(err.contains(&format!("byte {}", recs[0].start)), "{err}");
    assert_eq!(games_of(&path), clean_games);

    // Cut in the middle of the fourth record: three games kept, five played again.
    std::fs::write(&path, &clean[..recs[3].start + 30]).unwrap();
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(outp.contains("5 played now, 3 kept"), "{outp}");
    assert_eq!(games_of(&path), clean_games);

    // A record copied to the end: named, left out, nothing played.
    let mut bytes = clean.clone();
    bytes.extend_from_slice(&clean[recs[2].clone()]);
    std::fs::write(&path, &bytes).unwrap();
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(outp.contains("0 played now, 8 kept"), "{outp}");
    assert!(err.contains("again, the same samples"), "{err}");
    assert_eq!(games_of(&path), clean_games);
    assert_eq!(std::fs::read(&path).unwrap().len(), clean.len());

    // A winner beyond the two seats, its check made to match: refused, replayed.
    let mut bytes = clean.clone();
    let r = recs[5].clone();
    bytes[r.start + 12] = 7;
    let check = playtune::damage::fnv1a(&bytes[r.start + 4..r.end - 8]);
    bytes[r.end - 8..r.end].copy_from_slice(&check.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("winner 7, but the game has 2 seats"), "{err}");
    assert!(outp.contains("1 played now, 7 kept"), "{outp}");
    assert_eq!(games_of(&path), clean_games);
}

/// A sample file whose encoding caps a feature at 0 is refused by every reader
/// (train-eval would otherwise write a network no loader takes).
#[test]
fn a_sample_header_with_a_cap_of_zero_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let (code, _, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    let path = out.join("samples.bin");
    let file = SampleFile::read(&path).unwrap();
    let clean = std::fs::read(&path).unwrap();
    let mut header = file.header.clone();
    header.encoding.features[3].cap = 0;
    let text = ron::ser::to_string_pretty(&header, ron::ser::PrettyConfig::default()).unwrap();
    let mut bytes = b"playtune-samples 2\n".to_vec();
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    bytes.extend_from_slice(&playtune::damage::fnv1a(text.as_bytes()).to_le_bytes());
    bytes.extend_from_slice(&clean[records(&clean)[0].start..]);
    std::fs::write(&path, &bytes).unwrap();
    refused(
        playtune()
            .arg("train-eval")
            .arg(&out)
            .args(["--hidden", "8", "--epochs", "1", "-q"])
            .arg("--out")
            .arg(dir.path().join("m.evalnet"))
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots")),
        &["samples.bin: header", "has a cap of 0"],
    );
    assert!(!dir.path().join("m.evalnet").exists());
    refused(
        playtune()
            .args([
                "selfplay",
                "--agents",
                "random,random",
                "--games",
                "8",
                "--set",
                "turns=6",
                "-q",
                "--out",
            ])
            .arg(&out),
        &["samples.bin: header", "cap of 0"],
    );
}

/// The bytes of a network file as `Network::save` lays them out, unchecked.
fn network_bytes(header: &playtune::learn::network::NetworkHeader, floats: &[f32]) -> Vec<u8> {
    let text = ron::ser::to_string_pretty(header, ron::ser::PrettyConfig::default()).unwrap();
    let mut bytes = b"playtune-evalnet 1\n".to_vec();
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    for x in floats {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes
}

/// NaN and infinite weights, a hidden layer of size 0 and a feature cap of 0 are
/// refused by the loader every command uses, naming the file; training that
/// diverges writes no network.
#[test]
fn network_files_are_checked_on_read_and_never_written_broken() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let (code, _, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    let train = |model: &Path, rate: &str| {
        run(playtune()
            .arg("train-eval")
            .arg(&out)
            .args([
                "--hidden",
                "8",
                "--epochs",
                "2",
                "--validation",
                "0.3",
                "--learning-rate",
                rate,
                "-q",
            ])
            .arg("--out")
            .arg(model)
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots")))
    };
    let model = dir.path().join("m.evalnet");
    let (code, _, err) = train(&model, "0.001");
    assert_eq!(code, Some(0), "{err}");
    let diverged = dir.path().join("diverged.evalnet");
    let (code, _, err) = train(&diverged, "1e30");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("lower --learning-rate"), "{err}");
    assert!(!diverged.exists(), "a diverged network was written");

    let net = playtune::learn::Network::load(&model).unwrap();
    let floats: Vec<f32> = net
        .layers
        .iter()
        .flat_map(|l| l.weights.iter().chain(&l.biases).copied())
        .collect();
    let tournament = |file: &Path| {
        let mut c = playtune();
        c.args([
            "tournament",
            "--game",
            "strategy",
            "--games",
            "1",
            "--set",
            "turns=3",
        ])
        .arg("--agents")
        .arg(format!(
            "hps(leaf=learned:{},budget=50),random",
            file.display()
        ));
        c
    };
    let bad = dir.path().join("bad.evalnet");
    for (k, v, needle) in [
        (10usize, f32::NAN, "layer 0: weight 10 is NaN"),
        (3, f32::INFINITY, "layer 0: weight 3 is inf"),
        (
            floats.len() - 1,
            f32::NEG_INFINITY,
            "layer 1: bias 0 is -inf",
        ),
    ] {
        let mut f = floats.clone();
        f[k] = v;
        std::fs::write(&bad, network_bytes(&net.header, &f)).unwrap();
        refused(&mut tournament(&bad), &["bad.evalnet", needle]);
    }
    let mut header = net.header.clone();
    header.hidden = vec![0];
    std::fs::write(&bad, network_bytes(&header, &[])).unwrap();
    refused(
        &mut tournament(&bad),
        &["bad.evalnet", "hidden layer 0 has 0 units"],
    );
    let mut header = net.header.clone();
    header.encoding.features[0].cap = 0;
    std::fs::write(&bad, network_bytes(&header, &floats)).unwrap();
    refused(&mut tournament(&bad), &["bad.evalnet", "has a cap of 0"]);
    // The good one still plays.
    let (code, _, err) = run(&mut tournament(&model));
    assert_eq!(code, Some(0), "{err}");
}
