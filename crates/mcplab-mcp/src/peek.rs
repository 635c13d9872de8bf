//! A shallow look at a frame that did not parse: its top-level `id` and whether it has a
//! top-level `method`, found by scanning bytes with a depth counter rather than building the
//! value, so any nesting depth (serde stops at 128) and a truncated frame work. This is how a
//! response that cannot be used still fails its own request at once. It decides nothing else.

use serde_json::Value;

/// What the top level of a (possibly broken) JSON object shows.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Peek {
    pub id: Option<Value>,
    pub has_method: bool,
}

impl Peek {
    /// The id of the request this frame answers: it has an id and no method.
    pub(crate) fn response_id(&self) -> Option<&Value> {
        self.id.as_ref().filter(|_| !self.has_method)
    }
}

/// Scans the top level of `bytes` (a JSON object, maybe broken or cut short).
pub(crate) fn peek(bytes: &[u8]) -> Peek {
    let mut found = Peek::default();
    let mut s = Scanner { b: bytes, i: 0 };
    s.ws();
    if !s.eat(b'{') {
        return found;
    }
    loop {
        s.ws();
        let Some(key) = s.string() else {
            return found;
        };
        s.ws();
        if !s.eat(b':') {
            return found;
        }
        s.ws();
        let start = s.i;
        if !s.skip_value() {
            return found;
        }
        match key {
            b"id" => found.id = serde_json::from_slice(&bytes[start..s.i]).ok(),
            b"method" => found.has_method = true,
            _ => {}
        }
        s.ws();
        if !s.eat(b',') {
            return found;
        }
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.b.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }

    /// A string's raw bytes between its quotes (escapes left as they are).
    fn string(&mut self) -> Option<&'a [u8]> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.i;
        while let Some(&c) = self.b.get(self.i) {
            self.i += 1;
            match c {
                b'\\' => self.i += 1,
                b'"' => return Some(&self.b[start..self.i - 1]),
                _ => {}
            }
        }
        None
    }

    /// Skips one value of any depth; false when the input ends inside it.
    fn skip_value(&mut self) -> bool {
        let mut depth = 0usize;
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return false;
            };
            match c {
                b'"' => {
                    if self.string().is_none() {
                        return false;
                    }
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.i += 1;
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    self.i += 1;
                }
                b',' | b'}' | b']' if depth == 0 => return true,
                _ => self.i += 1,
            }
            if depth == 0 && matches!(c, b'"' | b'}' | b']') {
                return true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_id_past_any_depth() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","result":{}{},"id":7}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(
            serde_json::from_str::<Value>(&deep).is_err(),
            "serde gives up"
        );
        assert_eq!(peek(deep.as_bytes()).response_id(), Some(&json!(7)));
    }

    #[test]
    fn requests_and_garbage_have_no_response_id() {
        let request = br#"{"id":"a","method":"ping","params":{"x":"}"}}"#;
        let p = peek(request);
        assert_eq!(p.id, Some(json!("a")));
        assert!(p.has_method && p.response_id().is_none());
        assert_eq!(peek(b"this is not json"), Peek::default());
        assert_eq!(peek(b"[1,2]"), Peek::default());
    }

    #[test]
    fn a_cut_frame_still_shows_an_early_id() {
        let cut = br#"{"jsonrpc":"2.0","id":"r-1","result":{"content":[{"text":"abc"#;
        assert_eq!(peek(cut).response_id(), Some(&json!("r-1")));
        let escaped = br#"{"note":"say \"id\":1","id":null,"error":{}}"#;
        assert_eq!(peek(escaped).id, Some(Value::Null));
    }
}
