//! One writer at a time: an exclusive lock on a run or experiment folder, and whole-file
//! writes that readers never see half done.
//!
//! The lock is an OS file lock (`flock`) on `.playtune.lock` inside the folder. The
//! operating system releases it when the process ends, however it ends (`kill -9`
//! included), so a stopped command leaves nothing stale behind: the file stays, the
//! lock does not. The file records the holder (pid, host, start time, command line) so
//! that a second writer can say who holds the folder; it exits at once instead of
//! waiting.
//!
//! Readers (`status`, `report`, `plot`, `compare`, `reevaluate`) take no lock: every
//! whole file is written under a temporary name in the same folder and renamed into
//! place ([`write_whole`]), and appended logs are read line by line with a last line
//! lacking its line end left out.

use super::RunError;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::files::LOCK_FILE;

/// How long a second writer looks again before it gives up: long enough to let a
/// moment's probe by another command pass (see [`lock`]), short enough to be "at once".
const BUSY_WAIT: Duration = Duration::from_millis(120);

/// How long a command waits for the lock of a folder it has just created: whatever
/// holds it there found no `config.ron` and is about to give up.
const FRESH_WAIT: Duration = Duration::from_secs(10);

/// Folders above a run folder that may be an experiment holding it
/// (`EXPERIMENT/ALGO`, `EXPERIMENT/tuning/RUN`).
const ENCLOSING: usize = 2;

/// Lock files this process holds, by canonical path: locking a folder twice in one
/// process must not refuse itself, and the lock lives as long as any of its guards.
static HELD: Mutex<Option<HashMap<PathBuf, Held>>> = Mutex::new(None);

/// One lock this process holds: the open lock file (closing it releases the OS lock),
/// kept here rather than in a guard so that dropping the first of two guards (a
/// notebook cell run twice, then the first `Run` dropped) cannot release it while the
/// second is alive.
#[derive(Debug)]
struct Held {
    guards: usize,
    _file: File,
}

/// A held lock: released when its last guard in this process is dropped, or when the
/// process ends.
#[must_use = "the folder is unlocked as soon as the guard is dropped"]
#[derive(Debug)]
pub struct FolderLock {
    key: PathBuf,
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        if let Ok(mut held) = HELD.lock() {
            let map = held.get_or_insert_with(HashMap::new);
            if let Some(h) = map.get_mut(&self.key) {
                h.guards -= 1;
                if h.guards == 0 {
                    map.remove(&self.key);
                }
            }
        }
    }
}

/// Locks `dir` (which must exist) for this command's writes, and checks that no
/// command holds a folder enclosing it (an experiment writing its run folders). A
/// folder held by another command is refused at once, naming the holder.
pub fn lock(dir: &Path) -> Result<FolderLock, RunError> {
    let guard = lock_here(dir)?;
    let canonical = canonical(dir)?;
    for above in canonical.ancestors().skip(1).take(ENCLOSING) {
        if let Some(holder) = probe(&above.join(LOCK_FILE)) {
            return Err(busy(above, &holder, Some(dir)));
        }
    }
    Ok(guard)
}

/// Locks an experiment folder (which must exist), and checks that no command holds
/// one of its run folders (a `resume` of one of them).
pub fn lock_experiment(dir: &Path) -> Result<FolderLock, RunError> {
    let guard = lock_here(dir)?;
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            // Cluster tasks hold their own folders under slurm/ while the experiment
            // waits for them.
            if depth >= ENCLOSING || !path.is_dir() || e.file_name() == super::CLUSTER_DIR {
                continue;
            }
            if let Some(holder) = probe(&path.join(LOCK_FILE)) {
                return Err(busy(&path, &holder, None));
            }
            stack.push((path, depth + 1));
        }
    }
    Ok(guard)
}

/// Locks `dir` (which must exist) without looking at the folders around it: what a
/// cluster task does for its own folder inside an experiment whose command holds it.
pub fn lock_here(dir: &Path) -> Result<FolderLock, RunError> {
    if !dir.is_dir() {
        return Err(RunError::NoSuchFolder(dir.to_path_buf()));
    }
    // A run file that is a link is refused before the command changes anything, the
    // lock file included (each write refuses one too: this is for a message at once).
    super::files::check_run_folder(dir)?;
    acquire(&dir.join(LOCK_FILE), dir, BUSY_WAIT)
}

/// Locks a folder this command has just created (see `run::claim_fresh_dir`): another
/// command may hold it for a moment, finding nothing in it.
pub(crate) fn lock_fresh(dir: &Path) -> Result<FolderLock, RunError> {
    acquire(&dir.join(LOCK_FILE), dir, FRESH_WAIT)
}

/// Locks a file that is not in a folder of its own (a trained network): the lock is
/// `.NAME.playtune.lock` beside it.
pub fn lock_beside(file: &Path) -> Result<FolderLock, RunError> {
    let name = file
        .file_name()
        .ok_or_else(|| RunError::Io(format!("{}: not a file name", file.display())))?;
    let parent = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| RunError::Io(format!("cannot create {}: {e}", parent.display())))?;
    let lock_file = parent.join(format!(".{}.playtune.lock", name.to_string_lossy()));
    acquire(&lock_file, file, BUSY_WAIT)
}

/// Locks `dir` (a run or experiment folder) when a command writes `out` into it, as
/// `report` writes `RUN/report.html`; nothing when `out` goes elsewhere.
pub fn lock_for_output(dir: &Path, out: &Path) -> Result<Option<FolderLock>, RunError> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), std::fs::canonicalize(parent)) {
        (Ok(d), Ok(p)) if d == p && d.is_dir() => lock(dir).map(Some),
        _ => Ok(None),
    }
}

fn canonical(path: &Path) -> Result<PathBuf, RunError> {
    std::fs::canonicalize(path).map_err(|e| RunError::Io(format!("{}: {e}", path.display())))
}

/// A folder (or file) another command holds: `what`, or the folder enclosing
/// `inside`.
fn busy(what: &Path, holder: &str, inside: Option<&Path>) -> RunError {
    RunError::Busy {
        what: what.to_path_buf(),
        holder: holder.to_string(),
        inside: inside.map(Path::to_path_buf),
    }
}

/// Whose folder is busy, as [`RunError::Busy`] says it.
pub(super) fn busy_text(what: &Path, holder: &str, inside: Option<&Path>) -> String {
    let whose = match inside {
        Some(d) => format!(
            "{} is inside {}, which another playtune command is writing",
            d.display(),
            what.display()
        ),
        None => format!(
            "{} is in use: another playtune command is writing it",
            what.display()
        ),
    };
    format!(
        "{whose} ({holder}); nothing was changed: run this command again when that one has finished"
    )
}

fn acquire(lock_file: &Path, what: &Path, wait: Duration) -> Result<FolderLock, RunError> {
    // The holder's record is written into it: never through a link.
    let file = super::files::open_in_place(lock_file, true)
        .map_err(|e| super::write_error("open the lock file", lock_file, e))?;
    let key = canonical(lock_file)?;
    let mut held = HELD
        .lock()
        .map_err(|_| RunError::Io("lock registry poisoned".into()))?;
    let map = held.get_or_insert_with(HashMap::new);
    if let Some(h) = map.get_mut(&key) {
        h.guards += 1;
        return Ok(FolderLock { key });
    }
    let started = Instant::now();
    loop {
        match try_lock(&file, true) {
            Ok(true) => break,
            Ok(false) if started.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(15));
            }
            Ok(false) => return Err(busy(what, &holder(lock_file), None)),
            Err(e) => {
                // A filesystem without locks (some cluster mounts): go on unlocked
                // rather than refuse to work.
                eprintln!(
                    "warning: cannot lock {} ({e}); make sure no other playtune command writes {} at the same time",
                    lock_file.display(),
                    what.display()
                );
                break;
            }
        }
    }
    let mut file = file;
    record_holder(&mut file).map_err(|e| {
        RunError::Io(format!(
            "cannot write the lock file {}: {e}",
            lock_file.display()
        ))
    })?;
    map.insert(
        key.clone(),
        Held {
            guards: 1,
            _file: file,
        },
    );
    Ok(FolderLock { key })
}

/// Whether another process holds the lock file at `path` (not this one): its holder,
/// if so. A shared lock taken and released at once: it never blocks a holder.
fn probe(path: &Path) -> Option<String> {
    if !path.is_file() {
        return None;
    }
    let key = canonical(path).ok()?;
    if HELD
        .lock()
        .ok()
        .is_some_and(|h| h.as_ref().is_some_and(|m| m.contains_key(&key)))
    {
        return None;
    }
    // A pipe put there would hold a reader that opened it for ever.
    let file = super::files::open_plain_read(path).ok()?;
    match try_lock(&file, false) {
        Ok(false) => Some(holder(path)),
        // Unlocked when the file closes.
        _ => None,
    }
}

/// Tries to lock `file` without waiting: Ok(true) locked, Ok(false) held by another,
/// Err when the filesystem cannot lock.
#[cfg(unix)]
fn try_lock(file: &File, exclusive: bool) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    let how = if exclusive {
        libc::LOCK_EX
    } else {
        libc::LOCK_SH
    };
    loop {
        // SAFETY: flock on a file descriptor this File owns for the whole call.
        if unsafe { libc::flock(file.as_raw_fd(), how | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(code) if code == libc::EWOULDBLOCK || code == libc::EAGAIN => return Ok(false),
            _ => return Err(e),
        }
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File, _exclusive: bool) -> std::io::Result<bool> {
    Err(std::io::Error::other(
        "file locks are implemented on Unix only",
    ))
}

/// This process as the lock file records it.
fn record_holder(file: &mut File) -> std::io::Result<()> {
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let text = format!(
        "pid: {}\nhost: {}\nstarted: {started}\ncommand: {}\n",
        std::process::id(),
        host(),
        command_line()
    );
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// The holder recorded in a lock file, for a message: `pid 123 on host h, started 4 s
/// ago: playtune tell runs/t`. The holder writes it just after it locks, so an empty
/// or dead record is read again for a moment.
fn holder(path: &Path) -> String {
    let started = Instant::now();
    loop {
        let mut text = String::new();
        let _ = super::files::open_plain_read(path)
            .and_then(|f| f.take(1 << 16).read_to_string(&mut text));
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
                .map(str::to_string)
        };
        let pid = field("pid").and_then(|p| p.parse::<u32>().ok());
        let host_of = field("host").unwrap_or_default();
        let alive = pid.is_some_and(|p| host_of != host() || process_alive(p));
        if alive || started.elapsed() > Duration::from_millis(500) {
            let Some(pid) = pid.filter(|_| alive) else {
                return "its holder is not recorded".into();
            };
            let ago = field("started")
                .and_then(|s| s.parse::<u64>().ok())
                .and_then(|s| {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .ok()?
                        .as_secs();
                    let secs = now.saturating_sub(s);
                    Some(if secs < 60 {
                        format!(", started {secs} s ago")
                    } else {
                        format!(", started {} ago", super::duration_text(secs as f64))
                    })
                })
                .unwrap_or_default();
            return format!(
                "pid {pid} on host {host_of}{ago}: `{}`",
                field("command").unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let sent = unsafe { libc::kill(pid as libc::pid_t, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

fn host() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most buf.len() bytes into buf.
        if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            if end > 0 {
                return String::from_utf8_lossy(&buf[..end]).into_owned();
            }
        }
    }
    std::env::var("HOSTNAME").unwrap_or_else(|_| "?".into())
}

/// This command as it was typed, the program by its file name.
fn command_line() -> String {
    std::env::args()
        .enumerate()
        .map(|(i, a)| {
            let a = if i == 0 {
                Path::new(&a)
                    .file_name()
                    .map_or(a.clone(), |n| n.to_string_lossy().into_owned())
            } else {
                a
            };
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .take(1000)
        .collect()
}

/// Writes a file whole or not at all: a temporary file of this process in the same
/// folder, renamed into place, so a reader sees the old file or the new one, and a
/// killed writer leaves the old one.
pub fn write_whole(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let (path, bytes) = (path.as_ref(), bytes.as_ref());
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other(format!("{}: not a file name", path.display())))?;
    let tmp = path.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    // A fresh file (O_EXCL): a file or link of that name left behind is replaced,
    // never written through. Renaming replaces a link at `path`, never follows it.
    let written = super::files::create_temporary(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_in_one_process_shares_the_first() {
        let dir = tempfile::TempDir::new().unwrap();
        let a = lock(dir.path()).unwrap();
        let b = lock(dir.path()).unwrap();
        drop(a);
        drop(b);
        let text = std::fs::read_to_string(dir.path().join(LOCK_FILE)).unwrap();
        assert!(
            text.contains(&format!("pid: {}", std::process::id())),
            "{text}"
        );
        // Released: a fresh open can lock it.
        let f = File::open(dir.path().join(LOCK_FILE)).unwrap();
        assert!(try_lock(&f, true).unwrap());
    }

    #[test]
    fn another_open_file_is_refused_with_the_holder() {
        let dir = tempfile::TempDir::new().unwrap();
        let _held = lock(dir.path()).unwrap();
        // Another open file description conflicts as another process would.
        let f = File::open(dir.path().join(LOCK_FILE)).unwrap();
        assert!(!try_lock(&f, true).unwrap());
        let who = holder(&dir.path().join(LOCK_FILE));
        assert!(
            who.contains(&format!("pid {}", std::process::id())),
            "{who}"
        );
    }

    /// Two guards of one folder in one process (a notebook cell run twice): dropping
    /// the first keeps the folder locked until the second goes.
    #[test]
    fn the_lock_lives_as_long_as_any_guard() {
        let dir = tempfile::TempDir::new().unwrap();
        let first = lock(dir.path()).unwrap();
        let second = lock(dir.path()).unwrap();
        drop(first);
        let f = File::open(dir.path().join(LOCK_FILE)).unwrap();
        assert!(!try_lock(&f, true).unwrap(), "released with a guard alive");
        drop(second);
        let f = File::open(dir.path().join(LOCK_FILE)).unwrap();
        assert!(
            try_lock(&f, true).unwrap(),
            "still held after the last guard"
        );
    }

    #[test]
    fn whole_writes_leave_no_temporary_file() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("x.ron");
        write_whole(&path, b"one").unwrap();
        write_whole(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
