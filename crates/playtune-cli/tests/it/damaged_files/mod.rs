//! Damaged files, read back by the real binary (issue 29, "Files read without a
//! check"): experiment tables, re-evaluation logs, self-play sample files, networks,
//! `config.ron`, `failures.jsonl` and `result.ron`. A damaged row or record is named
//! by file and line (or byte, or field), left out and played again, never counted; a
//! damaged file that cannot be worked around is refused with exit code 2 and a
//! message naming the file and the field. Nothing panics.

mod learned;
mod run_folders;
mod tables;

/// The workspace's root, where `runs/published` lies.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
