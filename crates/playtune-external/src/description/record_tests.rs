//! Tests of a description's record: what a run keeps of the game it played.

use super::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A run's record of a game reads back as the same game (its fingerprint, its
/// settings, bots and ladder), for every kind of setting, a forward-model game and
/// text that needs escaping.
#[test]
fn a_recorded_description_reads_back_as_the_same_game() {
    let rich = r#"(
        name: "rich",
        about: "a \"quoted\" line, a \\ and é",
        command: "python3 'rich game.py' --fast",
        players: 3,
        settings: [
            (name: "edge", kind: List([0.1, 0.25, 3.0]), default: 0.25),
            (name: "rounds", kind: Int(min: -3, max: 15, step: 2), default: 5),
            (name: "style", kind: Categories(["a b", "c\"d"]), default: "c\"d"),
            (name: "open", kind: Bool, default: true),
            (name: "c", kind: Float(min: 0.1, max: 2.0, levels: 7), default: 0.7333333333333334),
        ],
        bots: [
            (name: "novice", about: "skill 0"),
            (name: "trained", settings: [(name: "aim", kind: Float(min: 0.0, max: 1.0, levels: 3), default: 1.0)]),
        ],
        ladder: ["novice", "trained(aim=0.5)"],
        features: ["captures"],
        playable: ["stalemate_rate <= 0.05"],
        timeout: 2.5,
        startup: 0,
        workers: 3,
        traced: true,
    )"#;
    let games = [
        Description::parse(rich, "rich.ron", PathBuf::from(".")).unwrap(),
        Description::load(&root().join("examples/duel/duel.ron")).unwrap(),
        Description::load(&root().join("examples/tictactoe/tictactoe.ron")).unwrap(),
    ];
    for d in games {
        let text = d.recorded();
        let back = Description::of_record(&text, "config.ron: game.description")
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.fingerprint(), d.fingerprint(), "{text}");
        assert_eq!(
            (&back.settings, &back.bots, &back.ladder, &back.command),
            (&d.settings, &d.bots, &d.ladder, &d.command)
        );
        assert_eq!(
            (
                back.timeout,
                back.startup,
                back.workers,
                back.about.as_str()
            ),
            (d.timeout, d.startup, d.workers, d.about.as_str())
        );
    }
}

/// A record that names a Python game is refused before anything asks Python.
#[test]
fn a_record_naming_a_python_game_is_refused() {
    let e = Description::of_record("(python: \"evil.py:GAME\")", "config.ron: game")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("config.ron: game: ") && e.contains("`evil.py:GAME`"),
        "{e}"
    );
}

/// The code fingerprint covers the files a command names, by the name it gives
/// them: the same files elsewhere give the same fingerprint, another program behind
/// the same description another; a program on the PATH is not read.
#[test]
fn the_code_fingerprint_covers_the_files_the_command_names() {
    let text =
        "(name: \"g\", command: \"python3 play.py --x=1\", players: 2, bots: [(name: \"a\")])";
    let base = std::env::temp_dir().join(format!("playtune-code-{}", std::process::id()));
    let at = |folder: &str, body: &str| {
        let dir = base.join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("play.py"), body).unwrap();
        std::fs::write(dir.join("g.ron"), text).unwrap();
        let d = Description::load(&dir.join("g.ron")).unwrap();
        let found = std::fs::canonicalize(dir.join("g.ron")).unwrap();
        assert_eq!(d.source, Some(found.display().to_string()));
        d.code_fingerprint().unwrap()
    };
    let (one, moved, other) = (
        at("a", "print(1)"),
        at("b", "print(1)"),
        at("c", "print(2)"),
    );
    let _ = std::fs::remove_dir_all(&base);
    assert_eq!(one, moved);
    assert_ne!(one, other);
    assert_eq!(
        command_words("python3 'a b.py' \"c.py\" -m x A=1 d\\ e.js"),
        ["python3", "a b.py", "c.py", "x", "d e.js"]
    );
    let in_process = Description::parse(text, "g", PathBuf::from(".")).unwrap();
    let mut in_process = in_process;
    in_process.command.clear();
    assert_eq!(in_process.code_fingerprint(), None);
}
