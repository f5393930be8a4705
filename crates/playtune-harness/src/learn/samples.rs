//! The self-play sample file: one file, a header that names the game, its settings,
//! the agents, the seed and the state encoding, then one record per finished game
//! holding one sample per turn (the player to move and the state's counts) and the
//! game's winner.
//!
//! ```text
//! playtune-samples 2\n
//! u32 LE: length of the header, the header as RON (SampleHeader), u64 LE: its check
//! records, each:
//!   4 bytes: A5 5A C3 3C (the start of a record)
//!   u32 LE: length L of the body
//!   body (L bytes): u32 LE game index, u8 winner (0, 1, ... or 255: no single
//!     winner), u32 LE samples n, n bytes: player to move, n x len bytes: counts
//!   u64 LE: the check, FNV-1a of the length and the body
//! ```
//!
//! A byte per feature keeps a sample at about 60 bytes for the strategy game, so a
//! million samples fit in memory for training. Records are written whole, one write
//! each, in the order games finish; a run that is cut off leaves at worst a short
//! last record, which is dropped when the file is opened again (resume).
//!
//! Every record is checked when read: its length, its check, and its values (a
//! winner and players to move among the seats, at least one sample, a game index
//! not already in the file). A damaged record is left out and named by its byte
//! offset; reading goes on at the next record whose start, length and check hold,
//! so one flipped bit costs one game, which `selfplay` plays again.
//!
//! Files of version 1 (`playtune-samples 1`: records `A5`, game, winner, n, movers,
//! counts, without length or check) are read as they are, their values checked; the
//! next `selfplay` into one rewrites it in version 2.

use super::Error;
use super::encoding::Encoding;
use playtune_optim::damage::fnv1a;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &[u8] = b"playtune-samples 2\n";
const MAGIC_V1: &[u8] = b"playtune-samples 1\n";
/// The start of a record (version 2).
const RECORD_MARK: [u8; 4] = [0xA5, 0x5A, 0xC3, 0x3C];
/// The start of a record (version 1).
const RECORD_V1: u8 = 0xA5;
/// Body bytes before the samples: game index, winner, sample count.
const BODY_HEAD: usize = 9;
/// The most samples (turns) one game may hold.
pub(crate) const MAX_SAMPLES_PER_GAME: usize = 1 << 20;
/// The longest header.
const MAX_HEADER: usize = 1 << 24;
/// The winner byte of a game without a single winner (a draw).
pub(crate) const NO_WINNER: u8 = 255;

/// What produced the samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleHeader {
    /// The game's name.
    pub game: String,
    /// Every game setting with its value.
    pub settings: Vec<(String, String)>,
    /// The agents, one per seat; seats rotate with the game index.
    pub agents: Vec<String>,
    /// Every agent's default forward-model budget, if one was given.
    pub budget: Option<usize>,
    /// The run's seed.
    pub seed: u64,
    /// The encoding of the samples.
    pub encoding: Encoding,
}

impl SampleHeader {
    /// Why `other` (a file's header) is not this run's: the first field that differs.
    pub(crate) fn mismatch(&self, other: &SampleHeader) -> Option<String> {
        let field = if self.game != other.game {
            "game"
        } else if self.settings != other.settings {
            "settings"
        } else if self.agents != other.agents {
            "agents"
        } else if self.budget != other.budget {
            "budget"
        } else if self.seed != other.seed {
            "seed"
        } else if self.encoding != other.encoding {
            "encoding"
        } else {
            return None;
        };
        Some(field.to_string())
    }

    /// Why the header cannot be one `selfplay` writes: no agents (seats), more seats
    /// than a byte names, or an encoding without features or with a feature capped
    /// at 0.
    pub fn check(&self) -> Result<(), String> {
        if self.agents.is_empty() || self.agents.len() >= usize::from(NO_WINNER) {
            return Err(format!(
                "agents: {} seats (give 1 to {})",
                self.agents.len(),
                NO_WINNER - 1
            ));
        }
        check_encoding(&self.encoding)
    }
}

/// Why `e` cannot encode states: no features, or a feature capped at 0 (it would
/// have no input to set).
pub fn check_encoding(e: &Encoding) -> Result<(), String> {
    if e.features.is_empty() {
        return Err(format!("encoding `{}`: no features", e.name));
    }
    if let Some((k, f)) = e.features.iter().enumerate().find(|(_, f)| f.cap == 0) {
        return Err(format!(
            "encoding `{}`: feature {k} (`{}`) has a cap of 0",
            e.name, f.name
        ));
    }
    Ok(())
}

/// One game's samples.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSamples {
    /// The game's index in the run (it seeds the game).
    pub game: u32,
    /// The single winner's seat, or 255 for a game without a single winner (a draw).
    pub winner: u8,
    /// The player to move in each sample.
    pub movers: Vec<u8>,
    /// Each sample's counts, `len` bytes each, back to back.
    pub counts: Vec<u8>,
}

impl GameSamples {
    /// The record as written (version 2).
    fn to_bytes(&self) -> Vec<u8> {
        let body_len = BODY_HEAD + self.movers.len() + self.counts.len();
        let mut out = Vec::with_capacity(16 + body_len);
        out.extend_from_slice(&RECORD_MARK);
        out.extend_from_slice(&(body_len as u32).to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        out.push(self.winner);
        out.extend_from_slice(&(self.movers.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.movers);
        out.extend_from_slice(&self.counts);
        let check = fnv1a(&out[4..]);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Why the game cannot be one of a file with `seats` players and `len` bytes a
    /// sample: a winner or a player to move not among the seats, no samples or too
    /// many, counts of another length.
    pub fn impossible(&self, seats: usize, len: usize) -> Option<String> {
        if self.winner != NO_WINNER && usize::from(self.winner) >= seats {
            return Some(format!(
                "game {}: winner {}, but the game has {seats} seats",
                self.game, self.winner
            ));
        }
        if let Some(m) = self.movers.iter().find(|&&m| usize::from(m) >= seats) {
            return Some(format!(
                "game {}: player to move {m}, but the game has {seats} seats",
                self.game
            ));
        }
        if self.movers.is_empty() || self.movers.len() > MAX_SAMPLES_PER_GAME {
            return Some(format!(
                "game {}: {} samples (a game has 1 to {MAX_SAMPLES_PER_GAME})",
                self.game,
                self.movers.len()
            ));
        }
        if self.counts.len() != self.movers.len() * len {
            return Some(format!(
                "game {}: {} bytes of counts for {} samples of {len}",
                self.game,
                self.counts.len(),
                self.movers.len()
            ));
        }
        None
    }

    /// Samples in the game.
    pub fn len(&self) -> usize {
        self.movers.len()
    }

    /// Whether the game has no samples.
    pub fn is_empty(&self) -> bool {
        self.movers.is_empty()
    }

    /// The training target of sample `i`: 1 if the player to move won, 0 if they
    /// lost, 0.5 without a single winner.
    pub fn target(&self, i: usize) -> f32 {
        if self.winner == NO_WINNER {
            0.5
        } else if self.winner == self.movers[i] {
            1.0
        } else {
            0.0
        }
    }
}

/// A stretch of a sample file left out: where it starts, its length and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// Where it starts, in bytes from the file's start.
    pub at: u64,
    /// Its length in bytes.
    pub len: u64,
    /// Why it was left out.
    pub why: String,
}

/// A sample file read whole.
#[derive(Clone, Debug)]
pub struct SampleFile {
    /// What produced the samples.
    pub header: SampleHeader,
    /// The intact games, in file order.
    pub games: Vec<GameSamples>,
    /// Bytes of a last record cut short (dropped).
    pub torn: u64,
    /// Records left out as damaged or impossible (their games are played again by
    /// the next `selfplay`).
    pub damaged: Vec<Damage>,
    /// The file's format version (1 or 2).
    pub version: u8,
    /// Where the complete records end.
    end: u64,
    /// Where each game's record starts.
    offsets: Vec<u64>,
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::File(format!("{}: {what}: {e}", path.display()))
}

/// One version 2 record at `at`: its game and where the record ends, or why it is
/// not one (`Err(None)`: it runs past the end of the file).
fn record_at(bytes: &[u8], at: usize, len: usize) -> Result<(GameSamples, usize), Option<String>> {
    let head = bytes.get(at..at + 8).ok_or(None)?;
    if head[..4] != RECORD_MARK {
        return Err(Some("not the start of a game record".into()));
    }
    let body_len = read_u32(head, 4).ok_or(None)? as usize;
    let most = BODY_HEAD + MAX_SAMPLES_PER_GAME * (1 + len);
    if !(BODY_HEAD..=most).contains(&body_len) {
        return Err(Some(format!("a record length of {body_len} bytes")));
    }
    let end = at + 8 + body_len + 8;
    if end > bytes.len() {
        return Err(None);
    }
    let check = u64::from_le_bytes(bytes[end - 8..end].try_into().expect("8 bytes"));
    if fnv1a(&bytes[at + 4..end - 8]) != check {
        return Err(Some(
            "its check does not match: the record was changed".into(),
        ));
    }
    let body = &bytes[at + 8..end - 8];
    let game = read_u32(body, 0).expect("checked length");
    let winner = body[4];
    let n = read_u32(body, 5).expect("checked length") as usize;
    if n.checked_mul(1 + len)
        .and_then(|b| b.checked_add(BODY_HEAD))
        != Some(body_len)
    {
        return Err(Some(format!(
            "game {game}: {n} samples do not fill a record of {body_len} bytes"
        )));
    }
    Ok((
        GameSamples {
            game,
            winner,
            movers: body[BODY_HEAD..BODY_HEAD + n].to_vec(),
            counts: body[BODY_HEAD + n..].to_vec(),
        },
        end,
    ))
}

/// The next version 2 record at or after `from` whose start, length and check hold.
fn next_record(bytes: &[u8], from: usize, len: usize) -> Option<usize> {
    let mut at = from;
    while at + 4 <= bytes.len() {
        let found = bytes[at..].windows(4).position(|w| w == RECORD_MARK)?;
        at += found;
        if record_at(bytes, at, len).is_ok() {
            return Some(at);
        }
        at += 1;
    }
    None
}

impl SampleFile {
    /// Reads `path`. A last record cut short is dropped and counted in `torn`; a
    /// damaged record (or one with impossible values) is left out and named in
    /// `damaged`, and every intact record after it kept. A file that is not a
    /// sample file, or whose header is damaged, is an error naming the byte offset.
    pub fn read(path: &Path) -> Result<SampleFile, Error> {
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| io_error(path, "cannot read", e))?;
        let bad =
            |at: usize, why: &str| Error::File(format!("{}: byte {at}: {why}", path.display()));
        let version = if bytes.starts_with(MAGIC) {
            2
        } else if bytes.starts_with(MAGIC_V1) {
            1
        } else {
            return Err(bad(
                0,
                "not a playtune sample file (no `playtune-samples 2` line)",
            ));
        };
        let mut at = MAGIC.len();
        let header_len = read_u32(&bytes, at).ok_or_else(|| bad(at, "header cut short"))? as usize;
        if header_len > MAX_HEADER {
            return Err(bad(at, &format!("a header of {header_len} bytes")));
        }
        at += 4;
        let raw = bytes
            .get(at..at + header_len)
            .ok_or_else(|| bad(at, "header cut short"))?;
        if version == 2 {
            let check = bytes
                .get(at + header_len..at + header_len + 8)
                .ok_or_else(|| bad(at, "header cut short"))?;
            if fnv1a(raw) != u64::from_le_bytes(check.try_into().expect("8 bytes")) {
                return Err(bad(
                    at,
                    "the header's check does not match: the header was changed",
                ));
            }
        }
        let text = std::str::from_utf8(raw).map_err(|_| bad(at, "header is not UTF-8"))?;
        let header: SampleHeader = ron::from_str(text).map_err(|e| header_error(path, e))?;
        header.check().map_err(|e| header_error(path, e))?;
        at += header_len + if version == 2 { 8 } else { 0 };
        let mut file = SampleFile {
            header,
            games: Vec::new(),
            torn: 0,
            damaged: Vec::new(),
            version,
            end: at as u64,
            offsets: Vec::new(),
        };
        if version == 1 {
            file.read_v1(&bytes, at)
                .map_err(|(at, why)| bad(at, &why))?;
        } else {
            file.read_v2(&bytes, at);
        }
        file.drop_impossible();
        Ok(file)
    }

    /// Version 2 records from `at`.
    fn read_v2(&mut self, bytes: &[u8], mut at: usize) {
        let len = self.header.encoding.len();
        while at < bytes.len() {
            match record_at(bytes, at, len) {
                Ok((game, end)) => {
                    self.games.push(game);
                    self.offsets.push(at as u64);
                    at = end;
                    self.end = at as u64;
                }
                Err(why) => {
                    let next = next_record(bytes, at + 1, len);
                    match (why, next) {
                        // A record that runs past the end with nothing after it: the
                        // last write, cut short.
                        (None, None) => break,
                        (why, next) => {
                            let to = next.unwrap_or(bytes.len());
                            self.damaged.push(Damage {
                                at: at as u64,
                                len: (to - at) as u64,
                                why: why.unwrap_or_else(|| {
                                    "its length runs past the next record".into()
                                }),
                            });
                            at = to;
                            self.end = at as u64;
                        }
                    }
                }
            }
        }
        self.torn = (bytes.len() as u64).saturating_sub(self.end);
    }

    /// Version 1 records from `at`: without lengths or checks, a record that does not
    /// start where the last ended is an error.
    fn read_v1(&mut self, bytes: &[u8], mut at: usize) -> Result<(), (usize, String)> {
        let len = self.header.encoding.len();
        while at < bytes.len() {
            if bytes[at] != RECORD_V1 {
                return Err((at, "not the start of a game record".into()));
            }
            let (Some(game), Some(&winner), Some(n)) = (
                read_u32(bytes, at + 1),
                bytes.get(at + 5),
                read_u32(bytes, at + 6),
            ) else {
                break;
            };
            let n = n as usize;
            let body = at + 10;
            let Some(record_end) = n
                .checked_mul(1 + len)
                .and_then(|b| body.checked_add(b))
                .filter(|&e| e <= bytes.len())
            else {
                break;
            };
            self.games.push(GameSamples {
                game,
                winner,
                movers: bytes[body..body + n].to_vec(),
                counts: bytes[body + n..record_end].to_vec(),
            });
            self.offsets.push(at as u64);
            at = record_end;
            self.end = at as u64;
        }
        self.torn = bytes.len() as u64 - self.end;
        Ok(())
    }

    /// Leaves out games with impossible values and every copy of a game index found
    /// twice with other samples (which copy is right is not known; the game is
    /// played again); an identical copy is left out too. Each is named in `damaged`.
    fn drop_impossible(&mut self) {
        let seats = self.header.agents.len();
        let len = self.header.encoding.len();
        let mut first: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        let mut conflicting = std::collections::HashSet::new();
        let mut keep = vec![true; self.games.len()];
        let mut notes = Vec::new();
        for (i, g) in self.games.iter().enumerate() {
            if let Some(why) = g.impossible(seats, len) {
                keep[i] = false;
                notes.push((i, why));
                continue;
            }
            match first.get(&g.game) {
                None => {
                    first.insert(g.game, i);
                }
                Some(&j) => {
                    keep[i] = false;
                    if self.games[j] == *g {
                        notes.push((i, format!("game {} again, the same samples", g.game)));
                    } else {
                        conflicting.insert(g.game);
                        notes.push((
                            i,
                            format!("game {} again with other samples: every copy goes", g.game),
                        ));
                    }
                }
            }
        }
        for (i, g) in self.games.iter().enumerate() {
            if keep[i] && conflicting.contains(&g.game) {
                keep[i] = false;
                notes.push((
                    i,
                    format!("game {} is in the file twice with other samples", g.game),
                ));
            }
        }
        let framing = if self.version == 2 {
            16 + BODY_HEAD
        } else {
            10
        };
        for (i, why) in notes {
            let g = &self.games[i];
            self.damaged.push(Damage {
                at: self.offsets[i],
                len: (framing + g.movers.len() + g.counts.len()) as u64,
                why,
            });
        }
        self.damaged.sort_by_key(|d| d.at);
        let mut i = 0;
        self.games.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        let mut i = 0;
        self.offsets.retain(|_| {
            i += 1;
            keep[i - 1]
        });
    }

    /// A sample file held in memory (for tests and tools that make samples).
    pub fn from_parts(header: SampleHeader, games: Vec<GameSamples>) -> SampleFile {
        SampleFile {
            header,
            games,
            torn: 0,
            damaged: Vec::new(),
            version: 2,
            end: 0,
            offsets: Vec::new(),
        }
    }

    /// Several sample files as one, for training on all of them (self-play of
    /// different agents, say). They must share an encoding; the first file's header
    /// stands for all. The games of file `k` after the first get `k << 24` added to
    /// their indices, which keeps every index distinct (a file holds fewer than 2^24
    /// games) and leaves the first file's games, and so its validation split,
    /// exactly as training on it alone.
    pub fn merge(files: Vec<(String, SampleFile)>) -> Result<SampleFile, Error> {
        let mut files = files.into_iter();
        let Some((_, mut all)) = files.next() else {
            return Err(Error::File("no sample files to train on".into()));
        };
        for (k, (name, file)) in files.enumerate() {
            all.header
                .encoding
                .check_same(&file.header.encoding, &format!("the samples of {name}"))?;
            let offset = ((k + 1) as u32) << 24;
            all.games.extend(file.games.into_iter().map(|mut g| {
                g.game |= offset;
                g
            }));
        }
        all.offsets.clear();
        Ok(all)
    }

    /// Samples in all games.
    pub fn samples(&self) -> usize {
        self.games.iter().map(GameSamples::len).sum()
    }

    /// A warning naming the records left out of `path`, or None when none was;
    /// `then` says what becomes of their games.
    pub fn damage_message(&self, path: &Path, then: &str) -> Option<String> {
        if self.damaged.is_empty() {
            return None;
        }
        let shown: Vec<String> = self
            .damaged
            .iter()
            .take(20)
            .map(|d| format!("byte {} ({} bytes): {}", d.at, d.len, d.why))
            .collect();
        let more = if self.damaged.len() > 20 {
            format!("; {} more", self.damaged.len() - 20)
        } else {
            String::new()
        };
        Some(format!(
            "warning: {}: left out {} damaged game record(s), {then} ({}{more})",
            path.display(),
            self.damaged.len(),
            shown.join("; ")
        ))
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// A sample file's header that cannot be read, written or used.
fn header_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::File(format!("{}: header: {e}", path.display()))
}

/// The start of a version 2 file: the line, the header and its check.
fn header_bytes(path: &Path, header: &SampleHeader) -> Result<Vec<u8>, Error> {
    header.check().map_err(|e| header_error(path, e))?;
    let text = ron::ser::to_string_pretty(header, ron::ser::PrettyConfig::default())
        .map_err(|e| header_error(path, e))?;
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    bytes.extend_from_slice(&fnv1a(text.as_bytes()).to_le_bytes());
    Ok(bytes)
}

/// Appends game records to a sample file; shared by the threads that play games.
pub struct SampleWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl SampleWriter {
    /// Starts `path` afresh with `header`.
    pub fn create(path: &Path, header: &SampleHeader) -> Result<SampleWriter, Error> {
        let bytes = header_bytes(path, header)?;
        let mut file = File::create(path).map_err(|e| io_error(path, "cannot create", e))?;
        file.write_all(&bytes)
            .map_err(|e| io_error(path, "cannot write", e))?;
        Ok(SampleWriter {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// Opens `path` to add games to it: the file's header must be `header` (else the
    /// message names the field that differs), and a last record cut short is cut off.
    /// A file with damaged records, or of version 1, is first rewritten (through a
    /// temporary file) in version 2 with its intact games only, so that the games
    /// left out are played again and appended. Returns the writer and the games
    /// already in the file.
    pub fn resume(path: &Path, header: &SampleHeader) -> Result<(SampleWriter, SampleFile), Error> {
        let existing = SampleFile::read(path)?;
        if let Some(field) = header.mismatch(&existing.header) {
            return Err(Error::File(format!(
                "{}: was made with another {field}; give another file, or the same settings to add games to it",
                path.display()
            )));
        }
        if existing.version != 2 || !existing.damaged.is_empty() {
            let mut bytes = header_bytes(path, &existing.header)?;
            for g in &existing.games {
                bytes.extend_from_slice(&g.to_bytes());
            }
            let tmp = path.with_extension("bin.tmp");
            File::create(&tmp)
                .and_then(|mut f| f.write_all(&bytes).and_then(|()| f.sync_all()))
                .and_then(|()| std::fs::rename(&tmp, path))
                .map_err(|e| io_error(path, "cannot rewrite", e))?;
        } else {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| io_error(path, "cannot open", e))?;
            file.set_len(existing.end)
                .map_err(|e| io_error(path, "cannot cut the torn record", e))?;
        }
        let mut file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, "cannot open", e))?;
        file.seek(SeekFrom::End(0))
            .map_err(|e| io_error(path, "cannot open", e))?;
        Ok((
            SampleWriter {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            existing,
        ))
    }

    /// Appends one game, whole.
    pub fn append(&self, game: &GameSamples) -> Result<(), Error> {
        let bytes = game.to_bytes();
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(&bytes)
            .map_err(|e| io_error(&self.path, "cannot write", e))
    }

    /// Flushes the file to disk.
    pub fn finish(&self) -> Result<(), Error> {
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.sync_data()
            .map_err(|e| io_error(&self.path, "cannot sync", e))
    }
}

#[cfg(test)]
mod tests;
