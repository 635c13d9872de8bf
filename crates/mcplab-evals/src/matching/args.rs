//! The argument matcher: does an actual JSON value satisfy an expected matcher, and if not,
//! where (JSON path) and how. Plain values compare (objects partially or exactly, nested);
//! `"<string>"`-style placeholders check types; `$`-operators give alternatives, regexes,
//! numeric tolerance, case/whitespace-insensitive text, optional and absent keys, and escape
//! hatches. Pure; never panics on any input. Checking matchers as written is `syntax`.

use regex::RegexBuilder;
use serde_json::{Map, Value};

use super::bipartite;
use crate::suite::ArgumentMode;

/// How plain values compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArgOptions {
    /// `Partial`: expected keys only; `Exact`: no other keys. (`Ignore` never gets here.)
    pub mode: ArgumentMode,
    pub ignore_case: bool,
    pub ignore_whitespace: bool,
    pub tolerance: f64,
}

impl Default for ArgOptions {
    fn default() -> Self {
        ArgOptions {
            mode: ArgumentMode::Partial,
            ignore_case: false,
            ignore_whitespace: false,
            tolerance: 0.0,
        }
    }
}

pub use mcplab_protocol::evals::Mismatch;

pub(crate) const PLACEHOLDERS: [&str; 8] = [
    "<any>",
    "<string>",
    "<number>",
    "<integer>",
    "<boolean>",
    "<object>",
    "<array>",
    "<null>",
];
pub(crate) const OPERATORS: [&str; 11] = [
    "$anyOf",
    "$regex",
    "$approx",
    "$tolerance",
    "$like",
    "$optional",
    "$absent",
    "$exact",
    "$partial",
    "$literal",
    "$contains",
];
/// Compiled regexes are bounded so a suite cannot make us build a huge automaton.
pub(crate) const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Every mismatch between `expected` and `actual` (empty: it matches).
pub fn match_value(expected: &Value, actual: Option<&Value>, opts: &ArgOptions) -> Vec<Mismatch> {
    let mut out = Vec::new();
    walk(expected, actual, opts, "$".to_string(), &mut out);
    out
}

/// Whether it matches (no mismatches).
pub fn matches(expected: &Value, actual: Option<&Value>, opts: &ArgOptions) -> bool {
    match_value(expected, actual, opts).is_empty()
}

fn miss(
    out: &mut Vec<Mismatch>,
    path: &str,
    expected: &Value,
    actual: Option<&Value>,
    reason: String,
) {
    out.push(Mismatch {
        path: path.to_string(),
        expected: expected.clone(),
        actual: actual.cloned(),
        reason,
    });
}

fn walk(
    expected: &Value,
    actual: Option<&Value>,
    opts: &ArgOptions,
    path: String,
    out: &mut Vec<Mismatch>,
) {
    if let Value::Object(map) = expected
        && map.keys().any(|k| k.starts_with('$'))
    {
        return operator(map, expected, actual, opts, path, out);
    }
    let Some(actual) = actual else {
        return miss(out, &path, expected, None, "missing".into());
    };
    match expected {
        Value::String(s) if PLACEHOLDERS.contains(&s.as_str()) => {
            if !placeholder(s, actual) {
                let reason = format!("expected {}, found {}", &s[1..s.len() - 1], kind(actual));
                miss(out, &path, expected, Some(actual), reason);
            }
        }
        Value::Object(map) => object(map, expected, actual, opts, path, out),
        Value::Array(items) => array(items, expected, actual, opts, path, out),
        _ => {
            if let Some(reason) = scalar(expected, actual, opts) {
                miss(out, &path, expected, Some(actual), reason);
            }
        }
    }
}

fn object(
    map: &Map<String, Value>,
    expected: &Value,
    actual: &Value,
    opts: &ArgOptions,
    path: String,
    out: &mut Vec<Mismatch>,
) {
    let Value::Object(got) = actual else {
        return miss(
            out,
            &path,
            expected,
            Some(actual),
            format!("expected an object, found {}", kind(actual)),
        );
    };
    for (key, want) in map {
        walk(want, got.get(key), opts, child(&path, key), out);
    }
    if opts.mode == ArgumentMode::Exact {
        for (key, value) in got {
            if !map.contains_key(key) {
                miss(
                    out,
                    &child(&path, key),
                    &Value::Null,
                    Some(value),
                    "unexpected key (arguments are matched exactly)".into(),
                );
            }
        }
    }
}

fn array(
    items: &[Value],
    expected: &Value,
    actual: &Value,
    opts: &ArgOptions,
    path: String,
    out: &mut Vec<Mismatch>,
) {
    let Value::Array(got) = actual else {
        return miss(
            out,
            &path,
            expected,
            Some(actual),
            format!("expected an array, found {}", kind(actual)),
        );
    };
    if items.len() != got.len() {
        let reason = format!("expected {} item(s), found {}", items.len(), got.len());
        return miss(out, &path, expected, Some(actual), reason);
    }
    for (i, (want, have)) in items.iter().zip(got).enumerate() {
        walk(want, Some(have), opts, format!("{path}[{i}]"), out);
    }
}

fn operator(
    map: &Map<String, Value>,
    expected: &Value,
    actual: Option<&Value>,
    opts: &ArgOptions,
    path: String,
    out: &mut Vec<Mismatch>,
) {
    let first = map.keys().next().map(String::as_str).unwrap_or_default();
    let op = if map.contains_key("$approx") {
        "$approx"
    } else {
        first
    };
    let arg = map.get(op).unwrap_or(&Value::Null);
    match (op, actual) {
        ("$optional", None) | ("$absent", None) => {}
        ("$optional", Some(_)) => walk(arg, actual, opts, path, out),
        ("$absent", Some(a)) => miss(out, &path, expected, Some(a), "must be absent".into()),
        (_, None) => miss(out, &path, expected, None, "missing".into()),
        ("$exact", Some(a)) => walk(
            arg,
            Some(a),
            &ArgOptions {
                mode: ArgumentMode::Exact,
                ..*opts
            },
            path,
            out,
        ),
        ("$partial", Some(a)) => walk(
            arg,
            Some(a),
            &ArgOptions {
                mode: ArgumentMode::Partial,
                ..*opts
            },
            path,
            out,
        ),
        ("$literal", Some(a)) => {
            if !json_equal(arg, a) {
                miss(
                    out,
                    &path,
                    expected,
                    Some(a),
                    "not equal to the literal value".into(),
                );
            }
        }
        ("$anyOf", Some(a)) => {
            let alternatives = arg.as_array().map(Vec::as_slice).unwrap_or_default();
            if !alternatives.iter().any(|alt| matches(alt, Some(a), opts)) {
                miss(
                    out,
                    &path,
                    expected,
                    Some(a),
                    format!("matches none of the {} alternatives", alternatives.len()),
                );
            }
        }
        ("$regex", Some(a)) => {
            if let Some(reason) = regex_mismatch(arg, a) {
                miss(out, &path, expected, Some(a), reason);
            }
        }
        ("$approx", Some(a)) => {
            let tolerance = map
                .get("$tolerance")
                .and_then(Value::as_f64)
                .unwrap_or(opts.tolerance);
            match (arg.as_f64(), a.as_f64()) {
                (Some(want), Some(have)) if (want - have).abs() <= tolerance => {}
                (Some(want), Some(have)) => miss(
                    out,
                    &path,
                    expected,
                    Some(a),
                    format!("{have} is not within {tolerance} of {want}"),
                ),
                _ => miss(
                    out,
                    &path,
                    expected,
                    Some(a),
                    format!("expected a number, found {}", kind(a)),
                ),
            }
        }
        ("$like", Some(a)) => {
            let loose = ArgOptions {
                ignore_case: true,
                ignore_whitespace: true,
                ..*opts
            };
            if let Some(reason) = scalar(arg, a, &loose) {
                miss(out, &path, expected, Some(a), reason);
            }
        }
        ("$contains", Some(a)) => contains(arg, expected, a, opts, path, out),
        (other, Some(a)) => miss(
            out,
            &path,
            expected,
            Some(a),
            format!("invalid matcher operator `{other}`"),
        ),
    }
}

/// Structural equality with numbers compared by value (`2` equals `2.0`), as JSON means them.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// `{$contains: [m1, m2]}`: an array with a distinct element matching each, in any order.
fn contains(
    arg: &Value,
    expected: &Value,
    actual: &Value,
    opts: &ArgOptions,
    path: String,
    out: &mut Vec<Mismatch>,
) {
    let wanted = arg.as_array().map(Vec::as_slice).unwrap_or_default();
    let Value::Array(got) = actual else {
        return miss(
            out,
            &path,
            expected,
            Some(actual),
            format!("expected an array, found {}", kind(actual)),
        );
    };
    let pairing = bipartite::max_matching(wanted.len(), got.len(), |i, j| {
        matches(&wanted[i], Some(&got[j]), opts)
    });
    let unmatched = pairing.iter().filter(|p| p.is_none()).count();
    if unmatched > 0 {
        let reason = format!(
            "{unmatched} of {} expected item(s) not found in the array",
            wanted.len()
        );
        miss(out, &path, expected, Some(actual), reason);
    }
}

fn regex_mismatch(pattern: &Value, actual: &Value) -> Option<String> {
    let Some(text) = actual.as_str() else {
        return Some(format!("expected a string, found {}", kind(actual)));
    };
    match RegexBuilder::new(pattern.as_str().unwrap_or_default())
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
    {
        Ok(re) if re.is_match(text) => None,
        Ok(_) => Some("does not match the pattern".into()),
        Err(e) => Some(format!("invalid pattern: {}", regex_error(&e))),
    }
}

/// Scalars and strings under the options; `None` when equal.
fn scalar(expected: &Value, actual: &Value, opts: &ArgOptions) -> Option<String> {
    match (expected, actual) {
        (Value::String(want), Value::String(have)) => {
            (normalize(want, opts) != normalize(have, opts)).then(|| {
                let how = match (opts.ignore_case, opts.ignore_whitespace) {
                    (true, true) => " (ignoring case and whitespace)",
                    (true, false) => " (ignoring case)",
                    (false, true) => " (ignoring whitespace)",
                    (false, false) => "",
                };
                format!("different text{how}")
            })
        }
        (Value::Number(want), Value::Number(have)) => {
            if want == have {
                return None;
            }
            match (want.as_f64(), have.as_f64()) {
                (Some(w), Some(h)) if (w - h).abs() <= opts.tolerance => None,
                _ if opts.tolerance > 0.0 => {
                    Some(format!("{have} is not within {} of {want}", opts.tolerance))
                }
                _ => Some(format!("{have} ≠ {want}")),
            }
        }
        (want, have) if want == have => None,
        (want, have) if kind(want) == kind(have) => Some("different value".into()),
        (want, have) => Some(format!("expected {}, found {}", kind(want), kind(have))),
    }
}

fn normalize(s: &str, opts: &ArgOptions) -> String {
    let s = if opts.ignore_whitespace {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        s.to_string()
    };
    if opts.ignore_case {
        s.to_lowercase()
    } else {
        s
    }
}

fn placeholder(name: &str, actual: &Value) -> bool {
    match name {
        "<any>" => true,
        "<string>" => actual.is_string(),
        "<number>" => actual.is_number(),
        "<integer>" => actual.as_f64().is_some_and(|n| n.fract() == 0.0),
        "<boolean>" => actual.is_boolean(),
        "<object>" => actual.is_object(),
        "<array>" => actual.is_array(),
        _ => actual.is_null(),
    }
}

/// A regex error on one line (the library's message spans several, with a caret drawing).
pub fn regex_error(e: &regex::Error) -> String {
    let text = e.to_string();
    let last = text.lines().last().unwrap_or_default();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

/// A JSON type name for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn child(path: &str, key: &str) -> String {
    let simple = !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.starts_with(|c: char| c.is_ascii_digit());
    if simple {
        format!("{path}.{key}")
    } else {
        format!("{path}[{}]", Value::String(key.to_string()))
    }
}
