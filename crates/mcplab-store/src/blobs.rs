//! Content-addressed payloads of stored eval iterations (migration 9): what repeats from one
//! iteration to the next — above all the tool list inside every model request an x-ray keeps
//! byte for byte — is kept once in `eval_blobs` under its SHA-256, and the iteration's detail
//! holds a reference. `pack` turns a detail into its packed form and the blobs it needs;
//! `unpack` is its exact inverse, so readers get back the value that was written. A run's
//! `eval_blob_refs` rows name the blobs it uses, so deleting runs can drop the blobs nobody
//! uses any more. It must not interpret the detail: it sees only JSON strings and their size.
//!
//! Packed forms (single-key objects): `{"$blob": H}` stands for a long string; `{"$pieces":
//! [..]}` for a long string holding a JSON object, split at its long members, where a piece is
//! text or `{"$text": H}`; an object of the data that looks like one of these (or like
//! `{"$literal": ..}`) is kept as `{"$literal": it}`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Strings (and JSON members) shorter than this stay inline: a reference costs ~80 bytes.
const MIN: usize = 1024;

const BLOB: &str = "$blob";
const PIECES: &str = "$pieces";
const TEXT: &str = "$text";
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

fn looks_packed(m: &Map<String, Value>) -> bool {
    m.len() == 1
        && m.keys()
            .all(|k| [BLOB, PIECES, TEXT, LITERAL].contains(&k.as_str()))
}

fn pack_value(value: &Value, blobs: &mut BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) if s.len() >= MIN => match split(s) {
            Some(spans) => pieces(s, &spans, blobs),
            None => single(BLOB, Value::String(keep(s, blobs))),
        },
        Value::Array(items) => Value::Array(items.iter().map(|v| pack_value(v, blobs)).collect()),
        Value::Object(m) => {
            let packed: Map<String, Value> = m
                .iter()
                .map(|(k, v)| (k.clone(), pack_value(v, blobs)))
                .collect();
            if looks_packed(m) {
                single(LITERAL, Value::Object(packed))
            } else {
                Value::Object(packed)
            }
        }
        other => other.clone(),
    }
}

/// The byte spans of the long members of `s` when it is the text of a JSON object whose
/// members appear in it as serde_json writes them (compact), else `None`.
fn split(s: &str) -> Option<Vec<(usize, usize)>> {
    if !s.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(s) else {
        return None;
    };
    let mut spans = Vec::new();
    let mut from = 0;
    for (key, member) in &m {
        let text = serde_json::to_string(member).ok()?;
        if text.len() < MIN {
            continue;
        }
        let head = format!("{}:", serde_json::to_string(key).ok()?);
        let at = s[from..].find(&format!("{head}{text}"))? + from + head.len();
        spans.push((at, at + text.len()));
        from = at + text.len();
    }
    (!spans.is_empty()).then_some(spans)
}

fn pieces(s: &str, spans: &[(usize, usize)], blobs: &mut BTreeMap<String, String>) -> Value {
    let mut out = Vec::new();
    let mut at = 0;
    for &(start, end) in spans {
        out.push(Value::String(s[at..start].to_owned()));
        out.push(single(TEXT, Value::String(keep(&s[start..end], blobs))));
        at = end;
    }
    out.push(Value::String(s[at..].to_owned()));
    single(PIECES, Value::Array(out))
}

/// Why a packed value cannot be read back.
#[derive(Debug, PartialEq)]
pub(crate) struct Missing(pub String);

/// The value `packed` stands for; `blob` fetches a blob's text by hash.
pub(crate) fn unpack(
    packed: Value,
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
                .map(|v| unpack(v, blob))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(m) if looks_packed(&m) => {
            let (key, inner) = m.into_iter().next().unwrap_or_default();
            match key.as_str() {
                BLOB => Value::String(fetch(&inner)?),
                PIECES => {
                    let mut text = String::new();
                    for piece in inner.as_array().into_iter().flatten() {
                        match piece {
                            Value::String(s) => text.push_str(s),
                            Value::Object(p) => text.push_str(&fetch(&p[TEXT])?),
                            _ => return Err(Missing("a piece that is neither".into())),
                        }
                    }
                    Value::String(text)
                }
                LITERAL => match inner {
                    Value::Object(m) => unpack_members(m, blob)?,
                    _ => return Err(Missing("a literal that is not an object".into())),
                },
                _ => return Err(Missing(format!("a stray {key}"))),
            }
        }
        Value::Object(m) => unpack_members(m, blob)?,
        other => other,
    })
}

fn unpack_members(
    m: Map<String, Value>,
    blob: &mut impl FnMut(&str) -> Option<String>,
) -> Result<Value, Missing> {
    Ok(Value::Object(
        m.into_iter()
            .map(|(k, v)| Ok((k, unpack(v, blob)?)))
            .collect::<Result<_, Missing>>()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: &Value) -> (Value, usize) {
        let (packed, blobs) = pack(v);
        let back = unpack(packed.clone(), &mut |h| blobs.get(h).cloned()).unwrap();
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
        // One blob for the tool list (both requests), one for the long answer (twice).
        assert_eq!(blobs, 2);
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

    #[test]
    fn a_missing_blob_is_an_error_not_a_guess() {
        let (packed, _) = pack(&json!("q".repeat(2000)));
        assert!(unpack(packed, &mut |_| None).is_err());
    }
}
