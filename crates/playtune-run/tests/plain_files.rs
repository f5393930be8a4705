//! A run's files are written only as plain files of the folder: a link in a file's
//! place is refused with the typed `NotPlain`, naming the file, and what it points to
//! is left as it was.

use playtune_run::RunError;
use playtune_run::files::NotPlain;
use playtune_run::lock::lock;

#[cfg(unix)]
#[test]
fn a_run_folder_whose_log_is_a_link_is_refused_as_not_plain() {
    let dir = tempfile::TempDir::new().unwrap();
    let elsewhere = dir.path().join("elsewhere.csv");
    std::fs::write(&elsewhere, "theirs").unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    let log = run.join("evals.csv");
    std::os::unix::fs::symlink(&elsewhere, &log).unwrap();
    match lock(&run) {
        Err(RunError::NotPlain(NotPlain { path, .. })) => assert_eq!(path, log),
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("a folder whose log is a link was taken"),
    }
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "theirs");
}
