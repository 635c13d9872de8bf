//! A session as a file: JSON (the whole session view, HostConfig and its hash included) or
//! Markdown (the conversation for people to read, with the model and host hash on top, and
//! under each turn its steps, tokens, cost, time to first token and total time). The JSON
//! holds every event, so each step's x-ray goes with it.

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
        let markdown = export_format(format)?;
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

/// Whether `format` asks for Markdown (`json`, absent: JSON); any other is a clear error.
pub(super) fn export_format(format: Option<&str>) -> Result<bool, SessionError> {
    match format {
        None | Some("json") => Ok(false),
        Some("markdown" | "md") => Ok(true),
        Some(other) => Err(SessionError::Invalid(format!(
            "unknown export format `{other}`: use json or markdown"
        ))),
    }
}

/// A session as Markdown.
pub fn to_markdown(summary: &SessionSummary, turns: &[StoredTurn]) -> String {
    let head = format!("# {}\n\n", summary.title);
    head + &markdown_at(summary, turns, 2)
}

/// A session's model line and turns, the turns' headings at `level` (a compare nests them).
pub(super) fn markdown_at(summary: &SessionSummary, turns: &[StoredTurn], level: usize) -> String {
    let h = "#".repeat(level);
    let mut md = format!(
        "Model: `{}` · host config `{}`\n\n",
        summary.host_config.model,
        &summary.host_hash[..summary.host_hash.len().min(12)]
    );
    for t in turns {
        md.push_str(&format!("{h} You\n\n{}\n\n{h} Assistant\n\n", t.user));
        for e in &t.events {
            push_event(&mut md, e);
        }
        md.push_str(&figures_line(&summary.host_config.model, &t.events));
        md.push_str("\n\n");
    }
    md
}

/// `*2 steps · 120 in / 8 out tokens · $0.000042 · first token 210 ms · 380 ms*` (nothing for a
/// turn recorded before x-rays existed).
fn figures_line(model: &str, events: &[TurnEvent]) -> String {
    let s = super::compare::summarize(model, events);
    if s.steps == 0 {
        return String::new();
    }
    let est = if s.tokens_estimated {
        " (estimated)"
    } else {
        ""
    };
    let cost = s
        .cost_usd
        .map_or("no price".to_owned(), |usd| format!("${usd:.6}"));
    let ms = |v: Option<u64>| v.map_or("-".to_owned(), |ms| format!("{ms} ms"));
    format!(
        "\n\n*{} step{} · {} in / {} out tokens{est} · {cost} · first token {} · {}*",
        s.steps,
        if s.steps == 1 { "" } else { "s" },
        s.input_tokens,
        s.output_tokens,
        ms(s.ttft_ms),
        ms(s.duration_ms)
    )
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

#[cfg(test)]
mod tests {
    use mcplab_protocol::xray::{StepCost, StepTokens, StepXray};

    use super::*;

    fn step(n: u32, input: u64, output: u64, usd: Option<f64>) -> TurnEvent {
        TurnEvent::StepXray {
            turn_id: "t".into(),
            xray: StepXray {
                step: n,
                model: "openai::gpt-4o-mini".into(),
                started_ms: 0,
                ttft_ms: Some(5),
                duration_ms: 10,
                tokens: StepTokens {
                    input_tokens: input,
                    output_tokens: output,
                    ..StepTokens::default()
                },
                cost: usd.map(|usd| StepCost {
                    usd,
                    estimated: false,
                    source: "s".into(),
                    date: "d".into(),
                }),
                exchanges: Vec::new(),
            },
        }
    }

    #[test]
    fn each_turn_ends_with_its_figures() {
        let timing = TurnEvent::TurnTiming {
            turn_id: "t".into(),
            duration_ms: 380,
            ttft_ms: Some(210),
        };
        let events = [
            step(1, 100, 5, Some(0.000018)),
            step(2, 120, 3, Some(0.0000198)),
            timing.clone(),
        ];
        assert_eq!(
            figures_line("m", &events),
            "\n\n*2 steps · 220 in / 8 out tokens · $0.000038 · first token 210 ms · 380 ms*"
        );
        let unpriced = [step(1, 1, 1, None), timing];
        assert!(figures_line("m", &unpriced).contains("· no price ·"));
        assert_eq!(figures_line("m", &[]), "", "turns from before the x-ray");
    }
}
