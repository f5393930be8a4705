//! Damaged lines in the files playtune reads back (experiment tables, logs of
//! failures and re-evaluations): every reader checks each line, leaves out the ones
//! that cannot be right, and names them on standard error, by file and line, in one
//! warning per file.

use std::path::Path;

/// Lines named in one warning; the rest are counted.
const SHOWN: usize = 20;

/// The warning for the `damaged` lines of `path` (line number from 1, why), or None
/// when there are none. `then` says what becomes of them ("played again").
pub fn message(path: &Path, damaged: &[(usize, String)], then: &str) -> Option<String> {
    if damaged.is_empty() {
        return None;
    }
    let shown: Vec<String> = damaged
        .iter()
        .take(SHOWN)
        .map(|(line, why)| format!("line {line}: {why}"))
        .collect();
    let more = if damaged.len() > SHOWN {
        format!("; {} more", damaged.len() - SHOWN)
    } else {
        String::new()
    };
    Some(format!(
        "warning: {}: left out {} damaged line(s), {then} ({}{more})",
        path.display(),
        damaged.len(),
        shown.join("; ")
    ))
}

/// Prints [`message`] on standard error, if there is one.
pub fn warn(path: &Path, damaged: &[(usize, String)], then: &str) {
    if let Some(m) = message(path, damaged, then) {
        eprintln!("{m}");
    }
}

/// 64-bit FNV-1a of `bytes` (offset basis 0xcbf29ce484222325, prime 0x100000001b3):
/// the check of `evals.csv` rows and of sample file records.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The lines of `bytes` with their numbers (from 1), without their end of line; a
/// last line without one (cut short by an interruption) is left out, and so are blank
/// lines.
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, l)| {
            let l = l.strip_suffix(b"\n")?;
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            (!l.iter().all(u8::is_ascii_whitespace)).then_some((i + 1, l))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_is_the_standard_one() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn lines_are_numbered_and_a_torn_last_line_left_out() {
        let got: Vec<(usize, &[u8])> = lines(b"a\r\n\nb\nc").collect();
        assert_eq!(got, vec![(1, &b"a"[..]), (3, &b"b"[..])]);
    }

    #[test]
    fn the_warning_names_the_file_and_lines() {
        let d: Vec<(usize, String)> = (1..=25).map(|i| (i, "bad".to_string())).collect();
        let m = message(Path::new("x/games.csv"), &d, "played again").unwrap();
        assert!(m.starts_with(
            "warning: x/games.csv: left out 25 damaged line(s), played again (line 1: bad;"
        ));
        assert!(m.ends_with("line 20: bad; 5 more)"), "{m}");
        assert!(message(Path::new("x"), &[], "").is_none());
    }
}
