//! Content-addressed payloads of stored eval iterations (migration 9): what repeats from one
//! iteration to the next — above all the tool list inside every model request an x-ray keeps
//! byte for byte, the system prompt, the tool names — is kept once in `eval_blobs` under its
//! SHA-256, and the iteration's detail holds a reference. `pack` turns a detail into its packed form and the blobs it needs;
//! `unpack` is its exact inverse, so readers get back the value that was written. A run's
//! `eval_blob_refs` rows name the blobs it uses, so deleting runs can drop the blobs nobody
//! uses any more. It must not interpret the detail: it sees only JSON strings and their size.
//!
//! Packed forms (single-key objects): `{"$blob": H}` stands for a long string; `{"$json": H}`
//! for a long list of short plain values (kept as its compact JSON text); `{"$pieces": [..]}` for a
//! long string holding a JSON object, split at its long members or the long strings in them,
//! where a piece is text, `{"$text": H}` or `{"$parts": H}` (a long member whose blob holds
//! pieces in turn, its long strings cut out); an object of the data that looks like one of these
//! (or like `{"$literal": ..}`) is kept as `{"$literal": it}`. Rows say which set of forms they
//! were written with ([`FORMAT`]; `$json` and `$parts` came with format 2).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Strings shorter than this stay inline: a reference costs ~45 bytes.
const MIN: usize = 256;
/// Members of JSON text shorter than this are not cut out whole.
const MEMBER_MIN: usize = 1024;

const BLOB: &str = "$blob";
const JSON: &str = "$json";
const PIECES: &str = "$pieces";
const TEXT: &str = "$text";
const PARTS: &str = "$parts";
const LITERAL: &str = "$literal";

/// The hash a blob is filed under: SHA-256 of its text, first 128 bits in hex.
fn hash(text: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    digest.as_ref()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A packed value and the blobs (hash → text) it refers to.
pub(crate) fn pack(value: &Value) -> (Value, BTreeMap<String, String>) {
    let mut blobs = BTreeMap::new();
    let packed = pack_value(value, &mut blobs);
    (packed, blobs)
}

fn keep(text: &str, blobs: &mut BTreeMap<String, String>) -> String {
    let h = hash(text);
    blobs.entry(h.clone()).or_insert_with(|| text.to_owned());
    h
}

fn single(key: &str, value: Value) -> Value {
    let mut m = Map::new();
    m.insert(key.to_owned(), value);
    Value::Object(m)
}

/// The `packed` column's value of rows written now; format 1 (migration 9) had no `$json`.
pub(crate) const FORMAT: u8 = 2;

fn looks_packed(m: &Map<String, Value>, format: u8) -> bool {
    let forms: &[&str] = match format {
        1 => &[BLOB, PIECES, TEXT, LITERAL],
        _ => &[BLOB, JSON, PIECES, TEXT, LITERAL],
    };
    m.len() == 1 && m.keys().all(|k| forms.contains(&k.as_str()))
}

fn pack_value(value: &Value, blobs: &mut BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) if s.len() >= MIN => match split(s) {
            Some(spans) => pieces(s, &spans, blobs),
            None => single(BLOB, Value::String(keep(s, blobs))),
        },
        Value::Array(items) => match plain_text(items) {
            Some(text) => single(JSON, Value::String(keep(&text, blobs))),
            None => Value::Array(items.iter().map(|v| pack_value(v, blobs)).collect()),
        },
        Value::Object(m) => {
            let packed: Map<String, Value> = m
                .iter()
                .map(|(k, v)| (k.clone(), pack_value(v, blobs)))
                .collect();
            if looks_packed(m, FORMAT) {
                single(LITERAL, Value::Object(packed))
            } else {
                Value::Object(packed)
            }
        }
        other => other.clone(),
    }
}

/// The compact text of a list of short plain values (no object, no list, no long string) of at
/// least [`MIN`] bytes (the tool names of every request), else `None`.
fn plain_text(items: &[Value]) -> Option<String> {
    let short = |v: &Value| match v {
        Value::String(x) => x.len() < MIN,
        other => !other.is_object() && !other.is_array(),
    };
    if !items.iter().all(short) {
        return None;
    }
    let text = serde_json::to_string(items).ok()?;
    (text.len() >= MIN).then_some(text)
}

/// A span of JSON text cut out into a blob; `inner` are the spans of long strings within it,
/// cut out of that blob in turn.
struct Cut {
    start: usize,
    end: usize,
    inner: Vec<(usize, usize)>,
}

/// What to cut out of `s` when it is the text of a JSON object whose members appear in it as
/// serde_json writes them (compact), else `None`. A member of at least [`MEMBER_MIN`] bytes is
/// cut out whole (the tool list of every request), with the long strings in it (at least
/// [`MIN`]) cut out of that blob again (the system prompt inside a message list that grows
/// with every step); of a shorter member only its long strings are cut out.
fn split(s: &str) -> Option<Vec<Cut>> {
    if !s.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(s) else {
        return None;
    };
    let mut cuts = Vec::new();
    let mut from = 0;
    for (key, member) in &m {
        let text = serde_json::to_string(member).ok()?;
        if text.len() < MIN {
            continue;
        }
        let head = format!("{}:", serde_json::to_string(key).ok()?);
        let at = s[from..].find(&format!("{head}{text}"))? + from + head.len();
        let end = at + text.len();
        let mut strings = Vec::new();
        long_strings(member, &mut strings);
        let mut inner = cut_strings(s, (at, end), &strings);
        if text.len() >= MEMBER_MIN {
            inner.retain(|&span| span != (at, end));
            cuts.push(Cut {
                start: at,
                end,
                inner,
            });
        } else {
            cuts.extend(inner.into_iter().map(|(start, end)| Cut {
                start,
                end,
                inner: Vec::new(),
            }));
        }
        from = end;
    }
    (!cuts.is_empty()).then_some(cuts)
}

/// The strings of at least [`MIN`] bytes in `v`, in the order serde_json writes them.
fn long_strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(x) if x.len() >= MIN => out.push(x),
        Value::Array(items) => items.iter().for_each(|i| long_strings(i, out)),
        Value::Object(m) => m.values().for_each(|i| long_strings(i, out)),
        _ => {}
    }
}

/// The spans of `strings` as JSON literals within `within` of `s`, found in order; a string
/// not found where expected is left inline.
fn cut_strings(s: &str, within: (usize, usize), strings: &[&str]) -> Vec<(usize, usize)> {
    let (mut from, end) = within;
    let mut spans = Vec::new();
    for x in strings {
        let Ok(literal) = serde_json::to_string(x) else {
            continue;
        };
        if let Some(p) = s[from..end].find(&literal) {
            spans.push((from + p, from + p + literal.len()));
            from += p + literal.len();
        }
    }
    spans
}

fn pieces(s: &str, cuts: &[Cut], blobs: &mut BTreeMap<String, String>) -> Value {
    let mut out = Vec::new();
    let mut at = 0;
    for cut in cuts {
        out.push(Value::String(s[at..cut.start].to_owned()));
        let piece = if cut.inner.is_empty() {
            single(TEXT, Value::String(keep(&s[cut.start..cut.end], blobs)))
        } else {
            let parts = plain_pieces(s, (cut.start, cut.end), &cut.inner, blobs);
            let body = Value::Array(parts).to_string();
            single(PARTS, Value::String(keep(&body, blobs)))
        };
        out.push(piece);
        at = cut.end;
    }
    out.push(Value::String(s[at..].to_owned()));
    single(PIECES, Value::Array(out))
}

/// The pieces of `s` from `within.0` to `within.1` with `spans` (inside it) kept as blobs.
fn plain_pieces(
    s: &str,
    within: (usize, usize),
    spans: &[(usize, usize)],
    blobs: &mut BTreeMap<String, String>,
) -> Vec<Value> {
    let (mut at, end) = within;
    let mut out = Vec::new();
    for &(start, stop) in spans {
        out.push(Value::String(s[at..start].to_owned()));
        out.push(single(TEXT, Value::String(keep(&s[start..stop], blobs))));
        at = stop;
    }
    out.push(Value::String(s[at..end].to_owned()));
    out
}

/// Why a packed value cannot be read back.
#[derive(Debug, PartialEq)]
pub(crate) struct Missing(pub String);

/// The value `packed` (written in `format`) stands for; `blob` fetches a blob's text by hash.
pub(crate) fn unpack(
    packed: Value,
    format: u8,
    blob: &mut impl FnMut(&str) -> Option<String>,
) -> Result<Value, Missing> {
    let mut fetch = |h: &Value| -> Result<String, Missing> {
        let h = h.as_str().unwrap_or_default();
        blob(h).ok_or_else(|| Missing(format!("blob {h}")))
    };
    Ok(match packed {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|v| unpack(v, format, blob))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(m) if looks_packed(&m, format) => {
            let (key, inner) = m.into_iter().next().unwrap_or_default();
            match key.as_str() {
                BLOB => Value::String(fetch(&inner)?),
                JSON => serde_json::from_str(&fetch(&inner)?)
                    .map_err(|e| Missing(format!("a list that does not parse: {e}")))?,
                PIECES => Value::String(join(&inner, true, &mut fetch)?),
                LITERAL => match inner {
                    Value::Object(m) => unpack_members(m, format, blob)?,
                    _ => return Err(Missing("a literal that is not an object".into())),
                },
                _ => return Err(Missing(format!("a stray {key}"))),
            }
        }
        Value::Object(m) => unpack_members(m, format, blob)?,
        other => other,
    })
}

/// The text `pieces` stand for: text, `{"$text": H}` and (`nested`) `{"$parts": H}`, a blob
/// holding pieces in turn.
fn join(
    pieces: &Value,
    nested: bool,
    fetch: &mut impl FnMut(&Value) -> Result<String, Missing>,
) -> Result<String, Missing> {
    let mut text = String::new();
    for piece in pieces.as_array().into_iter().flatten() {
        match piece {
            Value::String(s) => text.push_str(s),
            Value::Object(p) if p.contains_key(TEXT) => text.push_str(&fetch(&p[TEXT])?),
            Value::Object(p) if nested && p.contains_key(PARTS) => {
                let parts: Value = serde_json::from_str(&fetch(&p[PARTS])?)
                    .map_err(|e| Missing(format!("parts that do not parse: {e}")))?;
                text.push_str(&join(&parts, false, fetch)?);
            }
            _ => return Err(Missing("a piece that is neither".into())),
        }
    }
    Ok(text)
}

fn unpack_members(
    m: Map<String, Value>,
    format: u8,
    blob: &mut impl FnMut(&str) -> Option<String>,
) -> Result<Value, Missing> {
    Ok(Value::Object(
        m.into_iter()
            .map(|(k, v)| Ok((k, unpack(v, format, blob)?)))
            .collect::<Result<_, Missing>>()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: &Value) -> (Value, usize) {
        let (packed, blobs) = pack(v);
        let back = unpack(packed.clone(), FORMAT, &mut |h| blobs.get(h).cloned()).unwrap();
        assert_eq!(&back, v);
        (packed, blobs.len())
    }

    #[test]
    fn long_strings_and_long_members_of_json_text_are_kept_once_and_come_back_exactly() {
        let tools = json!([{"name": "add", "description": "x".repeat(2000)}]);
        let body = |msg: &str| {
            serde_json::to_string(&json!({"model": "m", "tools": tools, "messages": [msg]}))
                .unwrap()
        };
        let detail = json!({
            "steps": [{"requestBody": body("hi")}, {"requestBody": body("again")}],
            "answer": "y".repeat(1500),
            "same": "y".repeat(1500),
            "short": "z",
        });
        let (packed, blobs) = round_trip(&detail);
        // The tool list (both requests) with its long description cut out again, and the long
        // answer (twice).
        assert_eq!(blobs, 3);
        assert!(packed.to_string().len() < 1000, "{packed}");
        assert!(packed["steps"][0]["requestBody"][PIECES].is_array());
    }

    #[test]
    fn data_that_looks_packed_reads_back_as_itself() {
        let odd = json!({"result": {"$blob": "0123"}, "b": {"$literal": {"$pieces": []}}});
        let (packed, blobs) = round_trip(&odd);
        assert_eq!(blobs, 0);
        assert_eq!(packed["result"][LITERAL], json!({"$blob": "0123"}));
        // JSON text written with other spacing is not split, but still kept once.
        let spaced = json!(format!("{{ \"tools\": \"{}\" }}", "t".repeat(2000)));
        let (packed, blobs) = round_trip(&spaced);
        assert_eq!((blobs, packed[BLOB].is_string()), (1, true));
    }

    /// The system prompt inside a message list that differs each step is kept once; a tool
    /// list of short definitions is cut out whole; the tool names are kept once.
    #[test]
    fn the_system_prompt_and_tool_names_are_kept_once() {
        let system = format!("You are helpful. {}", "Server instructions. ".repeat(40));
        let tools: Vec<Value> = (0..40)
            .map(|i| json!({"name": format!("tool_{i}"), "description": "Does one thing."}))
            .collect();
        let body = |messages: Value| {
            let messages = json!([{"role": "system", "content": system}])
                .as_array()
                .unwrap()
                .iter()
                .chain(messages.as_array().unwrap())
                .cloned()
                .collect::<Vec<_>>();
            serde_json::to_string(&json!({"model": "m", "tools": tools, "messages": messages}))
                .unwrap()
        };
        let names: Vec<String> = (0..40).map(|i| format!("demo__tool_{i}")).collect();
        let detail = json!({
            "bodies": [body(json!([{"role": "user", "content": "hi"}])),
                       body(json!([{"role": "user", "content": "hi"}, {"role": "tool", "content": "4".repeat(200)}]))],
            "requests": [{"system": [system], "tools": names}, {"system": [system], "tools": names}],
        });
        let (packed, blobs) = round_trip(&detail);
        // The tool list, the prompt as a JSON literal (in the short first message list and in
        // the blob of the long second one), the prompt as a string, the names.
        assert_eq!(blobs, 5, "{packed:#}");
        let text = packed.to_string();
        assert!(text.len() < 1200, "{} bytes: {packed:#}", text.len());
        assert!(packed["requests"][0]["tools"][JSON].is_string());
        // A short list stays as it is.
        assert_eq!(round_trip(&json!({"tools": ["a", "b"]})).1, 0);
    }

    /// An object of the data written under format 1 that looks like a form of format 2 reads as
    /// itself; written now, it is kept as a literal.
    #[test]
    fn a_row_reads_with_the_forms_of_its_format() {
        let odd = json!({"result": {"$json": "abc"}});
        assert_eq!(unpack(odd.clone(), 1, &mut |_| None), Ok(odd.clone()));
        let (packed, _) = round_trip(&odd);
        assert_eq!(packed["result"][LITERAL], json!({"$json": "abc"}));
    }

    #[test]
    fn a_missing_blob_is_an_error_not_a_guess() {
        let (packed, _) = pack(&json!("q".repeat(2000)));
        assert!(unpack(packed, FORMAT, &mut |_| None).is_err());
    }
}
