//! Eval iterations and chat turns as OpenTelemetry spans, following the GenAI semantic
//! conventions: an iteration is an `invoke_agent <case>` span, each of its turns a child
//! `chat <model>` span (a chat turn is that span alone), each tool call a child
//! `execute_tool <tool>` span of its turn. `gen_ai.*` attributes carry the operation, model,
//! provider and tokens; `mcplab.*` ones the cost, the verdict and where the span came from.
//! Pure: the caller gives the end time; traces record durations, not instants, so starts are
//! laid out from them (turns end to end, a turn's calls end to end after its first model step).
//! Every string from a server or a model is cut to [`MAX_VALUE_BYTES`], so a span's size is
//! bounded by what this module writes.

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use mcplab_evals::run::{IterationRecord, model_and_host};
use mcplab_evals::trace::{Trace, TurnEnd, TurnTrace};
use mcplab_protocol::evals::Outcome;
use opentelemetry::trace::{SpanContext, SpanId, SpanKind, Status, TraceFlags, TraceState};
use opentelemetry::{InstrumentationScope, KeyValue, StringValue, Value};
use opentelemetry_sdk::trace::{IdGenerator, RandomIdGenerator, SpanData, SpanEvents, SpanLinks};

/// The longest attribute value written (bytes, cut at a character boundary).
pub const MAX_VALUE_BYTES: usize = 512;
/// At most this many failure reasons ride on an iteration span.
const MAX_FAILURES: usize = 8;

/// A finished eval iteration, as the runner stored it.
pub struct IterationSpans<'a> {
    pub run_id: &'a str,
    pub suite_id: &'a str,
    pub record: &'a IterationRecord,
    /// `None` for an iteration that never ran (errored before its first turn).
    pub trace: Option<&'a Trace>,
    pub ended: SystemTime,
}

/// A finished chat turn.
pub struct ChatTurnSpans<'a> {
    pub session_id: &'a str,
    pub turn_id: &'a str,
    /// `provider::model`.
    pub model: &'a str,
    pub turn: &'a TurnTrace,
    pub cost_usd: Option<f64>,
    pub ended: SystemTime,
}

/// The spans of one iteration, root first.
pub fn iteration_spans(it: &IterationSpans<'_>) -> Vec<SpanData> {
    let ids = RandomIdGenerator::default();
    let trace_id = ids.new_trace_id();
    let (model, host) = model_and_host(&it.record.unit.model);
    let turns = it.trace.map_or(&[][..], |t| t.turns.as_slice());
    let total: u64 = turns.iter().map(|t| t.latency_ms).sum();
    let total = total.max(it.record.metrics.latency_ms);
    let start = it.ended - Duration::from_millis(total);
    let case = &it.record.unit.case_id;
    let m = &it.record.metrics;
    let mut attrs = vec![
        kv("gen_ai.operation.name", "invoke_agent"),
        kv("gen_ai.agent.name", cut(case)),
        KeyValue::new("gen_ai.usage.input_tokens", m.input_tokens as i64),
        KeyValue::new("gen_ai.usage.output_tokens", m.output_tokens as i64),
        kv("mcplab.eval.run_id", it.run_id.to_owned()),
        kv("mcplab.eval.suite_id", cut(it.suite_id)),
        kv("mcplab.eval.case_id", cut(case)),
        KeyValue::new("mcplab.eval.iteration", i64::from(it.record.unit.iteration)),
        kv("mcplab.eval.outcome", it.record.outcome.as_str()),
    ];
    attrs.extend(model_attrs(model));
    if let Some(host) = host {
        attrs.push(kv("mcplab.eval.host", cut(host)));
    }
    if let Some(cost) = m.cost_usd {
        attrs.push(KeyValue::new("mcplab.cost_usd", cost));
    }
    if !it.record.failures.is_empty() {
        let reasons: Vec<StringValue> = it
            .record
            .failures
            .iter()
            .take(MAX_FAILURES)
            .map(|f| StringValue::from(cut(f)))
            .collect();
        attrs.push(KeyValue::new(
            "mcplab.eval.failures",
            Value::Array(reasons.into()),
        ));
    }
    let status = match &it.record.outcome {
        Outcome::Errored { reason } => Status::error(cut(reason)),
        _ => Status::Unset,
    };
    let root = ids.new_span_id();
    let mut spans = vec![span(
        (trace_id, root, SpanId::INVALID),
        format!("invoke_agent {}", cut(case)),
        SpanKind::Internal,
        (start, it.ended),
        attrs,
        status,
    )];
    let mut at = start;
    for turn in turns {
        let end = at + Duration::from_millis(turn.latency_ms);
        let turn_id = ids.new_span_id();
        let context = TurnContext {
            trace_id,
            span_id: turn_id,
            parent: root,
            model,
            extra: Vec::new(),
        };
        spans.extend(turn_spans(&ids, &context, turn, (at, end)));
        at = end;
    }
    spans
}

/// The spans of one chat turn, its own span first.
pub fn chat_turn_spans(turn: &ChatTurnSpans<'_>) -> Vec<SpanData> {
    let ids = RandomIdGenerator::default();
    let start = turn.ended - Duration::from_millis(turn.turn.latency_ms);
    let mut extra = vec![
        kv("mcplab.chat.session_id", cut(turn.session_id)),
        kv("mcplab.chat.turn_id", cut(turn.turn_id)),
    ];
    if let Some(cost) = turn.cost_usd {
        extra.push(KeyValue::new("mcplab.cost_usd", cost));
    }
    let context = TurnContext {
        trace_id: ids.new_trace_id(),
        span_id: ids.new_span_id(),
        parent: SpanId::INVALID,
        model: turn.model,
        extra,
    };
    turn_spans(&ids, &context, turn.turn, (start, turn.ended))
}

struct TurnContext<'a> {
    trace_id: opentelemetry::trace::TraceId,
    span_id: SpanId,
    parent: SpanId,
    model: &'a str,
    extra: Vec<KeyValue>,
}

/// A `chat <model>` span and an `execute_tool` child per call.
fn turn_spans(
    ids: &RandomIdGenerator,
    ctx: &TurnContext<'_>,
    turn: &TurnTrace,
    (start, end): (SystemTime, SystemTime),
) -> Vec<SpanData> {
    let (_, model) = provider_and_model(ctx.model);
    let mut attrs = vec![
        kv("gen_ai.operation.name", "chat"),
        KeyValue::new("gen_ai.usage.input_tokens", turn.usage.input_tokens as i64),
        KeyValue::new(
            "gen_ai.usage.output_tokens",
            turn.usage.output_tokens as i64,
        ),
        KeyValue::new("mcplab.turn.steps", i64::from(turn.steps)),
        KeyValue::new("mcplab.turn.llm_ms", turn.llm_ms as i64),
    ];
    attrs.extend(model_attrs(ctx.model));
    attrs.extend(ctx.extra.iter().cloned());
    let status = match &turn.end {
        TurnEnd::Finished { reason } => {
            let reason = serde_name(reason);
            attrs.push(KeyValue::new(
                "gen_ai.response.finish_reasons",
                Value::Array(vec![StringValue::from(reason)].into()),
            ));
            Status::Unset
        }
        TurnEnd::Failed {
            error_kind,
            message,
        } => {
            attrs.push(kv("error.type", serde_name(error_kind)));
            Status::error(cut(message))
        }
        TurnEnd::Cancelled => cancelled(&mut attrs, "cancelled"),
        TurnEnd::TimedOut => cancelled(&mut attrs, "timed_out"),
        TurnEnd::Unfinished => cancelled(&mut attrs, "unfinished"),
    };
    let mut spans = vec![span(
        (ctx.trace_id, ctx.span_id, ctx.parent),
        format!("chat {}", cut(model)),
        SpanKind::Client,
        (start, end),
        attrs,
        status,
    )];
    let first_step = Duration::from_millis(turn.llm_ms / u64::from(turn.steps.max(1)));
    let mut at = (start + first_step).min(end);
    for call in &turn.tool_calls {
        let call_end = (at + Duration::from_millis(call.duration_ms)).min(end);
        let mut attrs = vec![
            kv("gen_ai.operation.name", "execute_tool"),
            kv("gen_ai.tool.name", cut(&call.tool)),
            kv("gen_ai.tool.call.id", cut(&call.call_id)),
            kv("gen_ai.tool.type", "function"),
            kv("mcp.method.name", "tools/call"),
            kv("mcplab.mcp.server", cut(&call.server)),
        ];
        let status = match (&call.error, call.is_error) {
            (Some(error), _) => {
                attrs.push(kv("error.type", "mcp_error"));
                Status::error(cut(error))
            }
            (None, true) => {
                attrs.push(kv("error.type", "tool_error"));
                Status::error("the tool answered isError")
            }
            (None, false) => Status::Unset,
        };
        spans.push(span(
            (ctx.trace_id, ids.new_span_id(), ctx.span_id),
            format!("execute_tool {}", cut(&call.tool)),
            SpanKind::Internal,
            (at, call_end),
            attrs,
            status,
        ));
        at = call_end;
    }
    spans
}

fn cancelled(attrs: &mut Vec<KeyValue>, why: &'static str) -> Status {
    attrs.push(kv("error.type", why));
    Status::error(why)
}

/// `gen_ai.provider.name` and `gen_ai.request.model` of `provider::model`.
fn model_attrs(label: &str) -> Vec<KeyValue> {
    let (provider, model) = provider_and_model(label);
    let mut attrs = vec![kv("gen_ai.request.model", cut(model))];
    if let Some(provider) = provider {
        let name = match provider {
            "gemini" => "gcp.gemini",
            "azure" => "azure.ai.openai",
            "bedrock" => "aws.bedrock",
            other => other,
        };
        attrs.push(kv("gen_ai.provider.name", cut(name)));
    }
    attrs
}

fn provider_and_model(label: &str) -> (Option<&str>, &str) {
    match label.split_once("::") {
        Some((provider, model)) => (Some(provider), model),
        None => (None, label),
    }
}

/// The wire name of a serde enum value (`completed`, `rate_limit`, …).
fn serde_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "unknown".to_owned(),
    }
}

fn kv(key: &'static str, value: impl Into<Cow<'static, str>>) -> KeyValue {
    KeyValue::new(key, Value::String(StringValue::from(value.into())))
}

/// `text` cut to [`MAX_VALUE_BYTES`] at a character boundary.
fn cut(text: &str) -> String {
    if text.len() <= MAX_VALUE_BYTES {
        return text.to_owned();
    }
    let mut end = MAX_VALUE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

fn span(
    (trace_id, span_id, parent): (opentelemetry::trace::TraceId, SpanId, SpanId),
    name: String,
    kind: SpanKind,
    (start, end): (SystemTime, SystemTime),
    attributes: Vec<KeyValue>,
    status: Status,
) -> SpanData {
    SpanData {
        span_context: SpanContext::new(
            trace_id,
            span_id,
            TraceFlags::SAMPLED,
            false,
            TraceState::default(),
        ),
        parent_span_id: parent,
        parent_span_is_remote: false,
        span_kind: kind,
        name: Cow::Owned(name),
        start_time: start,
        end_time: end.max(start),
        attributes,
        dropped_attributes_count: 0,
        events: SpanEvents::default(),
        links: SpanLinks::default(),
        status,
        instrumentation_scope: scope(),
    }
}

fn scope() -> InstrumentationScope {
    InstrumentationScope::builder("mcplab")
        .with_version(env!("CARGO_PKG_VERSION"))
        .build()
}

/// What a span weighs in the export queue: its name and attributes (the rest is fixed).
pub fn weight(span: &SpanData) -> usize {
    let attrs: usize = span
        .attributes
        .iter()
        .map(|kv| kv.key.as_str().len() + value_len(&kv.value))
        .sum();
    128 + span.name.len() + attrs
}

fn value_len(value: &Value) -> usize {
    match value {
        Value::String(s) => s.as_str().len(),
        Value::Array(opentelemetry::Array::String(items)) => {
            items.iter().map(|s| s.as_str().len()).sum()
        }
        _ => 8,
    }
}
