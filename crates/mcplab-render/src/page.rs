//! One render in one page target: emulate the device (viewport, touch, colour scheme, locale,
//! time zone), open the render URL, await the page's `window.__mcplabRenderReport`, then
//! screenshot the `[data-testid="render-app"]` box (the viewport when it is missing). Console
//! errors and uncaught exceptions of the top document become `report.pageErrors`; the app's own
//! errors are the page's business (`appErrors`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::DeviceKind;
use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::cdp::{Cdp, CdpEvent};
use super::{RenderError, Rendered};

/// Deadline of ordinary DevTools commands.
const COMMAND: Duration = Duration::from_secs(10);
/// How long the page may take to publish `__mcplabRenderReport` at all once loaded (at most;
/// less with a short render timeout).
const REPORT_APPEARS: Duration = Duration::from_secs(15);
/// Time on top of the render timeout for the page to load and the server to answer: the page
/// reports its own timeout first; this is the backstop.
const MARGIN: Duration = Duration::from_secs(15);
const APP_BOX: &str = r#"[data-testid="render-app"]"#;

pub(super) async fn render(
    cdp: &Cdp,
    url: &str,
    spec: &AppRenderSpec,
    timeout: Duration,
) -> Result<Rendered, RenderError> {
    let started = Instant::now();
    let budget = timeout + MARGIN;
    let appears = REPORT_APPEARS.min(timeout + Duration::from_secs(5));
    let events = cdp.take_events();
    let target = cdp
        .call(
            "Target.createTarget",
            json!({ "url": "about:blank" }),
            None,
            COMMAND,
        )
        .await?;
    let target_id = str_field(&target, "targetId", "Target.createTarget")?;
    let attached = cdp
        .call(
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
            None,
            COMMAND,
        )
        .await?;
    let session = str_field(&attached, "sessionId", "Target.attachToTarget")?;
    let page_errors: Arc<Mutex<Vec<Value>>> = Arc::default();
    let collector = events.map(|rx| {
        tokio::spawn(collect_page_errors(
            rx,
            session.clone(),
            target_id.clone(),
            page_errors.clone(),
        ))
    });
    let result = async {
        let s = Some(session.as_str());
        cdp.call("Runtime.enable", json!({}), s, COMMAND).await?;
        cdp.call("Page.enable", json!({}), s, COMMAND).await?;
        emulate(cdp, &session, spec).await?;
        let nav = cdp
            .call("Page.navigate", json!({ "url": url }), s, COMMAND)
            .await?;
        if let Some(err) = nav.get("errorText").and_then(Value::as_str) {
            return Err(RenderError::Navigation(err.to_owned()));
        }
        let remaining = budget.saturating_sub(started.elapsed());
        let mut report = await_report(cdp, &session, appears, remaining).await?;
        // Let the app paint what it last rendered before the picture is taken.
        let _ = evaluate(
            cdp,
            &session,
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
            COMMAND,
        )
        .await;
        let png = screenshot(cdp, &session, spec).await?;
        let errors = page_errors.lock().clone();
        match report.as_object_mut() {
            Some(obj) => {
                obj.insert("pageErrors".into(), Value::Array(errors));
            }
            None => {
                report = json!({ "error": "the render page's report is not an object",
                                 "raw": report, "pageErrors": errors });
            }
        }
        Ok(Rendered { png, report })
    }
    .await;
    if let Some(c) = collector {
        c.abort();
    }
    result
}

fn str_field(v: &Value, key: &str, method: &str) -> Result<String, RenderError> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| RenderError::Cdp(format!("`{method}` returned no {key}")))
}

/// Applies the viewport and the emulated device. The viewport and touch are required; colour
/// scheme, locale and time zone are best effort (an unknown time zone must not fail a render:
/// the host context the page sends carries the same values).
async fn emulate(cdp: &Cdp, session: &str, spec: &AppRenderSpec) -> Result<(), RenderError> {
    let s = Some(session);
    let c = &spec.conditions;
    let mobile = matches!(c.device_type, DeviceKind::Mobile | DeviceKind::Tablet);
    let metrics = json!({
        "width": spec.width,
        "height": spec.height,
        "deviceScaleFactor": 1,
        "mobile": mobile,
    });
    cdp.call("Emulation.setDeviceMetricsOverride", metrics, s, COMMAND)
        .await?;
    if c.touch {
        let touch = json!({ "enabled": true, "maxTouchPoints": 5 });
        cdp.call("Emulation.setTouchEmulationEnabled", touch, s, COMMAND)
            .await?;
    }
    let best_effort = [
        (
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-color-scheme", "value": c.theme }] }),
        ),
        ("Emulation.setLocaleOverride", json!({ "locale": c.locale })),
        (
            "Emulation.setTimezoneOverride",
            json!({ "timezoneId": c.time_zone }),
        ),
    ];
    for (method, params) in best_effort {
        let _ = cdp.call(method, params, s, COMMAND).await;
    }
    Ok(())
}

/// `Runtime.evaluate` with `awaitPromise` and `returnByValue`; a thrown error is an `Err`.
async fn evaluate(
    cdp: &Cdp,
    session: &str,
    expression: &str,
    timeout: Duration,
) -> Result<Value, RenderError> {
    let r = cdp
        .call(
            "Runtime.evaluate",
            json!({
                "expression": expression,
                "awaitPromise": true,
                "returnByValue": true,
            }),
            Some(session),
            timeout,
        )
        .await?;
    if let Some(ex) = r.get("exceptionDetails") {
        return Err(RenderError::Page(exception_text(ex)));
    }
    Ok(r["result"].get("value").cloned().unwrap_or(Value::Null))
}

/// Waits for `__mcplabRenderReport` to appear (within `appears`), then for it to resolve, all
/// within `budget`.
async fn await_report(
    cdp: &Cdp,
    session: &str,
    appears: Duration,
    budget: Duration,
) -> Result<Value, RenderError> {
    let started = Instant::now();
    let appears_ms = appears.min(budget).as_millis();
    let expression = format!(
        "(async () => {{ const end = Date.now() + {appears_ms}; \
         while (!window.__mcplabRenderReport) {{ \
           if (Date.now() > end) return {{ __mcplabNoReport: true }}; \
           await new Promise(r => setTimeout(r, 50)); }} \
         return await window.__mcplabRenderReport; }})()"
    );
    loop {
        let remaining = budget.saturating_sub(started.elapsed());
        match evaluate(cdp, session, &expression, remaining).await {
            Ok(v) if v.get("__mcplabNoReport").is_some() => {
                return Err(RenderError::NoReport {
                    secs: appears.min(budget).as_secs_f64(),
                });
            }
            Ok(v) => return Ok(v),
            Err(RenderError::CommandTimeout { .. }) => {
                return Err(RenderError::ReportTimeout {
                    secs: budget.as_secs_f64(),
                });
            }
            // The document was replaced under the evaluation (a late redirect or reload):
            // ask the new one, while time remains.
            Err(RenderError::Command { .. }) if remaining > Duration::from_millis(500) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// A PNG of the app box (clipped to the viewport), or of the viewport when there is no box.
async fn screenshot(
    cdp: &Cdp,
    session: &str,
    spec: &AppRenderSpec,
) -> Result<Vec<u8>, RenderError> {
    let find_box = format!(
        "(() => {{ const el = document.querySelector('{APP_BOX}'); if (!el) return null; \
         const r = el.getBoundingClientRect(); \
         return {{ x: r.left, y: r.top, width: r.width, height: r.height }}; }})()"
    );
    let rect = evaluate(cdp, session, &find_box, COMMAND).await?;
    let mut params = json!({ "format": "png", "captureBeyondViewport": false });
    if let Some(clip) = clip(&rect, spec.width, spec.height) {
        params["clip"] = clip;
    }
    let shot = cdp
        .call(
            "Page.captureScreenshot",
            params,
            Some(session),
            Duration::from_secs(30),
        )
        .await?;
    let data = shot
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| RenderError::Cdp("`Page.captureScreenshot` returned no data".into()))?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| RenderError::Cdp(format!("the screenshot is not base64: {e}")))
}

/// The screenshot clip for the app box `rect` (viewport coordinates) in a `width`×`height`
/// viewport: whole CSS pixels, inside the viewport; `None` (the viewport) when there is no
/// visible box.
fn clip(rect: &Value, width: u32, height: u32) -> Option<Value> {
    let n = |k: &str| rect.get(k).and_then(Value::as_f64);
    let (x, y, w, h) = (n("x")?, n("y")?, n("width")?, n("height")?);
    let left = x.max(0.0).round();
    let top = y.max(0.0).round();
    let right = (x + w).min(f64::from(width)).round();
    let bottom = (y + h).min(f64::from(height)).round();
    if right - left < 1.0 || bottom - top < 1.0 {
        return None;
    }
    Some(json!({
        "x": left, "y": top, "width": right - left, "height": bottom - top, "scale": 1,
    }))
}

fn exception_text(ex: &Value) -> String {
    ex.get("exception")
        .and_then(|e| e.get("description").or_else(|| e.get("value")))
        .and_then(Value::as_str)
        .or_else(|| ex.get("text").and_then(Value::as_str))
        .unwrap_or("unknown error")
        .to_owned()
}

/// Records console errors and uncaught exceptions whose execution context is the top
/// document's (the frame whose id is the target's), not the app iframes'.
async fn collect_page_errors(
    mut rx: mpsc::UnboundedReceiver<CdpEvent>,
    session: String,
    main_frame: String,
    into: Arc<Mutex<Vec<Value>>>,
) {
    let mut top_contexts = std::collections::HashSet::new();
    while let Some(ev) = rx.recv().await {
        if ev.session_id.as_deref() != Some(session.as_str()) {
            continue;
        }
        let p = &ev.params;
        let entry = match ev.method.as_str() {
            "Runtime.executionContextCreated" => {
                let ctx = &p["context"];
                if ctx["auxData"]["frameId"].as_str() == Some(main_frame.as_str())
                    && let Some(id) = ctx["id"].as_i64()
                {
                    top_contexts.insert(id);
                }
                continue;
            }
            "Runtime.exceptionThrown" => {
                let ex = &p["exceptionDetails"];
                if !ex["executionContextId"]
                    .as_i64()
                    .is_some_and(|id| top_contexts.contains(&id))
                {
                    continue;
                }
                let mut e = json!({ "kind": "exception", "message": exception_text(ex) });
                add_location(&mut e, ex.get("url"), ex.get("lineNumber"));
                e
            }
            "Runtime.consoleAPICalled" if p["type"] == "error" => {
                if !p["executionContextId"]
                    .as_i64()
                    .is_some_and(|id| top_contexts.contains(&id))
                {
                    continue;
                }
                let message = p["args"]
                    .as_array()
                    .map(|args| {
                        args.iter()
                            .map(|a| match &a["value"] {
                                Value::String(s) => s.clone(),
                                Value::Null => a["description"].as_str().unwrap_or("").to_owned(),
                                v => v.to_string(),
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default();
                let frame = &p["stackTrace"]["callFrames"][0];
                let mut e = json!({ "kind": "console", "message": message });
                add_location(&mut e, frame.get("url"), frame.get("lineNumber"));
                e
            }
            _ => continue,
        };
        into.lock().push(entry);
    }
}

/// Adds `source` and a 1-based `line` when known (CDP lines are 0-based).
fn add_location(entry: &mut Value, url: Option<&Value>, line: Option<&Value>) {
    if let Some(url) = url.and_then(Value::as_str).filter(|u| !u.is_empty()) {
        entry["source"] = json!(url);
        if let Some(l) = line.and_then(Value::as_i64) {
            entry["line"] = json!(l + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clip_is_the_app_box_in_whole_pixels_inside_the_viewport() {
        let r = json!({"x": 0.4, "y": 10.0, "width": 429.8, "height": 2000.0});
        assert_eq!(
            clip(&r, 430, 932),
            Some(json!({"x": 0.0, "y": 10.0, "width": 430.0, "height": 922.0, "scale": 1}))
        );
        assert_eq!(
            clip(&json!({"x": 0, "y": 0, "width": 0, "height": 0}), 430, 932),
            None
        );
        assert_eq!(clip(&Value::Null, 430, 932), None);
    }
}
