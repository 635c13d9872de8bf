//! The published JSON Schema of suite files (`mcplab eval schema` prints it), generated from
//! the types so it cannot drift from what the loader accepts. The loader validates with it, so
//! structural errors come from one place.

use serde_json::Value;

use super::model::Suite;

/// The suite file JSON Schema (draft 2020-12).
pub fn suite_schema() -> Value {
    let schema = schemars::schema_for!(Suite);
    schema.to_value()
}
