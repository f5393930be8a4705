//! Output a log can follow (issue 72, item 13): a run whose standard error is not a
//! terminal names its folder first, then prints a plain progress line at every tenth
//! of its evaluations, where a terminal would show a bar.

use crate::common::playtune;

#[test]
fn a_run_into_a_log_names_its_folder_first_then_plain_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = playtune()
        .args(["optimize", "--problem", "noisy-onemax", "--budget", "200"])
        .args(["--name", "logged", "--runs-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let folder = lines
        .iter()
        .position(|l| l.starts_with("run ") && l.contains("logged: 200 evaluations"))
        .unwrap_or_else(|| panic!("no folder line: {err}"));
    let progress: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("progress: "))
        .map(|(i, _)| i)
        .collect();
    assert!(progress.len() >= 5, "a line at every tenth: {err}");
    assert!(progress[0] > folder, "the folder first: {err}");
    assert!(
        lines[*progress.last().unwrap()].contains("200 of 200 evaluations (100%)"),
        "{err}"
    );
    // No bar's control characters in a log.
    assert!(!err.contains('\r') && !err.contains('\u{1b}'), "{err:?}");
}
