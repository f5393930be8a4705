//! Messages that say what to do (issue 72, item 16).

use crate::common::playtune;

/// A Python file named without its game says how to name it, not "unknown game".
#[test]
fn a_python_file_without_its_game_names_the_file_py_name_form() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mygame.py");
    std::fs::write(&file, "GAME = None\n").unwrap();
    let out = playtune().arg("games").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("is a Python file"), "{e}");
    assert!(e.contains("mygame.py:NAME"), "{e}");
    assert!(!e.contains("unknown game"), "{e}");
}

/// Rungs that nothing separates get advice that fits every bot: more search by its
/// own setting (MCTS's iterations, OpenSpiel's simulations, a budget).
#[test]
fn unseparated_rungs_get_advice_for_every_kind_of_bot() {
    let out = playtune()
        .args([
            "check-ladder",
            "--game",
            "rinascimento",
            "--set",
            "players=2",
        ])
        .args(["--ladder", "random,rnd", "--games", "100"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no two of its rungs are separated"), "{text}");
    assert!(text.contains("iterations, simulations or budget"), "{text}");
}
