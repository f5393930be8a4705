//! Tests of the description's fields, each checked with its file, line and field.

use super::*;

fn parse(text: &str) -> Result<Description, SpaceError> {
    Description::parse(text, "g.ron", PathBuf::from("."))
}

/// Issue 65: a `python:` description's `timeout` and `startup` are checked as a
/// `command:` description's are, before the game is asked (no panic on a value no
/// `Duration` holds, and no game process started for a file that is wrong).
#[test]
fn timeout_and_startup_are_checked_alike_for_python_and_command_games() {
    let bad = [
        ("timeout", "-1"),
        ("timeout", "NaN"),
        ("timeout", "inf"),
        ("timeout", "1e300"),
        ("timeout", "0"),
        ("startup", "-1"),
        ("startup", "NaN"),
        ("startup", "inf"),
        ("startup", "1e300"),
    ];
    for (field, value) in bad {
        for plays in [
            "python: \"no_such_file.py:G\"",
            "name: \"x\", command: \"true\", players: 2, bots: [(name: \"a\")]",
        ] {
            let text = format!("(\n    {plays},\n    {field}: {value},\n)\n");
            let e = parse(&text)
                .err()
                .unwrap_or_else(|| panic!("{text}: accepted"));
            assert_eq!((e.field.as_str(), e.line), (field, 3), "{text}: {e}");
            assert!(e.to_string().contains(value), "{text}: {e}");
        }
    }
}

/// Issue 65: `about` is one line that `playtune games` prints: a line break or an
/// escape code in a game's or a bot's is refused, naming the file, line and field.
#[test]
fn an_about_with_control_characters_is_refused() {
    for (text, field, line) in [
        (
            "(name: \"x\", command: \"true\", players: 2,\n about: \"one\\ntwo\",\n bots: [(name: \"a\")])",
            "about",
            2,
        ),
        (
            "(name: \"x\", command: \"true\", players: 2,\n about: \"red \\u{1b}[31m\",\n bots: [(name: \"a\")])",
            "about",
            2,
        ),
        (
            "(name: \"x\", command: \"true\", players: 2,\n bots: [(name: \"a\", about: \"b\\u{7}el\")])",
            "bots",
            2,
        ),
        (
            "(python: \"no_such_file.py:G\",\n about: \"one\\ntwo\")",
            "about",
            2,
        ),
    ] {
        let e = parse(text)
            .err()
            .unwrap_or_else(|| panic!("{text}: accepted"));
        assert_eq!((e.field.as_str(), e.line), (field, line), "{text}: {e}");
        assert!(e.message.contains("one line"), "{text}: {e}");
        assert!(!e.to_string().chars().any(|c| c.is_control()), "{e:?}");
    }
    let d = parse(
        "(name: \"x\", about: \"one line, ünïcode\", command: \"true\", players: 2, bots: [(name: \"a\", about: \"fine\")])",
    )
    .unwrap();
    assert_eq!(d.about, "one line, ünïcode");
}

/// Issue 65: a ladder's specs and the playable constraints are quoted in messages
/// and printed: one holding a control character is refused, and the message
/// quotes it without.
#[test]
fn a_ladder_or_playable_with_control_characters_is_refused() {
    for (text, field) in [
        (
            "(name: \"x\", command: \"true\", players: 2, bots: [(name: \"a\")],\n ladder: [\"a\\u{1b}[31m\"])",
            "ladder",
        ),
        (
            "(name: \"x\", command: \"true\", players: 2, bots: [(name: \"a\")],\n settings: [(name: \"m\", kind: Int(min: 1, max: 3), default: 1)],\n playable: [\"stalemate_rate <= 0.05 \\u{1b}[2J\"])",
            "playable",
        ),
    ] {
        let e = parse(text)
            .err()
            .unwrap_or_else(|| panic!("{text}: accepted"));
        assert_eq!(e.field, field, "{text}: {e}");
        assert!(!e.to_string().chars().any(|c| c.is_control()), "{e:?}");
    }
}
