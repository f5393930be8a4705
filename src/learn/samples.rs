//! The self-play sample file: one file, a header that names the game, its settings,
//! the agents, the seed and the state encoding, then one record per finished game
//! holding one sample per turn (the player to move and the state's counts) and the
//! game's winner.
//!
//! ```text
//! playtune-samples 1\n
//! u32 LE: length of the header, then the header as RON (SampleHeader)
//! records, each: 0xA5, u32 LE game index, u8 winner (0, 1, ... or 255: no single
//!   winner), u32 LE samples n, n bytes: player to move, n x len bytes: counts
//! ```
//!
//! A byte per feature keeps a sample at about 60 bytes for the strategy game, so a
//! million samples fit in memory for training. Records are written whole, one write
//! each, in the order games finish; a run that is cut off leaves at worst a short
//! last record, which is dropped when the file is opened again (resume).

use super::encoding::Encoding;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &[u8] = b"playtune-samples 1\n";
const RECORD: u8 = 0xA5;
/// The winner byte of a game without a single winner (a draw).
pub const NO_WINNER: u8 = 255;

/// What produced the samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleHeader {
    pub game: String,
    /// Every game setting with its value.
    pub settings: Vec<(String, String)>,
    /// The agents, one per seat; seats rotate with the game index.
    pub agents: Vec<String>,
    /// Every agent's default forward-model budget, if one was given.
    pub budget: Option<usize>,
    pub seed: u64,
    pub encoding: Encoding,
}

impl SampleHeader {
    /// Why `other` (a file's header) is not this run's: the first field that differs.
    pub fn mismatch(&self, other: &SampleHeader) -> Option<String> {
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
}

/// One game's samples.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSamples {
    pub game: u32,
    /// The single winner's seat, or [`NO_WINNER`].
    pub winner: u8,
    /// The player to move in each sample.
    pub movers: Vec<u8>,
    /// Each sample's counts, `len` bytes each, back to back.
    pub counts: Vec<u8>,
}

impl GameSamples {
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(10 + self.movers.len() + self.counts.len());
        out.push(RECORD);
        out.extend_from_slice(&self.game.to_le_bytes());
        out.push(self.winner);
        out.extend_from_slice(&(self.movers.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.movers);
        out.extend_from_slice(&self.counts);
        out
    }

    /// Samples in the game.
    pub fn len(&self) -> usize {
        self.movers.len()
    }

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

/// A sample file read whole.
#[derive(Clone, Debug)]
pub struct SampleFile {
    pub header: SampleHeader,
    pub games: Vec<GameSamples>,
    /// Bytes of a last record cut short (dropped).
    pub torn: u64,
    /// Where the complete records end.
    end: u64,
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> String {
    format!("{}: {what}: {e}", path.display())
}

impl SampleFile {
    /// Reads `path`. A last record cut short is dropped and counted in `torn`; any
    /// other damage is an error naming the byte offset.
    pub fn read(path: &Path) -> Result<SampleFile, String> {
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| io_error(path, "cannot read", e))?;
        let bad = |at: usize, why: &str| format!("{}: byte {at}: {why}", path.display());
        if !bytes.starts_with(MAGIC) {
            return Err(bad(
                0,
                "not a playtune sample file (no `playtune-samples 1` line)",
            ));
        }
        let mut at = MAGIC.len();
        let header_len = read_u32(&bytes, at).ok_or_else(|| bad(at, "header cut short"))? as usize;
        at += 4;
        let text = bytes
            .get(at..at + header_len)
            .ok_or_else(|| bad(at, "header cut short"))?;
        let text = std::str::from_utf8(text).map_err(|_| bad(at, "header is not UTF-8"))?;
        let header: SampleHeader =
            ron::from_str(text).map_err(|e| format!("{}: header: {e}", path.display()))?;
        at += header_len;
        let len = header.encoding.len();
        let mut games = Vec::new();
        let mut end = at;
        while at < bytes.len() {
            if bytes[at] != RECORD {
                return Err(bad(at, "not the start of a game record"));
            }
            let (Some(game), Some(&winner), Some(n)) = (
                read_u32(&bytes, at + 1),
                bytes.get(at + 5),
                read_u32(&bytes, at + 6),
            ) else {
                break;
            };
            let n = n as usize;
            let body = at + 10;
            let Some(record_end) = body.checked_add(n + n * len).filter(|&e| e <= bytes.len())
            else {
                break;
            };
            games.push(GameSamples {
                game,
                winner,
                movers: bytes[body..body + n].to_vec(),
                counts: bytes[body + n..record_end].to_vec(),
            });
            at = record_end;
            end = at;
        }
        Ok(SampleFile {
            header,
            games,
            torn: (bytes.len() - end) as u64,
            end: end as u64,
        })
    }

    /// A sample file held in memory (for tests and tools that make samples).
    pub fn from_parts(header: SampleHeader, games: Vec<GameSamples>) -> SampleFile {
        SampleFile {
            header,
            games,
            torn: 0,
            end: 0,
        }
    }

    /// Samples in all games.
    pub fn samples(&self) -> usize {
        self.games.iter().map(GameSamples::len).sum()
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Appends game records to a sample file; shared by the threads that play games.
pub struct SampleWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl SampleWriter {
    /// Starts `path` afresh with `header`.
    pub fn create(path: &Path, header: &SampleHeader) -> Result<SampleWriter, String> {
        let text = ron::ser::to_string_pretty(header, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("{}: header: {e}", path.display()))?;
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
        bytes.extend_from_slice(text.as_bytes());
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
    /// Returns the writer and the games already in the file.
    pub fn resume(
        path: &Path,
        header: &SampleHeader,
    ) -> Result<(SampleWriter, SampleFile), String> {
        let existing = SampleFile::read(path)?;
        if let Some(field) = header.mismatch(&existing.header) {
            return Err(format!(
                "{}: was made with another {field}; give another --out, or the same settings to add games to it",
                path.display()
            ));
        }
        let mut file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, "cannot open", e))?;
        file.set_len(existing.end)
            .and_then(|()| file.seek(SeekFrom::End(0)).map(|_| ()))
            .map_err(|e| io_error(path, "cannot cut the torn record", e))?;
        Ok((
            SampleWriter {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            existing,
        ))
    }

    /// Appends one game, whole.
    pub fn append(&self, game: &GameSamples) -> Result<(), String> {
        let bytes = game.to_bytes();
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(&bytes)
            .map_err(|e| io_error(&self.path, "cannot write", e))
    }

    /// Flushes the file to disk.
    pub fn finish(&self) -> Result<(), String> {
        let file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.sync_data()
            .map_err(|e| io_error(&self.path, "cannot sync", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> SampleHeader {
        SampleHeader {
            game: "g".into(),
            settings: vec![("a".into(), "1".into())],
            agents: vec!["x".into(), "y".into()],
            budget: None,
            seed: 3,
            encoding: Encoding::new("e", [("p".into(), 2), ("u".into(), 5)]),
        }
    }

    fn game(i: u32, n: usize) -> GameSamples {
        GameSamples {
            game: i,
            winner: (i % 3) as u8 * 127,
            movers: (0..n).map(|k| (k % 2) as u8).collect(),
            counts: (0..2 * n).map(|k| k as u8).collect(),
        }
    }

    #[test]
    fn games_round_trip_and_a_torn_record_is_dropped_on_resume() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.bin");
        let w = SampleWriter::create(&path, &header()).unwrap();
        for i in 0..3 {
            w.append(&game(i, 4 + i as usize)).unwrap();
        }
        w.finish().unwrap();
        drop(w);
        let full = std::fs::metadata(&path).unwrap().len();
        // A game cut off mid-write.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&game(9, 5).to_bytes()[..12]).unwrap();
        drop(f);
        let read = SampleFile::read(&path).unwrap();
        assert_eq!(read.header, header());
        assert_eq!(read.games, vec![game(0, 4), game(1, 5), game(2, 6)]);
        assert_eq!(read.torn, 12);
        assert_eq!(read.samples(), 15);
        let (w, existing) = SampleWriter::resume(&path, &header()).unwrap();
        assert_eq!(existing.games.len(), 3);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), full);
        w.append(&game(3, 2)).unwrap();
        drop(w);
        let read = SampleFile::read(&path).unwrap();
        assert_eq!(read.games.len(), 4);
        assert_eq!(read.torn, 0);
    }

    #[test]
    fn resume_refuses_another_run_and_read_names_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.bin");
        SampleWriter::create(&path, &header()).unwrap();
        let mut other = header();
        other.seed = 4;
        let e = SampleWriter::resume(&path, &other).err().unwrap();
        assert!(e.contains("another seed"), "{e}");
        std::fs::write(&path, b"hello").unwrap();
        assert!(
            SampleFile::read(&path)
                .unwrap_err()
                .contains("not a playtune sample file")
        );
    }

    #[test]
    fn targets_follow_the_winner_and_the_mover() {
        let g = GameSamples {
            game: 0,
            winner: 1,
            movers: vec![0, 1],
            counts: vec![0; 4],
        };
        assert_eq!((g.target(0), g.target(1)), (0.0, 1.0));
        let draw = GameSamples {
            winner: NO_WINNER,
            ..g
        };
        assert_eq!(draw.target(0), 0.5);
    }
}
