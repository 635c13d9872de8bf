//! YAML (and JSON, a subset of it) text → a JSON value plus where each part came from, so
//! every later error can name its line and column. Plain scalars resolve per the YAML 1.2 core
//! schema; quoted ones stay strings. Anchors, aliases and tags are refused (no expansion
//! bombs), so are duplicate keys and streams of several documents; depth and node count are
//! bounded. Knows nothing about suites.

use std::collections::HashMap;

use marked_yaml::{LoaderOptions, Node};
use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, EventReceiver, Parser};

/// A line and column, both 1-based, as editors count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Where the parts of a document are: by JSON pointer (`/cases/0/id`), the value's position
/// and, for mapping entries, the key's.
#[derive(Debug, Default)]
pub struct Positions {
    values: HashMap<String, Position>,
    keys: HashMap<String, Position>,
}

impl Positions {
    /// The position of the value at `pointer`, or of its nearest ancestor that has one.
    pub fn value(&self, pointer: &str) -> Option<Position> {
        let mut p = pointer;
        loop {
            if let Some(pos) = self.values.get(p) {
                return Some(*pos);
            }
            let cut = p.rfind('/')?;
            p = &p[..cut];
        }
    }
    /// The position of the key that holds `pointer`'s value, else the value's.
    pub fn key(&self, pointer: &str) -> Option<Position> {
        self.keys
            .get(pointer)
            .copied()
            .or_else(|| self.value(pointer))
    }
}

/// Bounds on what a document may make us hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_depth: usize,
    pub max_nodes: usize,
}

/// Why a text is not a usable document.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub position: Option<Position>,
    pub message: String,
}

/// Parse one YAML/JSON document into a value and its positions.
pub fn parse(text: &str, limits: Limits) -> Result<(Value, Positions), SyntaxError> {
    match count_documents(text) {
        Ok(0) => {
            return Err(error(
                None,
                "the file is empty: a suite needs at least `version`, `id` and `cases`",
            ));
        }
        Ok(1) => {}
        Ok(n) => {
            return Err(error(
                None,
                &format!(
                    "the file holds {n} YAML documents; a suite file is exactly one (put each suite in its own file)"
                ),
            ));
        }
        // The marked loader below reports the same syntax error with its position.
        Err(()) => {}
    }
    let options = LoaderOptions::default()
        .error_on_duplicate_keys(true)
        .prevent_coercion(true);
    let node = marked_yaml::parse_yaml_with_options(0, text, options).map_err(load_error)?;
    let mut walk = Walk {
        limits,
        nodes: 0,
        positions: Positions::default(),
    };
    let value = walk.node(&node, String::new(), 0)?;
    Ok((value, walk.positions))
}

fn error(position: Option<Position>, message: &str) -> SyntaxError {
    SyntaxError {
        position,
        message: message.to_string(),
    }
}

fn load_error(e: marked_yaml::LoadError) -> SyntaxError {
    use marked_yaml::LoadError::*;
    let at = |m: &marked_yaml::Marker| {
        Some(Position {
            line: m.line(),
            column: m.column(),
        })
    };
    match &e {
        TopLevelMustBeMapping(m) => error(
            at(m),
            "the top level must be a mapping (`version: 1`, `id: …`, `cases: …`)",
        ),
        TopLevelMustBeSequence(m) => error(at(m), "the top level must be a sequence"),
        UnexpectedAnchor(m) => error(
            at(m),
            "anchors and aliases (`&name`, `*name`) are not supported: write the value out",
        ),
        MappingKeyMustBeScalar(m) => error(at(m), "mapping keys must be plain strings"),
        UnexpectedTag(m) => error(at(m), "YAML tags (`!tag`) are not supported"),
        ScanError(m, _) => {
            let text = e.to_string();
            let message = text
                .split_once(": ")
                .map_or(text.as_str(), |(_, rest)| rest);
            error(at(m), &format!("not valid YAML: {message}"))
        }
        DuplicateKey(inner) => {
            let first = inner
                .prev_key
                .span()
                .start()
                .map(|m| format!(" (first at line {})", m.line()))
                .unwrap_or_default();
            error(
                inner.key.span().start().and_then(at),
                &format!("duplicate key `{}`{first}", inner.key.as_str()),
            )
        }
    }
}

/// Documents in the stream (`Err` on a syntax error, which the loader reports better).
fn count_documents(text: &str) -> Result<usize, ()> {
    struct Count(usize);
    impl EventReceiver for Count {
        fn on_event(&mut self, ev: Event) {
            if matches!(ev, Event::DocumentStart) {
                self.0 += 1;
            }
        }
    }
    let mut count = Count(0);
    Parser::new_from_str(text)
        .load(&mut count, true)
        .map_err(|_| ())?;
    Ok(count.0)
}

struct Walk {
    limits: Limits,
    nodes: usize,
    positions: Positions,
}

impl Walk {
    fn node(&mut self, node: &Node, pointer: String, depth: usize) -> Result<Value, SyntaxError> {
        // A block mapping's own mark falls after its first key; people look for the key.
        let first_key = node
            .as_mapping()
            .and_then(|m| m.keys().next())
            .and_then(|k| k.span().start());
        let position = first_key.or(node.span().start()).map(|m| Position {
            line: m.line(),
            column: m.column(),
        });
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(error(
                position,
                &format!(
                    "the file has more than {} values; split the suite",
                    self.limits.max_nodes
                ),
            ));
        }
        if depth > self.limits.max_depth {
            return Err(error(
                position,
                &format!("nested deeper than {} levels", self.limits.max_depth),
            ));
        }
        if let Some(pos) = position {
            self.positions.values.insert(pointer.clone(), pos);
        }
        match node {
            Node::Scalar(s) => scalar(s.as_str(), s.may_coerce()).map_err(|m| error(position, &m)),
            Node::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(self.node(item, format!("{pointer}/{i}"), depth + 1)?);
                }
                Ok(Value::Array(out))
            }
            Node::Mapping(map) => {
                let mut out = Map::new();
                for (key, value) in map.iter() {
                    let child = format!("{pointer}/{}", escape_pointer(key.as_str()));
                    if let Some(m) = key.span().start() {
                        let pos = Position {
                            line: m.line(),
                            column: m.column(),
                        };
                        self.positions.keys.insert(child.clone(), pos);
                    }
                    let v = self.node(value, child, depth + 1)?;
                    out.insert(key.as_str().to_string(), v);
                }
                Ok(Value::Object(out))
            }
        }
    }
}

/// RFC 6901 escaping of one reference token.
pub fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A scalar's value: quoted scalars are strings; plain ones follow the YAML 1.2 core schema.
fn scalar(text: &str, plain: bool) -> Result<Value, String> {
    if !plain {
        return Ok(Value::String(text.to_string()));
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "-.inf" | ".nan" | ".NaN" | ".NAN" => {
            return Err(format!(
                "`{text}` has no JSON form: quote it if you mean the text"
            ));
        }
        _ => {}
    }
    if let Some(n) = integer(text) {
        return Ok(Value::Number(n));
    }
    if is_float(text)
        && let Some(n) = text.parse::<f64>().ok().and_then(Number::from_f64)
    {
        return Ok(Value::Number(n));
    }
    Ok(Value::String(text.to_string()))
}

fn integer(text: &str) -> Option<Number> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-');
    let (radix, body) = if let Some(hex) = text.strip_prefix("0x") {
        (16, hex)
    } else if let Some(oct) = text.strip_prefix("0o") {
        (8, oct)
    } else {
        (10, digits)
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    if radix != 10 {
        return u64::from_str_radix(body, radix).ok().map(Number::from);
    }
    if negative {
        text.parse::<i64>().ok().map(Number::from)
    } else {
        digits.parse::<u64>().ok().map(Number::from)
    }
}

fn is_float(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok && (mantissa.contains('.') || exponent.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LIMITS: Limits = Limits {
        max_depth: 32,
        max_nodes: 1000,
    };

    #[test]
    fn core_schema_scalars() {
        let (v, _) = parse(
            "a: 1\nb: -2\nc: 2.5\nd: 1e3\ne: true\nf: ~\ng: '1'\nh: \"true\"\ni: hello\nj: 0x1f\nk:\n",
            LIMITS,
        )
        .unwrap();
        assert_eq!(
            v,
            json!({"a": 1, "b": -2, "c": 2.5, "d": 1000.0, "e": true, "f": null, "g": "1",
                   "h": "true", "i": "hello", "j": 31, "k": null})
        );
    }

    #[test]
    fn json_text_is_accepted() {
        let (v, _) = parse(r#"{"a": [1, "x", {"b": false}]}"#, LIMITS).unwrap();
        assert_eq!(v, json!({"a": [1, "x", {"b": false}]}));
    }

    #[test]
    fn positions_of_keys_and_values() {
        let (_, pos) = parse("a:\n  b: [1, 2]\n  c: x\n", LIMITS).unwrap();
        assert_eq!(pos.key("/a/c"), Some(Position { line: 3, column: 3 }));
        assert_eq!(pos.value("/a/c"), Some(Position { line: 3, column: 6 }));
        assert_eq!(
            pos.value("/a/b/1"),
            Some(Position {
                line: 2,
                column: 10
            })
        );
        // A missing child falls back to its parent.
        assert_eq!(pos.value("/a/zzz"), pos.value("/a"));
    }

    #[test]
    fn refusals_name_the_line() {
        let dup = parse("a: 1\nb: 2\na: 3\n", LIMITS).unwrap_err();
        assert_eq!(dup.position.map(|p| p.line), Some(3));
        assert!(dup.message.contains("duplicate key `a`"), "{}", dup.message);
        let alias = parse("a: &x 1\nb: *x\n", LIMITS).unwrap_err();
        assert!(alias.message.contains("anchors"), "{}", alias.message);
        let two = parse("a: 1\n---\nb: 2\n", LIMITS).unwrap_err();
        assert!(two.message.contains("2 YAML documents"), "{}", two.message);
        let empty = parse("# nothing\n", LIMITS).unwrap_err();
        assert!(empty.message.contains("empty"), "{}", empty.message);
        let bad = parse("a: [1,\n", LIMITS).unwrap_err();
        assert!(bad.message.starts_with("not valid YAML"), "{}", bad.message);
        let inf = parse("a: .inf\n", LIMITS).unwrap_err();
        assert_eq!(inf.position.map(|p| p.line), Some(1));
    }

    #[test]
    fn depth_and_size_are_bounded() {
        let deep = format!("a: {}1{}\n", "[".repeat(40), "]".repeat(40));
        assert!(
            parse(&deep, LIMITS)
                .unwrap_err()
                .message
                .contains("deeper than 32")
        );
        let wide = format!("a: [{}]\n", vec!["1"; 2000].join(","));
        assert!(
            parse(&wide, LIMITS)
                .unwrap_err()
                .message
                .contains("more than 1000")
        );
        // The parser's own recursion guard holds for pathological nesting.
        let bomb = format!("a: {}\n", "[".repeat(200_000));
        assert!(parse(&bomb, LIMITS).is_err());
    }
}
