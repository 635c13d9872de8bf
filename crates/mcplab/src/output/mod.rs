//! Human output: aligned tables, tool-result content rendered readably (text as text,
//! images and audio noted with type and size, links and embedded resources described,
//! structured content as pretty JSON, shown once when a text block says the same), prompt
//! messages and resource contents. `--json` bypasses all of this and prints the protocol
//! result exactly.
//!
//! Everything goes to stdout through [`Stdout`], which neutralises terminal control sequences
//! a server could hide in its strings (unless `--raw`) and turns a closed pipe (`| head`) into
//! a quiet exit instead of a panic. It never decides what to print.
//!
//! Submodules: `table` lays out columns, `printer` picks human or JSON form for the inspector
//! commands, `chat` holds the sinks that print chat turns as they stream.

pub mod chat;
pub mod printer;
mod table;

pub use table::table;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write as _;

use serde_json::Value;

use crate::failure::Failure;

/// The process's stdout for results. `raw` keeps server text byte for byte (`--raw`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Stdout {
    pub raw: bool,
}

impl Stdout {
    /// Prints human text (no newline added), control sequences neutralised unless raw.
    pub fn print(&self, text: &str) -> Result<(), Failure> {
        if self.raw {
            print_stdout(text)
        } else {
            print_stdout(&safe(text))
        }
    }

    /// Prints a protocol value as pretty JSON (exact; JSON escapes control characters).
    pub fn json(&self, v: &Value) -> Result<(), Failure> {
        print_stdout(&format!("{}\n", json(v)))
    }
}

/// `println!` for commands that return `Result<_, Failure>`: a closed stdout returns
/// [`Failure::stdout_closed`] from the enclosing function instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::print_stdout(&format!("{}\n", format_args!($($arg)*)))?
    };
}
pub(crate) use outln;

/// `print!` with the same closed-stdout handling as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::print_stdout(&format!($($arg)*))?
    };
}
pub(crate) use out;

/// Writes `text` to stdout as is. A closed pipe ends the command quietly with status 0
/// ([`Failure::stdout_closed`]): the reader took what it wanted. Other commands (chat) call
/// this too so no `println!` can panic on EPIPE.
pub fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Failure::stdout_closed()),
        Err(e) => Err(Failure::usage(format!("cannot write to stdout: {e}"))),
    }
}

/// Server text made harmless for a terminal: C0 controls other than newline and tab, DEL and
/// C1 controls are shown as visible escapes (`\x1b`, `\u{9b}`), so a server cannot move the
/// cursor, clear the screen, set the title or write the clipboard (OSC 52).
pub fn safe(s: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !bad(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// Pretty JSON (falls back to compact if pretty-printing fails).
pub fn json(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
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
            "{label} {uri} {mime}: binary, {} (save it with --output FILE)",
            size(base64_size(blob))
        )
    } else {
        format!("{label} {uri} {mime}: no content")
    }
}

/// A whole `tools/call` result. A text block that is the JSON of `structuredContent` (what
/// SDKs send for backwards compatibility) is not printed again next to it.
pub fn tool_result(result: &Value) -> String {
    let mut out = String::new();
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        out.push_str("The tool reported an error (isError: true):\n");
    }
    let structured = result.get("structuredContent");
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if structured.is_some_and(|sc| repeats(block, sc)) {
            continue;
        }
        out.push_str(&content_block(block));
        out.push('\n');
    }
    let wrapped = structured.is_some_and(|sc| wraps_text(result, sc));
    if let Some(sc) = structured.filter(|_| !wrapped) {
        out.push_str("structuredContent:\n");
        out.push_str(&json(sc));
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("(empty result)\n");
    }
    out
}

/// Whether `structured` is `{"result": X}` where X is what a text block says: how Python's
/// FastMCP wraps a tool's plain return value. The text alone says it.
fn wraps_text(result: &Value, structured: &Value) -> bool {
    let Some(obj) = structured.as_object().filter(|o| o.len() == 1) else {
        return false;
    };
    let Some(inner) = obj.get("result") else {
        return false;
    };
    result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|b| {
            str_of(b, "type") == "text"
                && (inner.as_str() == Some(str_of(b, "text")) || repeats(b, inner))
        })
}

/// Whether a text block carries the same JSON as `structured`.
fn repeats(block: &Value, structured: &Value) -> bool {
    if str_of(block, "type") != "text" {
        return false;
    }
    let text = str_of(block, "text");
    // Cheap reject before parsing what may be a large text.
    let first = text.trim_start().chars().next();
    matches!(first, Some('{' | '['))
        && serde_json::from_str::<Value>(text).is_ok_and(|v| &v == structured)
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
    fn structured_content_shown_once() {
        let r = json!({"content": [{"type": "text", "text": "{\"t\": 20.5}"}, {"type": "text", "text": "note"}],
                       "structuredContent": {"t": 20.5}});
        let s = tool_result(&r);
        assert_eq!(s.matches("20.5").count(), 1, "{s}");
        assert!(s.contains("note"), "{s}");
        let wrapped = json!({"content": [{"type": "text", "text": "done"}],
                             "structuredContent": {"result": "done"}});
        assert_eq!(tool_result(&wrapped), "done\n");
    }

    #[test]
    fn control_sequences_are_shown_not_sent() {
        assert_eq!(safe("a\nb\tc"), "a\nb\tc");
        assert_eq!(safe("x\x1b[2Jy\x07"), "x\\x1b[2Jy\\x07");
        assert_eq!(safe("c1 \u{9b}31m"), "c1 \\u{9b}31m");
        assert_eq!(safe("del\x7f\r"), "del\\x7f\\x0d");
        assert_eq!(safe("日本語 ok"), "日本語 ok");
    }

    #[test]
    fn base64_sizes() {
        assert_eq!(base64_size("AAAA"), 3);
        assert_eq!(base64_size("AAA="), 2);
        assert_eq!(base64_size("AA=="), 1);
        assert_eq!(base64_size(""), 0);
    }
}
