//! `--name` cannot leave the runs folder, in any command that writes a folder: one
//! check for all of them (`optimize` and `map-elites` had it; `experiment`, `ladder`
//! and `train-eval` now share it).

#[test]
fn every_command_that_writes_a_folder_refuses_a_name_that_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let data = dir.path().join("none.samples");
    std::fs::write(&data, b"").unwrap();
    let commands: Vec<Vec<String>> = vec![
        vec!["experiment".into(), "rule-design".into()],
        vec!["experiment".into(), "ntbea-defaults".into()],
        vec!["ladder".into()],
        vec![
            "train-eval".into(),
            data.display().to_string(),
            "--out".into(),
            dir.path().join("n.evalnet").display().to_string(),
        ],
        vec!["optimize".into(), "--budget".into(), "2".into()],
    ];
    for args in &commands {
        for name in ["../../escaped", "/tmp/escaped-abs", "..", ".", "", "a/b"] {
            let out = crate::common::playtune()
                .current_dir(dir.path())
                .args(args)
                .args(["--name", name, "--runs-dir"])
                .arg(&runs)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?} --name {name:?}: {err}"
            );
            assert!(
                err.contains("one plain name"),
                "{args:?} --name {name:?}: {err}"
            );
        }
    }
    assert!(!dir.path().join("escaped").exists());
    assert!(!std::path::Path::new("/tmp/escaped-abs").exists());
}
