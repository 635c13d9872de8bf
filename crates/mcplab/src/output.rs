//! Human output: aligned tables, tool-result content rendered readably (text as text,
//! images and audio noted with type and size, links and embedded resources described,
//! structured content as pretty JSON), prompt messages and resource contents. `--json`
//! bypasses all of this and prints the protocol result exactly.

use std::fmt::Write as _;

use serde_json::Value;

/// Longest cell printed in a table column before it is cut with `…`.
const MAX_CELL: usize = 80;

/// Pretty JSON (falls back to compact if pretty-printing fails).
pub fn json(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

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

/// "1.2 KiB" style sizes.
pub fn size(bytes: usize) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes < 1024 * 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    }
}

/// Decoded size of base64 text, without decoding it.
pub fn base64_size(b64: &str) -> usize {
    let len = b64.trim_end().len();
    let pad = b64
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| *c == '=')
        .count();
    (len / 4) * 3
        + match len % 4 {
            2 => 1,
            3 => 2,
            _ => 0,
        }
        - pad.min((len / 4) * 3)
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// One content block of a tool result or prompt message.
pub fn content_block(block: &Value) -> String {
    match str_of(block, "type") {
        "text" => str_of(block, "text").to_owned(),
        "image" | "audio" => format!(
            "[{} {}, {}]",
            str_of(block, "type"),
            str_of(block, "mimeType"),
            size(base64_size(str_of(block, "data")))
        ),
        "resource_link" => {
            let mut s = format!("[resource link] {}", str_of(block, "uri"));
            let name = str_of(block, "name");
            if !name.is_empty() {
                let _ = write!(s, " ({name})");
            }
            let mime = str_of(block, "mimeType");
            if !mime.is_empty() {
                let _ = write!(s, " {mime}");
            }
            let desc = str_of(block, "description");
            if !desc.is_empty() {
                let _ = write!(s, " - {desc}");
            }
            s
        }
        "resource" => {
            let r = block.get("resource").cloned().unwrap_or(Value::Null);
            resource_contents(&r, "[embedded resource]")
        }
        other => format!("[{other} content]\n{}", json(block)),
    }
}

/// One item of `resources/read` contents (or an embedded resource).
pub fn resource_contents(r: &Value, label: &str) -> String {
    let uri = str_of(r, "uri");
    let mime = str_of(r, "mimeType");
    if let Some(text) = r.get("text").and_then(Value::as_str) {
        let body = if mime.contains("json") {
            serde_json::from_str::<Value>(text)
                .map(|v| json(&v))
                .unwrap_or_else(|_| text.to_owned())
        } else {
            text.to_owned()
        };
        format!("{label} {uri} {mime}\n{body}")
    } else if let Some(blob) = r.get("blob").and_then(Value::as_str) {
        format!(
            "{label} {uri} {mime}: binary, {} (use --output FILE to save it)",
            size(base64_size(blob))
        )
    } else {
        format!("{label} {uri} {mime}: no content")
    }
}

/// A whole `tools/call` result.
pub fn tool_result(result: &Value) -> String {
    let mut out = String::new();
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        out.push_str("The tool reported an error (isError: true):\n");
    }
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push_str(&content_block(block));
        out.push('\n');
    }
    if let Some(sc) = result.get("structuredContent") {
        out.push_str("structuredContent:\n");
        out.push_str(&json(sc));
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("(empty result)\n");
    }
    out
}

/// A `prompts/get` result.
pub fn prompt_messages(result: &Value) -> String {
    let mut out = String::new();
    let desc = str_of(result, "description");
    if !desc.is_empty() {
        let _ = writeln!(out, "{desc}\n");
    }
    for m in result
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let content = m.get("content").cloned().unwrap_or(Value::Null);
        let _ = writeln!(out, "{}: {}", str_of(m, "role"), content_block(&content));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tool_result_renders_each_kind() {
        let r = json!({"isError": true, "content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource_link", "uri": "demo://x", "name": "x", "mimeType": "text/plain"},
            {"type": "resource", "resource": {"uri": "demo://y", "mimeType": "application/json", "text": "{\"a\":1}"}}
        ], "structuredContent": {"sum": 3}});
        let s = tool_result(&r);
        assert!(s.starts_with("The tool reported an error"), "{s}");
        assert!(s.contains("hello\n[image image/png, 3 B]"), "{s}");
        assert!(s.contains("[resource link] demo://x (x) text/plain"), "{s}");
        assert!(s.contains("\"a\": 1"), "{s}");
        assert!(s.contains("structuredContent:\n{\n  \"sum\": 3\n}"), "{s}");
    }

    #[test]
    fn base64_sizes() {
        assert_eq!(base64_size("AAAA"), 3);
        assert_eq!(base64_size("AAA="), 2);
        assert_eq!(base64_size("AA=="), 1);
        assert_eq!(base64_size(""), 0);
    }

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
