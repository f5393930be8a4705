use super::*;
use playtune::harness::ladder::Step;

/// A game of `pairing` on `level` that agent `a` ended with `result_a`, from the
/// seat game `game` gives it, with plausible counts.
fn game_row(pairing: usize, level: u64, game: usize, result_a: f64) -> GameRow {
    GameRow {
        pairing,
        level,
        game,
        seat_a: game % 2,
        result_a,
        score: [1890.0, 1660.0],
        techs: [10.0, 9.0],
        cities: [4.0, 4.0],
        production: [16.0, 18.0],
        turns: 30.0,
    }
}

#[test]
fn rows_round_trip_and_torn_lines_are_dropped() {
    let row = GameRow {
        pairing: 2,
        level: 7,
        game: 3,
        seat_a: 1,
        result_a: 0.5,
        score: [10.0, 20.5],
        techs: [3.0, 4.0],
        cities: [1.0, 2.0],
        production: [5.0, 6.0],
        turns: 30.0,
    };
    for checked in [false, true] {
        assert_eq!(
            GameRow::from_csv(&row.to_csv(checked), checked),
            Ok(row.clone())
        );
        let torn = &row.to_csv(checked)[..10];
        assert!(GameRow::from_csv(torn, checked).is_err());
    }
    // A flipped result in a checked row is caught; an unchecked one cannot be.
    let flipped = row.to_csv(true).replacen(",0.5,", ",1,", 1);
    assert!(
        GameRow::from_csv(&flipped, true)
            .unwrap_err()
            .contains("check does not match")
    );
}

#[test]
fn figures_do_not_depend_on_the_files_order() {
    let x = StrategyExperiment::portfolio("t", 2, 2, 1);
    let row = |pairing: usize, game: usize| game_row(pairing, x.levels[0], game, 1.0);
    let ordered = vec![row(0, 0), row(0, 1), row(1, 0), row(2, 1)];
    let shuffled = [3, 1, 0, 2].map(|i| ordered[i].to_csv(true));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    std::fs::write(
        &path,
        format!("{CHECKED_HEADER}\n{}\n", shuffled.join("\n")),
    )
    .unwrap();
    let read = read_rows(&path, &x);
    assert!(read.damaged.is_empty(), "{:?}", read.damaged);
    assert!(read.checked);
    let by_pairing: Vec<GameRow> = (0..3)
        .flat_map(|p| rows_of(&read.rows, p).into_iter().cloned())
        .collect();
    assert_eq!(by_pairing, ordered);
    // A file of the older form, without checks, is read and stays in its form.
    let old: Vec<String> = ordered.iter().map(|r| r.to_csv(false)).collect();
    std::fs::write(&path, format!("{HEADER}\n{}\n", old.join("\n"))).unwrap();
    let read = read_rows(&path, &x);
    assert!(!read.checked && read.damaged.is_empty());
    assert_eq!(read.rows, ordered);
    // The figures of a file in any order are the same.
    let reversed: Vec<GameRow> = ordered.iter().rev().cloned().collect();
    assert_eq!(win_matrix(&x, &reversed), win_matrix(&x, &ordered));
}

#[test]
fn rows_that_cannot_be_are_named_and_left_out() {
    let x = StrategyExperiment::portfolio("t", 2, 2, 1);
    let level = x.levels[1];
    let row = |pairing: usize, game: usize, result_a: f64| game_row(pairing, level, game, result_a);
    let mut lines = vec![CHECKED_HEADER.to_string()];
    lines.push(row(0, 0, 1.0).to_csv(true)); // 2: kept
    lines.push(row(0, 1, 7.0).to_csv(true)); // 3: result 7
    lines.push(row(0, 2, 1.0).to_csv(true)); // 4: game 2 of 2
    lines.push(row(7, 0, 1.0).to_csv(true)); // 5: pairing 7 of 7
    lines.push(
        GameRow {
            level: 999,
            ..row(1, 0, 0.0)
        }
        .to_csv(true),
    ); // 6: no such level
    lines.push(
        GameRow {
            seat_a: 0,
            ..row(1, 1, 0.0)
        }
        .to_csv(true),
    ); // 7: wrong seat
    lines.push(
        GameRow {
            techs: [14.0, 0.0],
            ..row(2, 0, 0.5)
        }
        .to_csv(true),
    ); // 8: 14 techs
    lines.push(
        GameRow {
            turns: 2.5,
            ..row(2, 1, 0.5)
        }
        .to_csv(true),
    ); // 9
    let bad = row(3, 0, 0.0).body().replace(",30", ",3O");
    let check = playtune::damage::fnv1a(bad.as_bytes());
    lines.push(format!("{bad},{check:016x}")); // 10: not a number
    lines.push(row(3, 1, 0.0).to_csv(true)); // 11: kept, copied at 13
    lines.push(row(4, 0, 1.0).to_csv(true)); // 12: conflicts with 14
    lines.push(row(3, 1, 0.0).to_csv(true)); // 13
    lines.push(row(4, 0, 0.0).to_csv(true)); // 14
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    // A last line cut short goes without a word.
    std::fs::write(&path, lines.join("\n") + "\n0,1,1,1,0.5,1").unwrap();
    let Rows { rows, damaged, .. } = read_rows(&path, &x);
    assert_eq!(rows, vec![row(0, 0, 1.0), row(3, 1, 0.0)]);
    let numbers: Vec<usize> = damaged.iter().map(|d| d.0).collect();
    assert_eq!(
        numbers,
        [3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14],
        "{damaged:?}"
    );
    let why = |n: usize| &damaged.iter().find(|d| d.0 == n).unwrap().1;
    assert!(why(3).contains("result_a 7"));
    assert!(why(4).contains("game 2: the experiment plays 2"));
    assert!(why(5).contains("pairing 7: the experiment has 7"));
    assert!(why(6).contains("level 999"));
    assert!(why(7).contains("seat_a 0: game 1 is played from seat 1"));
    assert!(why(8).contains("techs_a 14"));
    assert!(why(9).contains("turns 2.5"));
    assert!(why(10).contains("not 14 numbers"));
    assert!(why(12).contains("logged twice with different results"));
    assert!(why(13).contains("a copy of line 11"));
    assert!(why(14).contains("other results than line 12"));
}

#[test]
fn a_step_is_separated_only_beyond_two_standard_errors() {
    let st = steps(&[(0.1, 0.01), (0.4, 0.01), (0.42, 0.01), (0.3, 0.01)]);
    let separated: Vec<bool> = st.iter().map(Step::separated).collect();
    assert_eq!(separated, vec![true, false, false]);
    assert!((st[0].se - 0.0002f64.sqrt()).abs() < 1e-12);
    // Just beyond and just short of two standard errors.
    let se = (2.0f64).sqrt() * 0.01;
    assert!(steps(&[(0.0, 0.01), (2.0 * se + 1e-9, 0.01)])[0].separated());
    assert!(!steps(&[(0.0, 0.01), (2.0 * se - 1e-9, 0.01)])[0].separated());
}

#[test]
fn a_row_average_adds_its_cells_variances() {
    let cell = |mean, games, variance| {
        Some(Cell {
            mean,
            games,
            variance,
        })
    };
    let (m, se) = row_average(&[None, cell(0.5, 100, 0.25), cell(1.0, 25, 0.0)]);
    assert!((m - 0.75).abs() < 1e-12);
    assert!((se - (0.25f64 / 100.0).sqrt() / 2.0).abs() < 1e-12);
}
