//! A session as a file: JSON (the whole session view, HostConfig and its hash included) or
//! Markdown (the conversation for people to read, with the model and host hash on top).

use mcplab_protocol::chat::{SessionSummary, StoredTurn, TurnEvent};

use super::hub::{SessionError, SessionHub};

/// One export, ready to send or write.
pub struct Export {
    pub body: String,
    pub mime: &'static str,
    /// e.g. `add-2-and-3.md`.
    pub file_name: String,
}

impl SessionHub {
    /// Session `id` as `format` (`json` or `markdown`/`md`; `None` is JSON).
    pub fn export(&self, id: &str, format: Option<&str>) -> Result<Export, SessionError> {
        let markdown = match format {
            None | Some("json") => false,
            Some("markdown" | "md") => true,
            Some(other) => {
                return Err(SessionError::Invalid(format!(
                    "unknown export format `{other}`: use json or markdown"
                )));
            }
        };
        let v = self.view(id)?;
        let slug: String = v
            .summary
            .title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        Ok(if markdown {
            Export {
                body: to_markdown(&v.summary, &v.turns),
                mime: "text/markdown; charset=utf-8",
                file_name: format!("{slug}.md"),
            }
        } else {
            Export {
                body: serde_json::to_string_pretty(&v).unwrap_or_default(),
                mime: "application/json",
                file_name: format!("{slug}.json"),
            }
        })
    }
}

/// A session as Markdown.
pub fn to_markdown(summary: &SessionSummary, turns: &[StoredTurn]) -> String {
    let mut md = format!(
        "# {}\n\nModel: `{}` · host config `{}`\n\n",
        summary.title,
        summary.host_config.model,
        &summary.host_hash[..summary.host_hash.len().min(12)]
    );
    for t in turns {
        md.push_str(&format!("## You\n\n{}\n\n## Assistant\n\n", t.user));
        for e in &t.events {
            push_event(&mut md, e);
        }
        md.push_str("\n\n");
    }
    md
}

fn push_event(md: &mut String, e: &TurnEvent) {
    match e {
        TurnEvent::TextDelta { text, .. } => md.push_str(text),
        TurnEvent::ToolCall {
            server,
            tool,
            arguments,
            ..
        } => {
            md.push_str(&format!(
                "\n\n> **Tool call** `{server}/{tool}` `{arguments}`\n"
            ));
        }
        TurnEvent::ToolResult {
            is_error,
            duration_ms,
            error,
            ..
        } => {
            let status = match (is_error, error) {
                (_, Some(e)) => format!("error: {e}"),
                (true, None) => "error".into(),
                (false, None) => "ok".into(),
            };
            md.push_str(&format!("> result: {status} ({duration_ms} ms)\n\n"));
        }
        TurnEvent::TurnFailed { kind, message, .. } => {
            md.push_str(&format!("\n\n**Turn failed ({kind}):** {message}\n"));
        }
        TurnEvent::TurnCancelled { .. } => md.push_str("\n\n*Cancelled.*\n"),
        _ => {}
    }
}
