//! Turns a scripted step into a provider-neutral answer: the ordered pieces to send, the
//! finish reason and the usage. It owns the token accounting and the `max_tokens` truncation
//! that both wire encoders share; it must not know any wire format.

use std::time::Duration;

use super::{ScriptedCall, Step, Usage};

/// One unit of output; reasoning, text and argument fragments each count as one token.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Piece {
    Reasoning(String),
    Text(String),
    CallStart {
        index: usize,
        id: String,
        name: String,
    },
    CallArgs {
        index: usize,
        fragment: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Finish {
    Stop,
    ToolCalls,
    Length,
}

/// A content answer ready to encode.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Plan {
    pub pieces: Vec<Piece>,
    pub finish: Finish,
    pub usage: Usage,
}

/// A step with its wrappers peeled off.
pub(super) struct Resolved {
    /// `Reply`, `CallTools` or `Fail`.
    pub base: Step,
    pub cut_after: Option<usize>,
    pub delay: Option<Duration>,
}

/// Peel `CutOff` and `Slow`; nested wrappers combine: the smallest cut, the largest delay.
pub(super) fn resolve(step: Step) -> Resolved {
    let mut resolved = Resolved {
        base: step,
        cut_after: None,
        delay: None,
    };
    loop {
        match resolved.base {
            Step::CutOff { step, after_events } => {
                resolved.cut_after = Some(
                    resolved
                        .cut_after
                        .map_or(after_events, |n| n.min(after_events)),
                );
                resolved.base = *step;
            }
            Step::Slow { step, delay_ms } => {
                let delay = Duration::from_millis(delay_ms);
                resolved.delay = Some(resolved.delay.map_or(delay, |d| d.max(delay)));
                resolved.base = *step;
            }
            _ => return resolved,
        }
    }
}

impl Plan {
    /// Plan a `Reply` or `CallTools` step (`Fail` plans as an empty reply; callers answer it
    /// before planning).
    pub(super) fn new(step: &Step, input_tokens: u32, max_tokens: Option<u64>) -> Plan {
        let mut all = Vec::new();
        let mut calls = 0;
        match step {
            Step::Reply { text, reasoning } => {
                all.extend(reasoning.iter().cloned().map(Piece::Reasoning));
                all.extend(text.iter().cloned().map(Piece::Text));
            }
            Step::CallTools { text, calls: list } => {
                all.extend(text.iter().cloned().map(Piece::Text));
                for (index, call) in list.iter().enumerate() {
                    all.push(Piece::CallStart {
                        index,
                        id: call.id.clone(),
                        name: call.name.clone(),
                    });
                    all.extend(
                        fragments(call)
                            .into_iter()
                            .map(|fragment| Piece::CallArgs { index, fragment }),
                    );
                }
                calls = list.len();
            }
            _ => {}
        }

        let limit = max_tokens.unwrap_or(u64::MAX);
        let mut pieces = Vec::with_capacity(all.len());
        let mut usage = Usage {
            input_tokens,
            ..Usage::default()
        };
        let mut truncated = false;
        for piece in all {
            let counts = !matches!(piece, Piece::CallStart { .. });
            if counts && u64::from(usage.output_tokens) >= limit {
                truncated = true;
                break;
            }
            if counts {
                usage.output_tokens += 1;
            }
            if matches!(piece, Piece::Reasoning(_)) {
                usage.reasoning_tokens += 1;
            }
            pieces.push(piece);
        }
        // A call announced but cut before any argument is not sent either.
        if truncated && matches!(pieces.last(), Some(Piece::CallStart { .. })) {
            pieces.pop();
        }
        let finish = if truncated {
            Finish::Length
        } else if calls > 0 {
            Finish::ToolCalls
        } else {
            Finish::Stop
        };
        Plan {
            pieces,
            finish,
            usage,
        }
    }

    pub(super) fn reasoning(&self) -> String {
        self.pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Reasoning(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    pub(super) fn text(&self) -> String {
        self.pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// `(id, name, arguments as sent)` per call, in order.
    pub(super) fn calls(&self) -> Vec<(String, String, String)> {
        let mut calls: Vec<(String, String, String)> = Vec::new();
        for piece in &self.pieces {
            match piece {
                Piece::CallStart { id, name, .. } => {
                    calls.push((id.clone(), name.clone(), String::new()));
                }
                Piece::CallArgs { index, fragment } => {
                    if let Some(call) = calls.get_mut(*index) {
                        call.2.push_str(fragment);
                    }
                }
                _ => {}
            }
        }
        calls
    }
}

/// The serialized arguments split on character boundaries into `call.fragments` near-equal
/// pieces (at least one, at most one per character).
fn fragments(call: &ScriptedCall) -> Vec<String> {
    let json = call.arguments.to_string();
    let chars: Vec<char> = json.chars().collect();
    let count = call.fragments.clamp(1, chars.len().max(1));
    let (size, extra) = (chars.len() / count, chars.len() % count);
    let mut pieces = Vec::with_capacity(count);
    let mut start = 0;
    for i in 0..count {
        let end = start + size + usize::from(i < extra);
        pieces.push(chars[start..end].iter().collect());
        start = end;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn fragments_reassemble_and_respect_bounds() {
        let mut call = ScriptedCall::new("c", "f", json!({"city": "Zürich", "days": 3}));
        for n in [0, 1, 2, 5, 1000] {
            call.fragments = n;
            let pieces = fragments(&call);
            assert_eq!(pieces.concat(), call.arguments.to_string());
            assert_eq!(
                pieces.len(),
                n.clamp(1, call.arguments.to_string().chars().count())
            );
            assert!(pieces.iter().all(|p| !p.is_empty()));
        }
    }

    #[test]
    fn max_tokens_truncates_and_finishes_with_length() {
        let step = Step::CallTools {
            text: vec!["a".into(), "b".into()],
            calls: vec![ScriptedCall::new("c1", "f", json!({"x": 1}))],
        };
        let full = Plan::new(&step, 7, None);
        assert_eq!(full.finish, Finish::ToolCalls);
        assert_eq!(full.usage.output_tokens, 5);
        assert_eq!(full.usage.input_tokens, 7);

        let cut = Plan::new(&step, 7, Some(2));
        assert_eq!(cut.finish, Finish::Length);
        assert_eq!(cut.usage.output_tokens, 2);
        assert_eq!(cut.text(), "ab");
        assert!(
            cut.calls().is_empty(),
            "a call with no argument sent is dropped"
        );
    }

    #[test]
    fn wrappers_combine() {
        let step = Step::reply(["x"]).slow(5).cut_off(3).cut_off(9).slow(1);
        let resolved = resolve(step);
        assert_eq!(resolved.cut_after, Some(3));
        assert_eq!(resolved.delay, Some(Duration::from_millis(5)));
        assert_eq!(resolved.base, Step::reply(["x"]));
    }
}
