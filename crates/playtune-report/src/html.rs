//! The pieces of a self-contained page: escaping, base64 pictures, tables, sections,
//! and a small Markdown reader for the experiments' tables.

use std::fmt::Write;
use std::path::Path;

/// Text made safe inside HTML elements and attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding).
pub(super) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let byte = |i: usize| chunk.get(i).copied().unwrap_or(0) as u32;
        let n = (byte(0) << 16) | (byte(1) << 8) | byte(2);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A number for people, written the same way everywhere on the page: plain decimals
/// with at most three decimals (trailing zeros dropped) from 0.01 up; below that three
/// significant digits (0.00412), scientific notation only below 0.0001 or from ten
/// million up, with three significant digits (4.12e-5, 4.88e14).
pub(crate) fn num(v: f64) -> String {
    if v.is_nan() {
        return "n/a".into();
    }
    let a = v.abs();
    if v == 0.0 || v.is_infinite() || (0.01..1e7).contains(&a) {
        return crate::plot::short_number(v);
    }
    if (1e-4..0.01).contains(&a) {
        // Three significant digits: the leading zeros after the point, then three.
        let decimals = (-a.log10()).floor() as usize + 3;
        let s = format!("{v:.decimals$}");
        return s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    let s = format!("{v:.2e}");
    match s.split_once('e') {
        Some((mantissa, exp)) => format!(
            "{}e{exp}",
            mantissa.trim_end_matches('0').trim_end_matches('.')
        ),
        None => s,
    }
}

/// An `<img>` holding a PNG file, embedded as a data URI.
pub(crate) fn png_img(path: &Path, alt: &str) -> std::io::Result<String> {
    let bytes = playtune::run::files::read_plain(path)?;
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err(std::io::Error::other(format!(
            "{}: not a PNG file",
            path.display()
        )));
    }
    Ok(format!(
        "<img src=\"data:image/png;base64,{}\" alt=\"{}\">",
        base64(&bytes),
        escape(alt)
    ))
}

/// A figure: an embedded PNG with a caption (HTML, already escaped).
pub(super) fn figure(path: &Path, alt: &str, caption_html: &str) -> std::io::Result<String> {
    Ok(format!(
        "<figure>{}<figcaption>{caption_html}</figcaption></figure>\n",
        png_img(path, alt)?
    ))
}

/// A table from a header and rows of cells that are already HTML.
pub(super) fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<table>\n<thead><tr>");
    for h in header {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            let _ = write!(out, "<td>{c}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// A two-column table of names and values (HTML).
pub(crate) fn key_values(rows: &[(&str, String)]) -> String {
    let mut out = String::from("<table class=\"kv\">\n<tbody>\n");
    for (k, v) in rows {
        let _ = writeln!(out, "<tr><th>{}</th><td>{v}</td></tr>", escape(k));
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// One section of a page: its id (for links), heading and body (HTML).
pub(super) struct Section {
    pub(crate) id: String,
    pub(crate) heading: String,
    pub(crate) body: String,
}

impl Section {
    pub(super) fn new(id: &str, heading: &str, body: String) -> Section {
        Section {
            id: id.into(),
            heading: heading.into(),
            body,
        }
    }
}

const STYLE: &str = "
body { font-family: 'DejaVu Sans', 'Segoe UI', Helvetica, Arial, sans-serif; color: #1d2330;
  background: #f6f7f9; margin: 0; line-height: 1.45; font-size: 15px; }
main { max-width: 1120px; margin: 0 auto; padding: 8px 28px 48px; }
header { background: #24364f; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 24px; }
header p { margin: 0; color: #cdd6e3; }
nav { margin-top: 10px; }
nav a { color: #fff; margin-right: 14px; text-decoration: none; border-bottom: 1px dotted #9fb2cc; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 6px 22px 16px;
  margin: 18px 0; }
h2 { font-size: 20px; border-bottom: 2px solid #e3e7ee; padding-bottom: 4px; }
h3 { font-size: 16px; margin-top: 20px; }
table { border-collapse: collapse; margin: 10px 0; font-size: 14px; }
th, td { border: 1px solid #d5dae2; padding: 4px 9px; text-align: left; vertical-align: top; }
thead th, table.kv th { background: #eef1f5; }
tbody tr:nth-child(even) td { background: #fafbfc; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.wide { overflow-x: auto; }
figure { margin: 12px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #e3e7ee; }
figcaption { font-size: 13px; color: #4a5466; margin-top: 4px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 10px 18px; }
.grid figure { margin: 4px 0; }
.big { font-size: 18px; }
.note { color: #4a5466; font-size: 14px; }
header code { background: #3a4e6b; color: #fff; }
code { background: #f0f2f5; padding: 0 3px; border-radius: 3px; font-size: 13px; }
pre { background: #f0f2f5; padding: 8px 12px; overflow-x: auto; font-size: 13px; }
blockquote { margin: 8px 0; padding: 4px 14px; border-left: 4px solid #c9d3e0; color: #3b4556; }
details { margin: 6px 0; }
summary { cursor: pointer; color: #24364f; }
";

/// The whole page: title, a line under it, a table of contents and the sections.
pub(super) fn page(title: &str, subtitle_html: &str, sections: &[Section]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n<p>{subtitle_html}</p>\n<nav>",
        escape(title),
        escape(title)
    );
    for s in sections {
        let _ = write!(
            out,
            "<a href=\"#{}\">{}</a>",
            escape(&s.id),
            escape(&s.heading)
        );
    }
    out.push_str("</nav>\n</header>\n<main>\n");
    for s in sections {
        let _ = write!(
            out,
            "<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n",
            escape(&s.id),
            escape(&s.heading),
            s.body
        );
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// Inline Markdown: `code` and **bold**, the rest escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            for (j, p) in escape(part).split("**").enumerate() {
                if j % 2 == 1 {
                    let _ = write!(out, "<strong>{p}</strong>");
                } else {
                    out.push_str(p);
                }
            }
        }
    }
    out
}

/// The cells of a Markdown table row (`| a | b |`); `\|` is a pipe inside a cell.
fn cells(line: &str) -> Vec<String> {
    let line = line.trim().replace("\\|", "\u{1}");
    let line = line.strip_prefix('|').unwrap_or(&line);
    let line = line.strip_suffix('|').unwrap_or(line);
    line.split('|')
        .map(|c| c.trim().replace('\u{1}', "|"))
        .collect()
}

fn is_separator(line: &str) -> bool {
    let c = cells(line);
    !c.is_empty()
        && c.iter().all(|c| {
            let c = c.trim_matches(':');
            !c.is_empty() && c.chars().all(|ch| ch == '-')
        })
}

/// Simple Markdown as HTML: headings (one level down, so a file's `#` sits under the
/// page's section heading), pipe tables, paragraphs, block quotes, lists and fenced
/// code. Anything else is kept as text.
pub(crate) fn markdown(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, out: &mut String| {
        if !paragraph.is_empty() {
            let _ = writeln!(out, "<p>{}</p>", inline(&paragraph.join(" ")));
            paragraph.clear();
        }
    };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.is_empty() {
            flush(&mut paragraph, &mut out);
            i += 1;
        } else if t.starts_with("```") {
            flush(&mut paragraph, &mut out);
            i += 1;
            let mut code = Vec::new();
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                code.push(lines[i]);
                i += 1;
            }
            i += 1;
            let _ = writeln!(out, "<pre>{}</pre>", escape(&code.join("\n")));
        } else if t.starts_with('#') {
            flush(&mut paragraph, &mut out);
            let level = t.chars().take_while(|&c| c == '#').count();
            let title = t[level..].trim();
            let h = (level + 1).min(6);
            let _ = writeln!(out, "<h{h}>{}</h{h}>", inline(title));
            i += 1;
        } else if t.starts_with('|') {
            flush(&mut paragraph, &mut out);
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].trim().starts_with('|') {
                rows.push(lines[i]);
                i += 1;
            }
            let has_header = rows.len() >= 2 && is_separator(rows[1]);
            out.push_str("<div class=\"wide\"><table>\n");
            let body = if has_header {
                out.push_str("<thead><tr>");
                for c in cells(rows[0]) {
                    let _ = write!(out, "<th>{}</th>", inline(&c));
                }
                out.push_str("</tr></thead>\n");
                &rows[2..]
            } else {
                &rows[..]
            };
            out.push_str("<tbody>\n");
            for r in body {
                out.push_str("<tr>");
                for c in cells(r) {
                    let _ = write!(out, "<td>{}</td>", inline(&c));
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</tbody>\n</table></div>\n");
        } else if let Some(q) = t.strip_prefix('>') {
            flush(&mut paragraph, &mut out);
            let mut quote = vec![q.trim()];
            i += 1;
            while i < lines.len() && lines[i].trim().starts_with('>') {
                quote.push(lines[i].trim()[1..].trim());
                i += 1;
            }
            let _ = writeln!(
                out,
                "<blockquote><p>{}</p></blockquote>",
                inline(&quote.join(" "))
            );
        } else if t.starts_with("- ") || t.starts_with("* ") {
            flush(&mut paragraph, &mut out);
            out.push_str("<ul>\n");
            while i < lines.len() {
                let l = lines[i].trim();
                if let Some(item) = l.strip_prefix("- ").or_else(|| l.strip_prefix("* ")) {
                    let _ = writeln!(out, "<li>{}</li>", inline(item));
                } else if !l.is_empty() && lines[i].starts_with(' ') {
                    // A continuation line of the item before.
                    if out.ends_with("</li>\n") {
                        out.truncate(out.len() - "</li>\n".len());
                        let _ = writeln!(out, " {}</li>", inline(l));
                    }
                } else {
                    break;
                }
                i += 1;
            }
            out.push_str("</ul>\n");
        } else {
            paragraph.push(t);
            i += 1;
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_one_way() {
        let cases = [
            (0.0, "0"),
            (0.5, "0.5"),
            (1.0 / 3.0, "0.333"),
            (12.0, "12"),
            (-2.25, "-2.25"),
            (0.00412, "0.00412"),
            (0.0041, "0.0041"),
            (-0.005, "-0.005"),
            (0.0000412, "4.12e-5"),
            (48828125.0, "4.88e7"),
            (4.8e14, "4.8e14"),
            (f64::NAN, "n/a"),
        ];
        for (v, want) in cases {
            assert_eq!(num(v), want, "{v}");
        }
    }

    #[test]
    fn base64_matches_rfc_4648() {
        for (text, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(text.as_bytes()), encoded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn markdown_tables_headings_and_paragraphs() {
        let html = markdown(
            "# Title\n\nSome `code` and **bold** <b>.\nmore\n\n| a | b |\n|---|:-:|\n| 1 | x \\| y |\n\n> quoted\n\n- one\n- two\n",
        );
        assert!(html.contains("<h2>Title</h2>"), "{html}");
        assert!(
            html.contains(
                "<p>Some <code>code</code> and <strong>bold</strong> &lt;b&gt;. more</p>"
            )
        );
        assert!(html.contains("<thead><tr><th>a</th><th>b</th></tr></thead>"));
        assert!(html.contains("<tr><td>1</td><td>x | y</td></tr>"));
        assert!(html.contains("<blockquote><p>quoted</p></blockquote>"));
        assert!(html.contains("<li>one</li>\n<li>two</li>"));
    }
}
