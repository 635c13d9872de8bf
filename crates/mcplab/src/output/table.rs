//! Text tables for human output: a header row in capitals, left-aligned columns two spaces
//! apart, each cell on one line and cut with `…` past a maximum width. It lays out text it is
//! given; it does not print or decide what the columns are.

/// Longest cell printed in a table column before it is cut with `…`.
const MAX_CELL: usize = 80;

/// A left-aligned table with a header row.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| cut(&one_line(c), MAX_CELL)).collect())
        .collect();
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in &cells {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        let mut s = String::new();
        for (i, c) in row.iter().enumerate() {
            if i + 1 == row.len() {
                s.push_str(c);
            } else {
                let pad = widths[i] - c.chars().count();
                s.push_str(c);
                s.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    let head: Vec<String> = headers.iter().map(|h| h.to_uppercase()).collect();
    line(&mut out, &head);
    for r in &cells {
        line(&mut out, r);
    }
    out
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut t: String = s.chars().take(max - 1).collect();
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
}
