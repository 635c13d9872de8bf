//! Text tables for human output: a header row in capitals, left-aligned columns two spaces
//! apart, each cell on one line and cut with `…` past a maximum width. It lays out text it is
//! given; it does not print or decide what the columns are.

/// Longest cell printed in a table column before it is cut with `…`.
const MAX_CELL: usize = 80;

/// A left-aligned table with a header row, laid out by `comfy-table` so wide characters (CJK,
/// emoji) take the columns they occupy on a terminal.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::NOTHING)
        .set_content_arrangement(comfy_table::ContentArrangement::Disabled)
        .set_header(headers.iter().map(|h| h.to_uppercase()));
    for r in rows {
        t.add_row(r.iter().map(|c| cut(&one_line(c), MAX_CELL)));
    }
    for column in t.column_iter_mut() {
        column.set_padding((0, 2));
    }
    t.lines()
        .map(|line| line.trim_end().to_owned() + "\n")
        .collect()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s` cut to at most `max` terminal columns, the last one `…` when anything was cut.
fn cut(s: &str, max: usize) -> String {
    use unicode_width::UnicodeWidthChar as _;
    if unicode_width::UnicodeWidthStr::width(s) <= max {
        return s.to_owned();
    }
    let mut t = String::new();
    let mut width = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if width + w > max - 1 {
            break;
        }
        width += w;
        t.push(c);
    }
    t.push('…');
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns_and_cuts() {
        let t = table(
            &["name", "description"],
            &[
                vec!["a".into(), "x\ny".into()],
                vec!["long".into(), "z".repeat(100)],
            ],
        );
        let lines: Vec<_> = t.lines().collect();
        assert_eq!(lines[0], "NAME  DESCRIPTION");
        assert_eq!(lines[1], "a     x y");
        assert!(lines[2].ends_with('…'));
    }

    #[test]
    fn wide_characters_take_two_columns() {
        let t = table(
            &["name", "note"],
            &[
                vec!["日本語".into(), "cjk".into()],
                vec!["ab".into(), "ascii".into()],
                vec!["🦀x".into(), "emoji".into()],
            ],
        );
        let lines: Vec<_> = t.lines().collect();
        // 日本語 is six columns wide: every second column starts at column 8.
        assert_eq!(lines[0], "NAME    NOTE");
        assert_eq!(lines[1], "日本語  cjk");
        assert_eq!(lines[2], "ab      ascii");
        assert_eq!(lines[3], "🦀x     emoji");
        let long = cut(&"語".repeat(50), 80);
        let width = unicode_width::UnicodeWidthStr::width(long.as_str());
        assert!((79..=80).contains(&width), "{long}");
        assert!(long.ends_with('…'));
    }
}
