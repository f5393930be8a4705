//! What the integration tests share: the command line as a command, what it did, and
//! the checks of a refusal. Each test module takes its share (`use crate::common;`).

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

/// The most one command of a test may take before it is killed: a command that hangs
/// fails its test instead of holding up the suite.
pub(crate) const COMMAND_LIMIT: Duration = Duration::from_secs(600);

/// The repository's root, where `spaces/`, `examples/`, `docs/` and `runs/` are.
pub(crate) const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// A path under the repository's root (`root("docs/results.md")`).
pub(crate) fn root(relative: &str) -> std::path::PathBuf {
    Path::new(ROOT).join(relative)
}

/// The command line the tests build (`target/<profile>/playtune`), run in the
/// repository's root as a user runs it, killed after [`COMMAND_LIMIT`]. The one way
/// every test file runs it.
pub(crate) fn playtune() -> Command {
    let mut c = Command::cargo_bin("playtune").unwrap();
    c.current_dir(ROOT);
    c.timeout(COMMAND_LIMIT);
    c
}

/// The command line as a process the test starts itself, to signal it or kill it
/// partway, run in the repository's root with nothing on standard input. The test ends
/// it with [`output_within`], which holds it to a time limit.
pub(crate) fn playtune_process() -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("playtune"));
    c.current_dir(ROOT).stdin(std::process::Stdio::null());
    c
}

/// Waits for `child` (started from [`playtune_process`]) at most `limit`, then kills it
/// and fails the test: what it wrote and how it ended.
pub(crate) fn output_within(child: std::process::Child, limit: Duration) -> std::process::Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: kill(2) on the pid of a child not yet waited for.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("playtune (pid {pid}) took longer than {limit:?}; killed");
        }
    }
}

/// The command line, killed after `secs` seconds: a command that hangs fails its test
/// instead of holding up the suite.
pub(crate) fn playtune_within(secs: u64) -> Command {
    let mut c = playtune();
    c.timeout(Duration::from_secs(secs));
    c
}

/// Runs `cmd`: its exit code, standard output and standard error.
pub(crate) fn run(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `cmd` and checks it succeeded (its standard error shown if not): its
/// standard output.
pub(crate) fn succeeded(cmd: &mut Command) -> String {
    let (code, out, err) = run(cmd);
    assert_eq!(code, Some(0), "{err}");
    out
}

/// Runs `cmd` and checks a refusal: exit code 2, standard error holding every one of
/// `needles`, and no panic. Returns standard error.
pub(crate) fn refused(cmd: &mut Command, needles: &[&str]) -> String {
    let (code, _, err) = run(cmd);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "stderr lacks `{n}`: {err}");
    }
    err
}

/// A file's text, the path named if it cannot be read.
pub(crate) fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A tmpfs of `size` (e.g. "64k") mounted on a fresh folder, unmounted when dropped.
pub(crate) struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    pub(crate) fn mount(size: &str, test: &str) -> Option<Tmpfs> {
        let dir = tempfile::TempDir::new().unwrap();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            println!("SKIPPED {test}: cannot mount a tmpfs here (needs root)");
            return None;
        }
        Some(Tmpfs { dir })
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn resize(&self, size: &str) {
        let ok = std::process::Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(self.path())
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Fills what is left with a file, which [`Tmpfs::unfill`] removes.
    pub(crate) fn fill(&self) {
        use std::io::Write;
        let mut f = std::fs::File::create(self.filler()).unwrap();
        let block = vec![0u8; 1024];
        while f.write_all(&block).is_ok() {}
        let _ = f.write_all(&[0u8]);
        let _ = f.flush();
    }

    pub(crate) fn unfill(&self) {
        std::fs::remove_file(self.filler()).unwrap();
    }

    pub(crate) fn filler(&self) -> std::path::PathBuf {
        self.path().join("filler")
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.dir.path())
            .status();
    }
}
