//! `mcplab skills list|read`: a server's skills (SEP-2640). Listing reads no file; reading
//! loads one skill and verifies every file against its manifest, stopping at the first
//! mismatch (exit 1), so unverified content is never printed.

use mcplab_mcp::Listing;

use crate::cli::SkillsCmd;
use crate::failure::{EXIT_CALL, Failure};
use crate::output;
use crate::output::printer::{Column, Printer};
use crate::session::Session;
use crate::settings::Settings;

const SKILL_COLUMNS: [Column; 4] = [
    Column::with("name", |skill| text(&skill["frontmatter"]["name"])),
    Column::with("files", files),
    Column::field("uri", "uri"),
    Column::with("description", |skill| {
        text(&skill["frontmatter"]["description"])
    }),
];

fn text(v: &serde_json::Value) -> String {
    v.as_str().unwrap_or("").to_owned()
}

/// How many files the skill's manifest lists (or what the server put there instead).
fn files(skill: &serde_json::Value) -> String {
    match &skill["resources"] {
        serde_json::Value::Array(f) => f.len().to_string(),
        other => other.as_str().unwrap_or("?").to_owned(),
    }
}

pub async fn run(cmd: SkillsCmd, settings: &Settings, s: &Session) -> Result<(), Failure> {
    let conn = s.connection();
    match cmd {
        SkillsCmd::List => {
            let r = s.list_all(Listing::Skills).await?;
            Printer::new(settings.json, settings.raw).list(&r, "skills", &SKILL_COLUMNS)
        }
        SkillsCmd::Read { skill } => {
            let loaded = conn.load_skill(&skill).await?;
            if settings.json {
                crate::output::outln!(
                    "{}",
                    output::json(&serde_json::to_value(&loaded).unwrap_or_default())
                );
            } else {
                for file in &loaded.files {
                    let mark = if file.verified {
                        "verified"
                    } else {
                        "NOT verified"
                    };
                    crate::output::outln!(
                        "── {} ({} B, {}, {mark})",
                        file.uri,
                        file.size,
                        file.digest
                    );
                    if let Some(text) = &file.text {
                        crate::output::outln!("{}", visible(text));
                    }
                }
            }
            match loaded.problem {
                Some(problem) => {
                    eprintln!("skill `{skill}` failed verification: {problem}");
                    Err(Failure::silent(EXIT_CALL))
                }
                None => Ok(()),
            }
        }
    }
}

/// The text with control characters (but newlines and tabs) shown as escapes: skill files
/// come from the server and must not drive the terminal.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}
