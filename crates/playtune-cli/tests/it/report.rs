//! `playtune report`: one self-contained HTML page per run or experiment. The page is
//! checked as text (every section there and filled, every picture a decodable PNG
//! embedded in the page, nothing fetched from elsewhere, no script) and, where
//! Chromium is installed, opened in headless Chromium.

use crate::common;

use common::playtune;

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tempfile::TempDir;

/// Runs playtune with `args`, which must succeed; returns its standard output.
fn ok(args: &[&str]) -> String {
    let out = playtune().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "playtune {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 26,
            b'0'..=b'9' => (c - b'0') as u32 + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {:?}", c as char),
        }
    };
    let bytes = text.as_bytes();
    assert_eq!(bytes.len() % 4, 0, "base64 comes in groups of four");
    let mut out = Vec::new();
    for group in bytes.chunks(4) {
        let pad = group.iter().filter(|&&c| c == b'=').count();
        let n = group
            .iter()
            .map(|&c| if c == b'=' { 0 } else { value(c) })
            .fold(0u32, |acc, v| (acc << 6) | v);
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8][..3 - pad]);
    }
    out
}

/// The page's sections, (id, heading, body after the heading).
fn sections(html: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<section id=\"") {
        let after = &rest[start + "<section id=\"".len()..];
        let id = after[..after.find('"').unwrap()].to_string();
        let end = after.find("</section>").expect("every section closes");
        let inner = &after[..end];
        let h_start = inner.find("<h2>").expect("a heading") + 4;
        let h_end = inner.find("</h2>").unwrap();
        out.push((
            id,
            inner[h_start..h_end].to_string(),
            inner[h_end + 5..].to_string(),
        ));
        rest = &after[end..];
    }
    out
}

/// The text of some HTML without its tags.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Checks a page: the sections `expected` (by id) there, in that order, each with a
/// heading and a body that says something; every image a PNG embedded in the page;
/// nothing from elsewhere; no script. Returns the number of images.
fn check_page(html: &str, expected: &[&str]) -> usize {
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    let found = sections(html);
    let ids: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(ids, expected, "the page's sections");
    for (id, heading, body) in &found {
        assert!(!heading.trim().is_empty(), "section {id} has no heading");
        let text = text_of(body);
        assert!(
            text.trim().len() >= 5 || body.contains("<img"),
            "section {id} is empty: {body}"
        );
        assert!(
            html.contains(&format!("<a href=\"#{id}\">")),
            "the contents link to {id}"
        );
    }
    assert!(!html.contains("<script"), "no script");
    assert!(!html.contains("src=\"/"), "no file from elsewhere");
    assert!(!html.contains("http"), "nothing from the web");
    let mut images = 0;
    for (i, _) in html.match_indices("<img ") {
        let tag = &html[i..i + html[i..].find('>').unwrap()];
        let prefix = "src=\"data:image/png;base64,";
        let start = tag.find(prefix).expect("every image is an embedded PNG") + prefix.len();
        let data = &tag[start..start + tag[start..].find('"').unwrap()];
        let png = decode_base64(data);
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 1000,
            "image {images} is not a PNG"
        );
        assert!(
            tag.contains("alt=\""),
            "image {images} has a text alternative"
        );
        images += 1;
    }
    images
}

/// A small NTBEA run of two trials, reported.
fn ntbea_run(dir: &Path) -> (PathBuf, String) {
    ok(&[
        "optimize",
        "--problem",
        "noisy-onemax",
        "--budget",
        "60",
        "--trials",
        "2",
        "--seed",
        "1",
        "--runs-dir",
        s(dir),
        "--name",
        "r",
        "-q",
    ]);
    let run = dir.join("r");
    let printed = ok(&["report", s(&run)]);
    let page = run.join("report.html");
    assert_eq!(printed.trim(), s(&page), "report prints the page's path");
    (page.clone(), std::fs::read_to_string(&page).unwrap())
}

#[test]
fn report_of_an_ntbea_run_has_every_section_and_embedded_pictures() {
    let dir = TempDir::new().unwrap();
    let (_, html) = ntbea_run(dir.path());
    let images = check_page(
        &html,
        &[
            "configuration",
            "summary",
            "recommendation",
            "convergence",
            "importance",
        ],
    );
    // The convergence plot and one chart per dimension of noisy OneMax (10).
    assert_eq!(images, 1 + 10);
    for text in [
        "noisy-onemax",
        "ntbea",
        "60 evaluations per trial",
        "estimate ± 1.96 se",
        "Each trial's recommendation",
        "1-tuple statistics",
        "true fitness",
        "<code>x0</code>",
        "<code>--scale sd</code>",
        "<code>--recommend neighbourhood</code>",
        "<code>--tuples auto</code>",
    ] {
        assert!(html.contains(text), "the page says {text}");
    }
    no_debug_names(&html);
}

#[test]
fn report_of_a_map_elites_run_shows_the_archive_and_its_metrics() {
    let dir = TempDir::new().unwrap();
    ok(&[
        "map-elites",
        "--problem",
        "sphere",
        "--set",
        "dims=4",
        "--evaluations",
        "400",
        "--batch",
        "20",
        "-q",
        "--runs-dir",
        s(dir.path()),
        "--name",
        "me",
    ]);
    let out = dir.path().join("page/me.html");
    let printed = ok(&["report", s(&dir.path().join("me")), "--out", s(&out)]);
    assert_eq!(printed.trim(), s(&out));
    let html = std::fs::read_to_string(&out).unwrap();
    let images = check_page(
        &html,
        &[
            "configuration",
            "summary",
            "recommendation",
            "importance",
            "archive",
            "elites",
            "metrics",
        ],
    );
    // Four parameter charts, the heatmap, coverage and QD score.
    assert_eq!(images, 4 + 3);
    assert!(html.contains("QD score"));
    // Settings as the command line names them; default axes said and listed.
    no_debug_names(&html);
    assert!(html.contains("<code>--better greater</code>"), "{html}");
    assert!(
        html.contains("the problem's default axes: <code>measure_0="),
        "the default axes are named"
    );
    // The elites as a table: cell id, fitness, features, point.
    let elites = &sections(&html)[5].2;
    assert!(
        elites.contains(
            "<thead><tr><th>cell</th><th>fitness</th><th>measure_0 (axis)</th><th>measure_1 (axis)</th><th>point</th>"
        ),
        "{elites}"
    );
    assert!(
        elites.matches("<tr><td><code>").count() > 10,
        "a row per elite"
    );

    // After `validate`, the page has its table, with the cells' ids as the elites
    // table writes them.
    let run = dir.path().join("me");
    let printed = ok(&["validate", s(&run), "--cells", "best", "--evaluations", "2"]);
    let best_cell = printed
        .lines()
        .find_map(|l| {
            l.strip_prefix("| ")
                .filter(|l| l.chars().next().unwrap().is_ascii_digit())
        })
        .and_then(|l| l.split(" |").next())
        .unwrap()
        .to_string();
    ok(&["report", s(&run), "--out", s(&out)]);
    let html = std::fs::read_to_string(&out).unwrap();
    check_page(
        &html,
        &[
            "configuration",
            "summary",
            "recommendation",
            "importance",
            "archive",
            "elites",
            "metrics",
            "validation",
        ],
    );
    let found = sections(&html);
    assert!(
        found[7].2.contains(&format!("<td>{best_cell}</td>")),
        "{}",
        found[7].2
    );
    assert!(
        found[5]
            .2
            .contains(&format!("<tr><td><code>{best_cell}</code>")),
        "the best elite heads the elites table"
    );
}

/// No Rust debug name of a setting on the page (`Sd`, `Neighbourhood`,
/// `Lexicographic(...)`, `axes: []`): the command line's names instead.
fn no_debug_names(html: &str) {
    let text = text_of(html);
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        assert!(
            ![
                "Sd",
                "Range",
                "Neighbourhood",
                "Evaluated",
                "HillClimber",
                "Greater",
                "Lexicographic",
                "Sizes",
                "Auto"
            ]
            .contains(&word),
            "debug name {word} on the page"
        );
    }
    assert!(!text.contains("axes: []") && !text.contains("secondary("));
}

#[test]
fn report_lists_failed_evaluations() {
    let dir = TempDir::new().unwrap();
    let calls = dir.path().join("calls");
    // The third call prints NaN: one failure, with no retry to rescue it.
    let cmd = format!(
        "n=$(cat {c} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {c}; \
         if [ $n -eq 3 ]; then echo NaN; exit 0; fi; cat >/dev/null; echo 1.5",
        c = calls.display()
    );
    let space = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/spaces/noisy_onemax_10.ron"
    );
    ok(&[
        "optimize",
        "--problem",
        "command",
        "--space",
        space,
        "--set",
        &format!("cmd={cmd}"),
        "--budget",
        "10",
        "--retries",
        "0",
        "-q",
        "--runs-dir",
        s(dir.path()),
        "--name",
        "f",
    ]);
    let run = dir.path().join("f");
    assert!(run.join("failures.jsonl").is_file());
    ok(&["report", s(&run)]);
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    check_page(
        &html,
        &[
            "configuration",
            "summary",
            "recommendation",
            "convergence",
            "importance",
        ],
    );
    assert!(html.contains("Failed evaluations (1)"), "{html}");
    assert!(html.contains("not a finite number"));
}

#[test]
fn report_of_an_experiment_folder_has_its_tables_figures_and_runs() {
    let dir = TempDir::new().unwrap();
    let exp = dir.path().join("runs/exp-quick");
    // NTBEA in two runs whose recommendations are evaluated again: an estimate with
    // a standard error, so a 95% interval.
    for (name, extra) in [
        ("rmhc", &["--algo", "rmhc"][..]),
        ("ntbea", &["--runs", "2", "--selection-budget", "10"][..]),
    ] {
        let mut args = vec![
            "optimize",
            "--problem",
            "noisy-onemax",
            "--budget",
            "40",
            "--seed",
            "2",
            "-q",
            "--runs-dir",
            s(&exp),
            "--name",
            name,
        ];
        args.extend(extra);
        ok(&args);
    }
    std::fs::write(
        exp.join("summary.md"),
        "> Published result of a test.\n\n# exp-quick: RMHC vs NTBEA\n\nTwo runs of **40** evaluations; `seed` 2.\n\n\
         | algorithm | mean |\n|---|---|\n| RMHC | 7.5 |\n| NTBEA | 8.25 |\n",
    )
    .unwrap();
    std::fs::write(exp.join("experiment.txt"), "budget=40\nseed=2\n").unwrap();
    // The figures, where `experiment` puts them: the plots/ twin of runs/NAME.
    let plots = dir.path().join("plots/exp-quick");
    ok(&["plot", s(&exp.join("ntbea")), "--out", s(&plots)]);
    ok(&["report", s(&exp)]);
    let html = std::fs::read_to_string(exp.join("report.html")).unwrap();
    let images = check_page(
        &html,
        &[
            "tables-summary-md",
            "settings-experiment-txt",
            "figures",
            "runs",
        ],
    );
    assert_eq!(images, 1);
    assert!(html.contains("<thead><tr><th>algorithm</th><th>mean</th></tr></thead>"));
    assert!(html.contains("<td>NTBEA</td><td>8.25</td>"));
    assert!(html.contains("<h2>exp-quick: RMHC vs NTBEA</h2>"));
    assert!(html.contains("<code>rmhc</code>") && html.contains("<code>ntbea</code>"));
    assert!(html.contains("95% interval"));
    // --plots names another folder; one without pictures leaves the figures out.
    let empty = dir.path().join("nothing");
    std::fs::create_dir_all(&empty).unwrap();
    let out = dir.path().join("other.html");
    ok(&["report", s(&exp), "--plots", s(&empty), "--out", s(&out)]);
    let html = std::fs::read_to_string(&out).unwrap();
    check_page(
        &html,
        &["tables-summary-md", "settings-experiment-txt", "runs"],
    );
}

#[test]
fn report_of_a_published_experiment() {
    let root = common::root("");
    let exp = root.join("runs/published/space-battle-medium");
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("sb.html");
    ok(&["report", s(&exp), "--out", s(&out)]);
    let html = std::fs::read_to_string(&out).unwrap();
    let images = check_page(&html, &["tables-summary-md", "figures", "runs"]);
    assert_eq!(images, 1, "figure2.png");
    assert!(html.contains("Table II"));
    assert!(html.contains("<code>b-rmhc</code>"));
}

#[test]
fn report_refuses_what_is_not_a_finished_run() {
    let dir = TempDir::new().unwrap();
    let fails = |args: &[&str], says: &str| {
        let out = playtune().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: `{err}` lacks `{says}`");
    };
    fails(&["report", s(&dir.path().join("none"))], "no such folder");
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    fails(&["report", s(&empty)], "not a run folder");
    // A run stopped before its result: resume it first.
    ok(&[
        "optimize",
        "--budget",
        "10",
        "-q",
        "--runs-dir",
        s(dir.path()),
        "--name",
        "u",
    ]);
    let run = dir.path().join("u");
    std::fs::remove_file(run.join("result.ron")).unwrap();
    fails(&["report", s(&run)], "playtune resume");
    assert!(!run.join("report.html").exists());
}

/// Chromium on PATH, as Debian (`chromium`) or Ubuntu (`chromium-browser`) names it.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

#[test]
fn report_opens_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        println!("skipped: chromium not installed (apt-get install chromium)");
        return;
    };
    let dir = TempDir::new().unwrap();
    let (page, html) = ntbea_run(dir.path());
    let url = format!("file://{}", s(&page));
    let browse = |extra: &[&str]| {
        let out = Command::new(&chromium)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!(
                "--user-data-dir={}",
                dir.path().join("profile").display()
            ))
            .args(extra)
            .arg(&url)
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "chromium failed: {stderr}");
        assert!(!stderr.contains("Uncaught"), "a script error: {stderr}");
        (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
    };
    let (dom, _) = browse(&["--dump-dom"]);
    assert!(!dom.contains("chrome-error://"), "an error page: {dom}");
    for (id, heading, _) in sections(&html) {
        assert!(
            dom.contains(&format!("<h2>{heading}</h2>")),
            "the browser shows section {id}"
        );
    }
    assert_eq!(
        dom.matches("<img ").count(),
        html.matches("<img ").count(),
        "the browser keeps every image"
    );
    assert_eq!(dom.matches("data:image/png;base64,").count(), 11);
    let shot = dir.path().join("shot.png");
    browse(&[
        &format!("--screenshot={}", shot.display()),
        "--window-size=1280,2000",
        "--hide-scrollbars",
    ]);
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(
        png.len() > 20_000,
        "a screenshot of a page, not a blank one"
    );
}
