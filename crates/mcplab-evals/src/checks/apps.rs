//! The app checks, over the render reports of the calls in scope: `appRendered` (initialized,
//! no CSP violation, nothing thrown), `noConsoleErrors` (nothing logged with `console.error`)
//! and `maxRenderMs` (ready in time). Each fails closed when no app of the scope was rendered.

use crate::suite::AppRenderedCheck;
use crate::trace::{AppRender, ToolCallTrace};

/// `appRendered`: every call of the tool (any call with a UI without one) has a render report,
/// and each initialized with no CSP violation and no error. Console errors do not count here.
pub(super) fn rendered(
    check: &AppRenderedCheck,
    calls: Vec<&ToolCallTrace>,
    renders: &[AppRender],
) -> (bool, String) {
    let ids: Vec<&str> = calls
        .iter()
        .filter(|c| check.tool.as_ref().is_none_or(|t| t == &c.tool))
        .map(|c| c.call_id.as_str())
        .collect();
    let in_scope = of_calls(&ids, renders);
    if let Some(tool) = &check.tool {
        if ids.is_empty() {
            return (false, format!("{tool} was not called"));
        }
        if let Some(missing) = ids
            .iter()
            .find(|id| !in_scope.iter().any(|r| &r.call_id == *id))
        {
            return (false, format!("no render report for {tool} call {missing}"));
        }
    } else if in_scope.is_empty() {
        return (false, "no app was rendered for any tool with a UI".into());
    }
    for r in &in_scope {
        if !r.initialized {
            return (false, format!("the app of {} did not initialize", r.tool));
        }
        if let Some(v) = r.csp_violations.first() {
            let n = r.csp_violations.len();
            let what = format!("the app of {} had {n} CSP violation(s), first: {v}", r.tool);
            return (false, what);
        }
        if let Some(e) = r.errors.first() {
            let n = r.errors.len();
            return (
                false,
                format!("the app of {} had {n} error(s), first: {e}", r.tool),
            );
        }
    }
    (true, format!("{} app(s) rendered cleanly", in_scope.len()))
}

/// `noConsoleErrors`: no app rendered in scope logged with `console.error`.
pub(super) fn no_console_errors(
    calls: Vec<&ToolCallTrace>,
    renders: &[AppRender],
) -> (bool, String) {
    judge_rendered(&calls, renders, |in_scope| {
        for r in in_scope {
            if let Some(e) = r.console_errors.first() {
                let n = r.console_errors.len();
                return (
                    false,
                    format!(
                        "the app of {} logged {n} console error(s), first: {e}",
                        r.tool
                    ),
                );
            }
        }
        (
            true,
            format!("{} app(s) logged no console error", in_scope.len()),
        )
    })
}

/// `maxRenderMs`: every app rendered in scope was ready within `max` ms of the render's start.
pub(super) fn max_render_ms(
    max: u64,
    calls: Vec<&ToolCallTrace>,
    renders: &[AppRender],
) -> (bool, String) {
    judge_rendered(&calls, renders, |in_scope| {
        let mut slowest = 0;
        for r in in_scope {
            match r.ready_ms {
                None => {
                    let why = format!(
                        "the app of {} never became ready (it did not initialize)",
                        r.tool
                    );
                    return (false, why);
                }
                Some(ms) if ms > max => {
                    return (
                        false,
                        format!("the app of {} was ready after {ms} ms > {max} ms", r.tool),
                    );
                }
                Some(ms) => slowest = slowest.max(ms),
            }
        }
        (
            true,
            format!(
                "{} app(s) ready within {slowest} ms ≤ {max} ms",
                in_scope.len()
            ),
        )
    })
}

/// `judge` over the render reports of `calls`; fails closed when no app of them was rendered.
fn judge_rendered(
    calls: &[&ToolCallTrace],
    renders: &[AppRender],
    judge: impl FnOnce(&[&AppRender]) -> (bool, String),
) -> (bool, String) {
    match rendered_in_scope(calls, renders) {
        Ok(in_scope) => judge(&in_scope),
        Err(why) => (false, why),
    }
}

/// The render reports of `calls`; `Err` says why there are none.
fn rendered_in_scope<'a>(
    calls: &[&ToolCallTrace],
    renders: &'a [AppRender],
) -> Result<Vec<&'a AppRender>, String> {
    let ids: Vec<&str> = calls.iter().map(|c| c.call_id.as_str()).collect();
    let in_scope = of_calls(&ids, renders);
    match in_scope.is_empty() {
        true => Err("no app was rendered: no call in scope has a tool with a UI".into()),
        false => Ok(in_scope),
    }
}

fn of_calls<'a>(ids: &[&str], renders: &'a [AppRender]) -> Vec<&'a AppRender> {
    renders
        .iter()
        .filter(|r| ids.contains(&r.call_id.as_str()))
        .collect()
}
