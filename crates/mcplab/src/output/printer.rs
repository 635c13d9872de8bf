//! How a command prints its result: for a person (a table of a listing's items, or text the
//! command renders) or, with `--json`, the protocol value exactly as received. A command says
//! once what to print; the printer picks the form, so no command repeats `if json { … } else
//! { … }`. It writes through [`Stdout`] (closed pipe, control sequences) and never decides
//! what to print or fetches anything.

use serde_json::Value;

use crate::failure::Failure;
use crate::output::{self, Stdout};

/// The form results take, chosen once from `--json` (and `--raw`).
#[derive(Debug, Clone, Copy)]
pub enum Printer {
    /// Tables and rendered text; `Stdout::raw` keeps server text byte for byte.
    Human(Stdout),
    /// The protocol value, pretty-printed and otherwise untouched.
    Json,
}

/// What a table column shows of one listed item.
#[derive(Debug, Clone, Copy)]
pub enum Cell {
    /// A string field of the item (empty when absent).
    Field(&'static str),
    /// A summary the command computes from the item.
    With(fn(&Value) -> String),
}

/// One column of a listing's table: its header and what each row shows.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub header: &'static str,
    pub cell: Cell,
}

impl Column {
    /// A column showing the string field `key` of each item.
    pub const fn field(header: &'static str, key: &'static str) -> Column {
        Column {
            header,
            cell: Cell::Field(key),
        }
    }

    /// A column showing what `f` makes of each item.
    pub const fn with(header: &'static str, f: fn(&Value) -> String) -> Column {
        Column {
            header,
            cell: Cell::With(f),
        }
    }

    fn show(&self, item: &Value) -> String {
        match self.cell {
            Cell::Field(key) => item
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            Cell::With(f) => f(item),
        }
    }
}

impl Printer {
    pub fn new(json: bool, raw: bool) -> Printer {
        if json {
            Printer::Json
        } else {
            Printer::Human(Stdout { raw })
        }
    }

    pub fn is_json(&self) -> bool {
        matches!(self, Printer::Json)
    }

    /// A listing result: as JSON the whole result; for a person a table with one row per item
    /// of the array under `key`.
    pub fn list(&self, result: &Value, key: &str, columns: &[Column]) -> Result<(), Failure> {
        self.value(result, |r| table_of(r, key, columns))
    }

    /// A result: as JSON `result` itself; for a person the text `human` renders from it
    /// (newlines included; nothing is added).
    pub fn value(
        &self,
        result: &Value,
        human: impl FnOnce(&Value) -> String,
    ) -> Result<(), Failure> {
        match self {
            Printer::Json => Stdout::default().json(result),
            Printer::Human(out) => out.print(&human(result)),
        }
    }
}

/// The table of the items under `key`, one column each.
fn table_of(result: &Value, key: &str, columns: &[Column]) -> String {
    let headers: Vec<&str> = columns.iter().map(|c| c.header).collect();
    let rows: Vec<Vec<String>> = items(result, key)
        .map(|item| columns.iter().map(|c| c.show(item)).collect())
        .collect();
    output::table(&headers, &rows)
}

/// The items of the array under `key` (none when it is absent or not an array).
pub fn items<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn upper(v: &Value) -> String {
        v.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_uppercase()
    }

    #[test]
    fn a_listing_is_a_table_of_its_items() {
        let r = json!({"tools": [{"name": "a", "description": "first"}, {"name": "b"}]});
        let columns = [
            Column::field("name", "name"),
            Column::with("shout", upper),
            Column::field("description", "description"),
        ];
        assert_eq!(
            table_of(&r, "tools", &columns),
            "NAME  SHOUT  DESCRIPTION\na     A      first\nb     B\n"
        );
        assert_eq!(
            table_of(&json!({"tools": 3}), "tools", &columns),
            "NAME  SHOUT  DESCRIPTION\n"
        );
        assert!(Printer::new(true, false).is_json());
        assert!(!Printer::new(false, true).is_json());
    }
}
