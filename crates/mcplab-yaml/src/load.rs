//! One pass from the parser's events to a JSON value and its positions. What the crate refuses
//! is refused at the event that shows it, the limits hold before anything past them is built,
//! and the first problem ends the parse.

use serde_json::{Map, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

use crate::{Error, ErrorKind, Limits, Position, Positions, escape_pointer, scalar};

/// A collection being read, with the JSON pointer of its value.
enum Open {
    Seq {
        pointer: String,
        items: Vec<Value>,
    },
    Map {
        pointer: String,
        entries: Map<String, Value>,
        /// The key whose value comes next.
        key: Option<String>,
    },
}

struct Builder {
    limits: Limits,
    nodes: usize,
    stack: Vec<Open>,
    positions: Positions,
    root: Option<Value>,
}

pub(crate) fn load(text: &str, limits: Limits) -> Result<(Value, Positions), Error> {
    let mut parser = Parser::new_from_str(text);
    let mut builder = Builder {
        limits,
        nodes: 0,
        stack: Vec::new(),
        positions: Positions::default(),
        root: None,
    };
    let mut documents = 0;
    loop {
        let (event, mark) = parser.next_token().map_err(scan_error)?;
        match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(several(&mut parser, position(mark)));
                }
            }
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
            event => builder.event(event, position(mark))?,
        }
    }
    match builder.root {
        Some(value) => Ok((value, builder.positions)),
        None => Err(Error {
            position: None,
            kind: ErrorKind::Empty,
            message: "the document is empty".into(),
        }),
    }
}

/// The error for a stream whose second document starts at `second`, counting the rest.
fn several<T: Iterator<Item = char>>(parser: &mut Parser<T>, second: Position) -> Error {
    let mut n = 2;
    loop {
        match parser.next_token() {
            Ok((Event::DocumentStart, _)) => n += 1,
            Ok((Event::StreamEnd, _)) => break,
            Ok(_) => {}
            Err(e) => return scan_error(e),
        }
    }
    Error {
        position: Some(second),
        kind: ErrorKind::SeveralDocuments(n),
        message: format!("the text holds {n} YAML documents; exactly one is read"),
    }
}

impl Builder {
    fn event(&mut self, event: Event, at: Position) -> Result<(), Error> {
        match event {
            Event::Alias(_) => Err(anchors(at)),
            Event::Scalar(text, style, anchor, tag) => {
                refuse(anchor, tag.as_ref(), at)?;
                if self.wants_key() {
                    return self.key(text, at);
                }
                self.enter(at)?;
                let value = if style == TScalarStyle::Plain {
                    scalar::plain(&text).map_err(|m| syntax(at, m))?
                } else {
                    Value::String(text)
                };
                self.attach(value);
                Ok(())
            }
            Event::SequenceStart(anchor, tag) => {
                refuse(anchor, tag.as_ref(), at)?;
                let pointer = self.enter(at)?;
                self.stack.push(Open::Seq {
                    pointer,
                    items: Vec::new(),
                });
                Ok(())
            }
            Event::MappingStart(anchor, tag) => {
                refuse(anchor, tag.as_ref(), at)?;
                let pointer = self.enter(at)?;
                self.stack.push(Open::Map {
                    pointer,
                    entries: Map::new(),
                    key: None,
                });
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let value = match self.stack.pop() {
                    Some(Open::Seq { items, .. }) => Value::Array(items),
                    Some(Open::Map { entries, .. }) => Value::Object(entries),
                    None => return Ok(()),
                };
                self.attach(value);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn wants_key(&self) -> bool {
        matches!(self.stack.last(), Some(Open::Map { key: None, .. }))
    }

    /// A mapping key: refused when repeated; the first one also marks where its mapping is
    /// (a block mapping's own mark falls after its first key, and people look for the key).
    fn key(&mut self, text: String, at: Position) -> Result<(), Error> {
        let Some(Open::Map {
            pointer,
            entries,
            key,
        }) = self.stack.last_mut()
        else {
            return Ok(());
        };
        let child = format!("{pointer}/{}", escape_pointer(&text));
        if entries.contains_key(&text) {
            let first = self
                .positions
                .keys
                .get(&child)
                .map(|p| format!(" (first at line {})", p.line))
                .unwrap_or_default();
            return Err(syntax(at, format!("duplicate key `{text}`{first}")));
        }
        if entries.is_empty() {
            self.positions.values.insert(pointer.clone(), at);
        }
        self.positions.keys.insert(child, at);
        *key = Some(text);
        Ok(())
    }

    /// A new value starts at `at`: counted, its depth checked, its position noted. Returns its
    /// JSON pointer.
    fn enter(&mut self, at: Position) -> Result<String, Error> {
        let pointer = match self.stack.last() {
            None => String::new(),
            Some(Open::Seq { pointer, items }) => format!("{pointer}/{}", items.len()),
            Some(Open::Map { key: None, .. }) => {
                return Err(syntax(at, "mapping keys must be plain strings".into()));
            }
            Some(Open::Map {
                pointer,
                key: Some(key),
                ..
            }) => format!("{pointer}/{}", escape_pointer(key)),
        };
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            let max = self.limits.max_nodes;
            return Err(syntax(
                at,
                format!("the document has more than {max} values: split it"),
            ));
        }
        if self.stack.len() > self.limits.max_depth {
            let max = self.limits.max_depth;
            return Err(syntax(at, format!("nested deeper than {max} levels")));
        }
        self.positions.values.insert(pointer.clone(), at);
        Ok(pointer)
    }

    /// A finished value goes into the collection it belongs to (or is the document).
    fn attach(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => self.root = Some(value),
            Some(Open::Seq { items, .. }) => items.push(value),
            Some(Open::Map { entries, key, .. }) => {
                if let Some(k) = key.take() {
                    entries.insert(k, value);
                }
            }
        }
    }
}

fn refuse(anchor: usize, tag: Option<&Tag>, at: Position) -> Result<(), Error> {
    if anchor != 0 {
        return Err(anchors(at));
    }
    if tag.is_some() {
        return Err(syntax(at, "YAML tags (`!tag`) are not supported".into()));
    }
    Ok(())
}

fn anchors(at: Position) -> Error {
    syntax(
        at,
        "anchors and aliases (`&name`, `*name`) are not supported: write the value out".into(),
    )
}

fn syntax(at: Position, message: String) -> Error {
    Error {
        position: Some(at),
        kind: ErrorKind::Syntax,
        message,
    }
}

fn scan_error(e: ScanError) -> Error {
    syntax(
        position(*e.marker()),
        format!("not valid YAML: {}", e.info()),
    )
}

fn position(mark: Marker) -> Position {
    Position {
        line: mark.line(),
        column: mark.col() + 1,
    }
}
