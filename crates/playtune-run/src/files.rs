//! A run's files are plain files of the run folder, and nothing playtune does to them
//! reaches outside it.
//!
//! The logs are appended to and repaired in place (a last line torn by a kill is cut
//! off), so opening one through a symbolic link would cut or extend whatever file the
//! link names: a link planted as `verdict.jsonl` once had `resume` cut the last line
//! of a file elsewhere. Every open for writing here refuses a link (`O_NOFOLLOW`, so
//! that a link made between a check and the open is refused too), a folder, a device
//! or a pipe, and a file with other names (hard links), whose other names a write
//! would change as well. Whole files are written under a fresh temporary name, made
//! with `O_EXCL` (which never follows a link), and renamed into place, which replaces
//! a link rather than writing through it.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// A run folder's log of every evaluation (`evals.csv`).
pub const LOG_FILE: &str = "evals.csv";
/// A run folder's failed evaluations, one JSON object a line.
pub const FAILURES_FILE: &str = "failures.jsonl";
/// A run folder's verdict: each pair of evaluations it played, one JSON object a line.
pub(crate) const VERDICT_LOG_FILE: &str = "verdict.jsonl";
/// The lock file inside a locked folder.
pub const LOCK_FILE: &str = ".playtune.lock";

/// The files of a run folder that a command writing the folder writes or repairs:
/// each must be a plain file of the folder where it exists. Their names are all here,
/// so that the modules that write them import this one and never each other.
pub(crate) const RUN_FILES: &[&str] = &[
    super::CONFIG_FILE,
    LOG_FILE,
    FAILURES_FILE,
    VERDICT_LOG_FILE,
    super::RESULT_FILE,
    LOCK_FILE,
    ASKED_FILE,
];

/// The candidates of an ask/tell run handed out and not yet told (written by the
/// command line's `ask`).
const ASKED_FILE: &str = "asked.jsonl";

/// What a run's file is when it is not a plain file of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NotPlainKind {
    /// A symbolic link, and where it points (if it can be read).
    Link(Option<PathBuf>),
    /// A folder.
    Folder,
    /// A device, a pipe or a socket.
    Special,
    /// A plain file with this many names (hard links).
    Names(u64),
}

/// A file playtune would write or repair that is not a plain file of the folder: it
/// is refused, never followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}: {}; playtune writes and repairs a run's files only as plain files of the run folder, never through a link or into another file (replace it by a plain file, or remove it)",
    path.display(),
    kind_text(kind)
)]
pub struct NotPlain {
    /// The file refused.
    pub path: PathBuf,
    /// What it is.
    pub(crate) kind: NotPlainKind,
}

fn kind_text(kind: &NotPlainKind) -> String {
    match kind {
        NotPlainKind::Link(Some(to)) => format!("a symbolic link (to {})", to.display()),
        NotPlainKind::Link(None) => "a symbolic link".into(),
        NotPlainKind::Folder => "a folder, not a file".into(),
        NotPlainKind::Special => "not a plain file (a device, a pipe or a socket)".into(),
        NotPlainKind::Names(n) => format!(
            "a file with {n} names (hard links): a write here would change it under its other names too"
        ),
    }
}

impl NotPlain {
    fn new(path: &Path, kind: NotPlainKind) -> NotPlain {
        NotPlain {
            path: path.to_path_buf(),
            kind,
        }
    }

    fn link(path: &Path) -> NotPlain {
        NotPlain::new(path, NotPlainKind::Link(std::fs::read_link(path).ok()))
    }
}

impl From<NotPlain> for io::Error {
    fn from(e: NotPlain) -> io::Error {
        io::Error::other(e)
    }
}

/// The [`NotPlain`] an I/O error carries, if it is one: what lets a caller that got an
/// `io::Error` from a writer give the typed error.
pub(crate) fn not_plain(e: &io::Error) -> Option<&NotPlain> {
    e.get_ref()?.downcast_ref::<NotPlain>()
}

/// Checks that `path`, where it exists, is a plain file with one name; a missing file
/// is fine (it will be created). Errors other than "not plain" are left to the open
/// that follows, which names them.
pub fn check(path: &Path) -> Result<(), NotPlain> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    kind_of(&meta).map_or(Ok(()), |k| {
        Err(match k {
            NotPlainKind::Link(_) => NotPlain::link(path),
            k => NotPlain::new(path, k),
        })
    })
}

/// Checks every file of `RUN_FILES` in `dir`: what a command that writes a run
/// folder does before it changes anything, so that it stops at once, naming the file.
pub(crate) fn check_run_folder(dir: &Path) -> Result<(), NotPlain> {
    RUN_FILES.iter().try_for_each(|f| check(&dir.join(f)))
}

fn kind_of(meta: &std::fs::Metadata) -> Option<NotPlainKind> {
    let t = meta.file_type();
    if t.is_symlink() {
        return Some(NotPlainKind::Link(None));
    }
    if t.is_dir() {
        return Some(NotPlainKind::Folder);
    }
    if !t.is_file() {
        return Some(NotPlainKind::Special);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Some(NotPlainKind::Names(meta.nlink()));
        }
    }
    None
}

/// `options` opening `path` without following a link in its last component, and the
/// file checked to be plain once open (what was opened is what is written).
fn open_plain(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    check(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a pipe put there must not hold the open; it is refused below.
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return io::Error::from(NotPlain::link(path));
        }
        e
    })?;
    if let Some(k) = kind_of(&file.metadata()?) {
        return Err(NotPlain::new(path, k).into());
    }
    #[cfg(unix)]
    clear_nonblock(&file)?;
    Ok(file)
}

/// Back to blocking writes: O_NONBLOCK was for the open only.
#[cfg(unix)]
fn clear_nonblock(file: &File) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: fcntl on a file descriptor this File owns for the whole call.
    let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Opens a log for appending, creating it if it is missing; refuses anything but a
/// plain file of its own.
pub(crate) fn open_append(path: &Path) -> io::Result<File> {
    open_plain(path, OpenOptions::new().create(true).append(true))
}

/// Opens an existing file for writing in place (a lock file's record, a repair).
pub(crate) fn open_in_place(path: &Path, create: bool) -> io::Result<File> {
    open_plain(
        path,
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(create)
            .truncate(false),
    )
}

/// The most a reader takes of one run file: far more than any run writes (a million
/// evaluations' log is a few hundred megabytes), far less than a machine's memory.
pub const MAX_READ: u64 = 2 << 30;

/// Reads a run file for a command that only reads (`status`, `report`, `plot`,
/// `compare`): a plain file, through a link or not, of at most [`MAX_READ`] bytes.
/// A pipe, a device or a socket is refused before it is read, so that none can hold
/// the reader (a pipe blocks it for ever, `/dev/zero` fills its memory); the open
/// does not wait on a pipe put there meanwhile. The caller names the file.
pub fn read_plain(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = open_plain_read(path)?;
    // Refused by its size before a byte is read: a file of gigabytes (sparse, or
    // grown) must not be loaded into memory to be refused.
    if file.metadata()?.len() > MAX_READ {
        return Err(io::Error::other(format!(
            "over {MAX_READ} bytes, more than any run writes: playtune does not read it"
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_READ + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_READ {
        return Err(io::Error::other(format!(
            "over {MAX_READ} bytes, more than any run writes: playtune does not read it"
        )));
    }
    Ok(bytes)
}

/// Why a link to nothing is refused.
const DANGLING: &str = "a link to nothing (its target is gone): a run's files are plain files, and this one is missing";

/// Whether `path` is there to read: `false` where nothing is, an error where a link
/// to nothing stands in its place.
pub fn present(path: &Path) -> io::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(_) if std::fs::metadata(path).is_err() => Err(io::Error::other(DANGLING)),
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Opens a plain file (through a link or not) to read it, refusing a pipe, a device
/// or a socket without waiting on it.
pub(crate) fn open_plain_read(path: &Path) -> io::Result<File> {
    let refuse = || {
        io::Error::other(
            "not a plain file (a pipe, a device or a socket): a run's files are plain files, and playtune does not read this one",
        )
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        // A link whose target is gone is a damaged folder, not a file not yet written.
        Err(e)
            if e.kind() == io::ErrorKind::NotFound && std::fs::symlink_metadata(path).is_ok() =>
        {
            return Err(io::Error::other(DANGLING));
        }
        Err(e) => return Err(e),
    };
    if !meta.is_file() {
        return Err(refuse());
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(refuse());
    }
    Ok(file)
}

/// [`read_plain`] as text; bytes that are not UTF-8 are an error naming the file.
pub fn read_plain_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_plain(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Reads a file that is to be repaired or extended: `None` when it does not exist.
/// A link or anything but a plain file is refused before it is read.
pub fn read(path: &Path) -> io::Result<Option<Vec<u8>>> {
    check(path)?;
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Cuts a last line that an interruption left without its line end (any line-based
/// log: `evals.csv`, `failures.jsonl`, `verdict.jsonl`, an experiment's logs), so that
/// the next line appended starts a line of its own. A missing file is left missing.
pub(crate) fn cut_torn_line(path: &Path) -> io::Result<()> {
    match read(path)? {
        Some(bytes) => cut_torn(path, &bytes),
        None => Ok(()),
    }
}

/// [`cut_torn_line`] of a file whose text `bytes` was just read.
pub(crate) fn cut_torn(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if bytes.is_empty() || bytes.last() == Some(&b'\n') {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    open_in_place(path, false)?.set_len(keep as u64)
}

/// Creates the temporary file `tmp` afresh for a whole-file write: a file of that
/// name left by an earlier command (or a link put there) is removed, never written
/// through, and the new one is made with `O_EXCL`.
pub(crate) fn create_temporary(tmp: &Path) -> io::Result<File> {
    match std::fs::remove_file(tmp) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    OpenOptions::new().write(true).create_new(true).open(tmp)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    /// A link, a folder, a pipe and a second name are each refused, and nothing is
    /// written into what they name.
    #[test]
    fn only_plain_files_are_opened_and_nothing_is_written_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "first\nunterminated").unwrap();
        let link = dir.path().join("verdict.jsonl");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let e = cut_torn_line(&link).unwrap_err();
        assert!(matches!(
            not_plain(&e).unwrap().kind,
            NotPlainKind::Link(Some(_))
        ));
        assert!(
            e.to_string()
                .contains("verdict.jsonl: a symbolic link (to ")
        );
        let e = open_append(&link).unwrap_err();
        assert!(not_plain(&e).is_some(), "{e}");
        assert_eq!(
            std::fs::read_to_string(&outside).unwrap(),
            "first\nunterminated"
        );

        let folder = dir.path().join("evals.csv");
        std::fs::create_dir(&folder).unwrap();
        assert_eq!(check(&folder).unwrap_err().kind, NotPlainKind::Folder);

        let second = dir.path().join("failures.jsonl");
        std::fs::hard_link(&outside, &second).unwrap();
        let e = open_append(&second).unwrap_err();
        assert_eq!(not_plain(&e).unwrap().kind, NotPlainKind::Names(2));

        let pipe = dir.path().join("result.ron");
        let c = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = open_append(&pipe).unwrap_err();
        assert_eq!(not_plain(&e).unwrap().kind, NotPlainKind::Special);
        assert_eq!(
            check_run_folder(dir.path()).unwrap_err().path,
            dir.path().join("evals.csv")
        );

        // A plain file is opened, appended to and repaired.
        let plain = dir.path().join("plain.jsonl");
        open_append(&plain).unwrap().write_all(b"a\nb").unwrap();
        cut_torn_line(&plain).unwrap();
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "a\n");
    }

    /// A temporary name holding a link is replaced by a new file, the link's target
    /// untouched.
    #[test]
    fn a_temporary_file_is_made_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "precious").unwrap();
        let tmp = dir.path().join("evals.csv.tmp");
        std::os::unix::fs::symlink(&outside, &tmp).unwrap();
        create_temporary(&tmp).unwrap().write_all(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&tmp).unwrap(), "new");
        assert!(!std::fs::symlink_metadata(&tmp).unwrap().is_symlink());
    }
}
