//! Tests of the sample file: writing, reading back, damage.

use super::*;

fn header() -> SampleHeader {
    SampleHeader {
        game: "g".into(),
        settings: vec![("a".into(), "1".into())],
        agents: vec!["x".into(), "y".into()],
        budget: None,
        seed: 3,
        encoding: Encoding::new("e", [("p".into(), 2), ("u".into(), 5)]),
    }
}

fn game(i: u32, n: usize) -> GameSamples {
    GameSamples {
        game: i,
        winner: [0, 1, NO_WINNER][i as usize % 3],
        movers: (0..n).map(|k| (k % 2) as u8).collect(),
        counts: (0..2 * n).map(|k| k as u8).collect(),
    }
}

#[test]
fn games_round_trip_and_a_torn_record_is_dropped_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.bin");
    let w = SampleWriter::create(&path, &header()).unwrap();
    for i in 0..3 {
        w.append(&game(i, 4 + i as usize)).unwrap();
    }
    w.finish().unwrap();
    drop(w);
    let full = std::fs::metadata(&path).unwrap().len();
    // A game cut off mid-write.
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(&game(9, 5).to_bytes()[..12]).unwrap();
    drop(f);
    let read = SampleFile::read(&path).unwrap();
    assert_eq!(read.header, header());
    assert_eq!(read.games, vec![game(0, 4), game(1, 5), game(2, 6)]);
    assert_eq!(read.torn, 12);
    assert_eq!(read.samples(), 15);
    let (w, existing) = SampleWriter::resume(&path, &header()).unwrap();
    assert_eq!(existing.games.len(), 3);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), full);
    w.append(&game(3, 2)).unwrap();
    drop(w);
    let read = SampleFile::read(&path).unwrap();
    assert_eq!(read.games.len(), 4);
    assert_eq!(read.torn, 0);
}

#[test]
fn resume_refuses_another_run_and_read_names_damage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.bin");
    SampleWriter::create(&path, &header()).unwrap();
    let mut other = header();
    other.seed = 4;
    let e = SampleWriter::resume(&path, &other)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("another seed"), "{e}");
    std::fs::write(&path, b"hello").unwrap();
    assert!(
        SampleFile::read(&path)
            .unwrap_err()
            .to_string()
            .contains("not a playtune sample file")
    );
}

#[test]
fn targets_follow_the_winner_and_the_mover() {
    let g = GameSamples {
        game: 0,
        winner: 1,
        movers: vec![0, 1],
        counts: vec![0; 4],
    };
    assert_eq!((g.target(0), g.target(1)), (0.0, 1.0));
    let draw = GameSamples {
        winner: NO_WINNER,
        ..g
    };
    assert_eq!(draw.target(0), 0.5);
}

/// A file of games `0..n` (4 + i samples each) and each record's byte range.
fn file_of(dir: &Path, n: u32) -> (PathBuf, Vec<std::ops::Range<usize>>) {
    let path = dir.join("s.bin");
    let w = SampleWriter::create(&path, &header()).unwrap();
    for i in 0..n {
        w.append(&game(i, 4 + i as usize)).unwrap();
    }
    drop(w);
    let bytes = std::fs::read(&path).unwrap();
    let mut at = bytes.len()
        - (0..n)
            .map(|i| game(i, 4 + i as usize).to_bytes().len())
            .sum::<usize>();
    let ranges = (0..n)
        .map(|i| {
            let len = game(i, 4 + i as usize).to_bytes().len();
            at += len;
            at - len..at
        })
        .collect();
    (path, ranges)
}

fn indices(f: &SampleFile) -> Vec<u32> {
    f.games.iter().map(|g| g.game).collect()
}

#[test]
fn a_flipped_bit_costs_one_game_wherever_it_falls() {
    let dir = tempfile::tempdir().unwrap();
    let (path, ranges) = file_of(dir.path(), 5);
    let clean = std::fs::read(&path).unwrap();
    // Every bit of the first record, the start, the length, the body and the check.
    for bit in 0..ranges[0].len() * 8 {
        let mut bytes = clean.clone();
        bytes[ranges[0].start + bit / 8] ^= 1 << (bit % 8);
        std::fs::write(&path, &bytes).unwrap();
        let f = SampleFile::read(&path).unwrap();
        assert_eq!(indices(&f), [1, 2, 3, 4], "bit {bit}");
        assert_eq!(f.damaged.len(), 1, "bit {bit}: {:?}", f.damaged);
        assert_eq!(f.damaged[0].at, ranges[0].start as u64);
        assert_eq!(f.torn, 0);
    }
    // One in the middle.
    let mut bytes = clean.clone();
    bytes[ranges[2].start + 20] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let f = SampleFile::read(&path).unwrap();
    assert_eq!(indices(&f), [0, 1, 3, 4]);
    let m = f.damage_message(&path, "played again").unwrap();
    assert!(m.contains(&format!("byte {}", ranges[2].start)), "{m}");
    assert!(m.contains("check does not match"), "{m}");
    // Resuming rewrites the file without it; the game is then played again.
    let (w, existing) = SampleWriter::resume(&path, &header()).unwrap();
    assert_eq!(indices(&existing), [0, 1, 3, 4]);
    w.append(&game(2, 6)).unwrap();
    drop(w);
    let f = SampleFile::read(&path).unwrap();
    assert!(f.damaged.is_empty() && f.torn == 0);
    assert_eq!(indices(&f), [0, 1, 3, 4, 2]);
}

#[test]
fn impossible_values_and_copies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, ranges) = file_of(dir.path(), 3);
    let w = SampleWriter::resume(&path, &header()).unwrap().0;
    // A winner and a player to move beyond the 2 seats, no samples: checks hold.
    w.append(&GameSamples {
        winner: 7,
        ..game(3, 2)
    })
    .unwrap();
    w.append(&GameSamples {
        movers: vec![0, 2],
        ..game(4, 2)
    })
    .unwrap();
    w.append(&GameSamples {
        movers: vec![],
        counts: vec![],
        ..game(5, 0)
    })
    .unwrap();
    // Game 1 again, identical; game 2 again, with other samples.
    w.append(&game(1, 5)).unwrap();
    w.append(&GameSamples {
        winner: 0,
        ..game(2, 6)
    })
    .unwrap();
    drop(w);
    let f = SampleFile::read(&path).unwrap();
    assert_eq!(indices(&f), [0, 1]);
    let why: Vec<&str> = f.damaged.iter().map(|d| d.why.as_str()).collect();
    assert_eq!(f.damaged.len(), 6, "{why:?}");
    assert!(why[0].contains("game 2 is in the file twice"), "{why:?}");
    assert_eq!(f.damaged[0].at, ranges[2].start as u64);
    assert!(
        why[1].contains("winner 7, but the game has 2 seats"),
        "{why:?}"
    );
    assert!(why[2].contains("player to move 2"), "{why:?}");
    assert!(why[3].contains("0 samples"), "{why:?}");
    assert!(why[4].contains("game 1 again, the same samples"), "{why:?}");
    assert!(
        why[5].contains("game 2 again with other samples"),
        "{why:?}"
    );
}

#[test]
fn a_cut_and_a_damaged_header_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (path, ranges) = file_of(dir.path(), 4);
    let clean = std::fs::read(&path).unwrap();
    // Cut in the third record: the first two stay, the rest is a torn end.
    std::fs::write(&path, &clean[..ranges[2].start + 7]).unwrap();
    let f = SampleFile::read(&path).unwrap();
    assert_eq!(indices(&f), [0, 1]);
    assert!(f.damaged.is_empty());
    assert_eq!(f.torn, 7);
    // A changed header is refused, naming it.
    let mut bytes = clean.clone();
    let at = MAGIC.len() + 4 + 3;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = SampleFile::read(&path).unwrap_err().to_string();
    assert!(e.contains("header's check does not match"), "{e}");
    // A header with a feature capped at 0 is refused before training sees it.
    let mut h = header();
    h.encoding.features[0].cap = 0;
    let e = SampleWriter::create(&path, &h).err().unwrap().to_string();
    assert!(e.contains("cap of 0"), "{e}");
}

#[test]
fn version_1_files_are_read_and_rewritten_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.bin");
    let text = ron::ser::to_string_pretty(&header(), ron::ser::PrettyConfig::default()).unwrap();
    let mut bytes = MAGIC_V1.to_vec();
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    let v1 = |g: &GameSamples| {
        let mut out = vec![RECORD_V1];
        out.extend_from_slice(&g.game.to_le_bytes());
        out.push(g.winner);
        out.extend_from_slice(&(g.movers.len() as u32).to_le_bytes());
        out.extend_from_slice(&g.movers);
        out.extend_from_slice(&g.counts);
        out
    };
    for i in 0..3 {
        bytes.extend(v1(&game(i, 3)));
    }
    bytes.extend(v1(&GameSamples {
        winner: 9,
        ..game(3, 3)
    }));
    bytes.extend(&v1(&game(4, 3))[..5]);
    std::fs::write(&path, &bytes).unwrap();
    let f = SampleFile::read(&path).unwrap();
    assert_eq!((f.version, indices(&f), f.torn), (1, vec![0, 1, 2], 5));
    assert_eq!(f.damaged.len(), 1);
    let (w, _) = SampleWriter::resume(&path, &header()).unwrap();
    w.append(&game(3, 3)).unwrap();
    drop(w);
    let f = SampleFile::read(&path).unwrap();
    assert_eq!((f.version, indices(&f), f.torn), (2, vec![0, 1, 2, 3], 0));
    assert!(f.damaged.is_empty());
    assert_eq!(f.games[1], game(1, 3));
}
