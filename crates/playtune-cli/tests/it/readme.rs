//! The README is a front page, not a notebook: it stays small, starts with the two
//! commands CI and a newcomer run, and neither it nor any page under docs/ links to a
//! file that is not there.

use std::path::{Path, PathBuf};

const README: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
const MAX_README_BYTES: u64 = 12 * 1024;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines inside fenced code blocks (``` or ~~~), in order.
fn code_lines(text: &str) -> Vec<&str> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            inside = !inside;
        } else if inside {
            out.push(line);
        }
    }
    out
}

/// A code line as a command: without a trailing `# comment`, trimmed; `None` for a
/// blank line, a comment or a continuation of the line before.
fn command(line: &str) -> Option<String> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') || line.starts_with(' ') {
        return None;
    }
    let t = match t.find(" #") {
        Some(i) => &t[..i],
        None => t,
    };
    Some(t.trim().to_string())
}

/// Markdown link and image targets outside code blocks and inline code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            inside = !inside;
            continue;
        }
        if inside {
            continue;
        }
        // Drop inline code spans: every other piece between backticks.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.trim_matches(|c| c == '<' || c == '>').to_string());
            rest = &rest[end..];
        }
    }
    targets
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from(README)];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(crate::common::root("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn the_readme_is_a_front_page_of_at_most_12_kib() {
    let bytes = std::fs::metadata(README).unwrap().len();
    assert!(
        bytes <= MAX_README_BYTES,
        "README.md is {bytes} bytes, more than {MAX_README_BYTES}: move detail to docs/"
    );
}

#[test]
fn the_readme_starts_with_the_main_job_and_the_tests() {
    let text = read(Path::new(README));
    let commands: Vec<String> = code_lines(&text).into_iter().filter_map(command).collect();
    assert!(commands.len() >= 2, "README.md has fewer than two commands");
    assert_eq!(
        commands[0],
        "cargo run --release -- optimize --problem design"
    );
    assert_eq!(commands[1], "cargo test --release");
}

#[test]
fn every_relative_link_in_the_readme_and_docs_points_to_a_file() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
        for target in link_targets(&read(&file)) {
            if target.is_empty()
                || target.starts_with('#')
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let path = target.split('#').next().unwrap();
            checked += 1;
            if !dir.join(path).exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser right?"
    );
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_parser_finds_links_and_skips_code() {
    let text =
        "see [a](docs/a.md#x) and ![p](img/p.png \"title\")\n`[no](b.md)`\n```\n[no](c.md)\n```";
    assert_eq!(link_targets(text), ["docs/a.md#x", "img/p.png"]);
    assert_eq!(
        command("cargo test --release   # the tests"),
        Some("cargo test --release".into())
    );
    assert_eq!(command("    --set x=1"), None);
}
