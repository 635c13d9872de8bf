//! Comparing a recorded answer with a replayed one: the JSON-RPC `id` is not compared (the
//! replay matched it already), and neither are values that differ from run to run by nature —
//! strings that are RFC 3339 timestamps or UUIDs, and the keys named in `VOLATILE` or asked to
//! be ignored. Everything else must be equal; each difference names its JSON pointer.

use serde_json::Value;

/// Keys whose values are per run (times, generated ids), at any depth.
const VOLATILE: &[&str] = &[
    "timestamp",
    "createdAt",
    "updatedAt",
    "lastUpdatedAt",
    "requestId",
    "taskId",
    "sessionId",
    "progressToken",
    "subscriptionId",
];

/// One place where the answers differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// A JSON pointer into the answer, e.g. `/result/content/0/text`.
    pub path: String,
    /// `None`: absent on that side.
    pub recorded: Option<Value>,
    pub got: Option<Value>,
}

/// Where `got` differs from `recorded`, ids, timestamps, UUIDs and `ignore`d keys aside.
pub fn differences(recorded: &Value, got: &Value, ignore: &[String]) -> Vec<Difference> {
    let mut out = Vec::new();
    let (mut recorded, mut got) = (recorded.clone(), got.clone());
    for v in [&mut recorded, &mut got] {
        if let Some(map) = v.as_object_mut() {
            map.remove("id");
        }
    }
    walk("", Some(&recorded), Some(&got), ignore, &mut out);
    out
}

fn walk(
    path: &str,
    a: Option<&Value>,
    b: Option<&Value>,
    ignore: &[String],
    out: &mut Vec<Difference>,
) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for key in keys {
                if VOLATILE.contains(&key.as_str()) || ignore.iter().any(|i| i == key) {
                    continue;
                }
                let here = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                walk(&here, x.get(key), y.get(key), ignore, out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            for i in 0..x.len().max(y.len()) {
                walk(&format!("{path}/{i}"), x.get(i), y.get(i), ignore, out);
            }
        }
        (Some(Value::String(x)), Some(Value::String(y))) if volatile(x) && volatile(y) => {}
        (a, b) if a == b => {}
        (a, b) => out.push(Difference {
            path: if path.is_empty() {
                "/".into()
            } else {
                path.to_owned()
            },
            recorded: a.cloned(),
            got: b.cloned(),
        }),
    }
}

/// An RFC 3339 timestamp (`2026-07-28T12:00:00Z`, fractions and offsets allowed) or a UUID.
fn volatile(s: &str) -> bool {
    is_timestamp(s) || is_uuid(s)
}

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't' | b' ')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
}

fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_times_and_uuids_are_not_differences_but_content_is() {
        let recorded = json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "hello"}],
            "at": "2026-07-28T10:00:00.123Z",
            "ref": "0b6f2a4e-8d3c-4b59-9c8e-1f2a3b4c5d6e",
            "taskId": "t-1",
        }});
        let got = json!({"jsonrpc": "2.0", "id": 9, "result": {
            "content": [{"type": "text", "text": "hullo"}, {"type": "text", "text": "more"}],
            "at": "2026-12-01T08:30:00Z",
            "ref": "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
            "taskId": "t-2",
            "extra": true,
        }});
        let found = differences(&recorded, &got, &[]);
        let paths: Vec<&str> = found.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/result/content/0/text",
                "/result/content/1",
                "/result/extra"
            ]
        );
        assert_eq!(found[1].recorded, None);
        let ignored = differences(&recorded, &got, &["content".into(), "extra".into()]);
        assert!(ignored.is_empty(), "{ignored:?}");
    }
}
