//! JSON with comments, as VS Code and Cursor write their `mcp.json`: comments (via the
//! `json_comments` crate) and trailing commas become spaces, so every byte keeps its place
//! and serde_json's line numbers still point into the user's file. It parses nothing itself.

use std::io::Read;

/// `text` with `//` and `/* */` comments and trailing commas blanked out.
pub(super) fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let stripped = json_comments::StripComments::with_settings(
        json_comments::CommentSettings::c_style(),
        text.as_bytes(),
    )
    .read_to_string(&mut out);
    if stripped.is_err() {
        // An unterminated block comment: leave the text as it was; the JSON parser will
        // report the position.
        return text.to_owned();
    }
    blank_trailing_commas(&out)
}

/// Replaces each `,` that ends a list (after a value, before `}` or `]`) with a space; a
/// comma with no value before it (`{,}`) stays for the parser to report.
fn blank_trailing_commas(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let (mut in_string, mut escaped) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' => {
                let next = bytes[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
                let prev = out[..i].iter().rev().find(|c| !c.is_ascii_whitespace());
                if matches!(next, Some(b'}' | b']')) && !matches!(prev, Some(b'{' | b'[' | b',')) {
                    out[i] = b' ';
                }
            }
            _ => {}
        }
    }
    // Only ASCII commas were replaced by ASCII spaces, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_keep_positions() {
        let text = "{\n  // c\n  \"a\": [1, 2,], /* b */\n  \"s\": \"x,}// not a comment\",\n}";
        let s = strip(text);
        assert_eq!(s.len(), text.len());
        assert_eq!(s.lines().count(), text.lines().count());
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["a"], serde_json::json!([1, 2]));
        assert_eq!(v["s"], "x,}// not a comment");
    }
}
