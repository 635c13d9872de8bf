//! The apps a server's tools link — MCP Apps views (`_meta.ui.resourceUri`, or the older
//! `_meta["ui/resourceUri"]`) and OpenAI widgets (`_meta["openai/outputTemplate"]`) — read
//! once per era by [`READ`] (reading a `ui://` resource calls no tool) so the hosts and
//! readiness sets can judge them, and [`scan`]: what their HTML asks of the host and which
//! origins it loads, beside the domains its CSP declares.

mod scan;

use std::collections::BTreeMap;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_mcp::{Connection, Listing, RequestOptions};
use serde_json::{Value, json};

use crate::options::CheckOptions;
use crate::recording::{ProbeError, Recording};
use crate::sets::Exercise;

pub(crate) use scan::{ExternalKind, allowed, csp, scan};

/// Most bytes of an app's HTML kept for the scan.
const MAX_HTML: usize = 2 * 1024 * 1024;

/// Which kinds of app a tool links.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Links {
    /// The MCP Apps view (`_meta.ui.resourceUri` or `_meta["ui/resourceUri"]`).
    pub mcp_app: Option<String>,
    /// The OpenAI widget (`_meta["openai/outputTemplate"]`).
    pub openai: Option<String>,
}

/// The apps a tool links.
pub(crate) fn links(tool: &Value) -> Links {
    let meta = tool.get("_meta");
    let s = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    Links {
        mcp_app: s(meta.and_then(|m| m.pointer("/ui/resourceUri")))
            .or_else(|| s(meta.and_then(|m| m.get("ui/resourceUri")))),
        openai: s(meta.and_then(|m| m.get("openai/outputTemplate"))),
    }
}

/// Whether the model may see and call the tool (MCP Apps `visibility` without `model`
/// hides it from the model: only its app calls it).
pub(crate) fn model_visible(tool: &Value) -> bool {
    match tool
        .pointer("/_meta/ui/visibility")
        .and_then(Value::as_array)
    {
        Some(v) => v.iter().any(|x| x == "model"),
        None => true,
    }
}

/// One app resource, as read.
#[derive(Debug, Clone)]
pub struct AppRead {
    pub uri: String,
    /// The tools that link it, in listing order.
    pub tools: Vec<String>,
    /// Linked as an MCP Apps view by at least one tool.
    pub mcp_app: bool,
    /// Linked as an OpenAI widget by at least one tool.
    pub openai: bool,
    pub outcome: Result<AppContent, ProbeError>,
}

/// What `resources/read` gave for an app.
#[derive(Debug, Clone, Default)]
pub struct AppContent {
    pub mime: String,
    /// The HTML (empty when it came as a blob), cut at [`MAX_HTML`] bytes.
    pub html: String,
    /// The resource's `_meta`: the listed resource's, with the content's over it.
    pub meta: Value,
}

impl AppRead {
    /// The HTML, when it was read.
    pub fn content(&self) -> Option<&AppContent> {
        self.outcome.as_ref().ok()
    }
}

/// The apps the recording's tools link, in listing order (not read yet).
pub(crate) fn linked(rec: &Recording) -> Vec<AppRead> {
    let mut by_uri: BTreeMap<String, usize> = BTreeMap::new();
    let mut out: Vec<AppRead> = Vec::new();
    for tool in rec.tools() {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let l = links(tool);
        for (uri, is_mcp) in [(l.mcp_app, true), (l.openai, false)] {
            let Some(uri) = uri else { continue };
            let i = *by_uri.entry(uri.clone()).or_insert_with(|| {
                out.push(AppRead {
                    uri: uri.clone(),
                    tools: Vec::new(),
                    mcp_app: false,
                    openai: false,
                    outcome: Err(ProbeError::Other("not read".into())),
                });
                out.len() - 1
            });
            let app = &mut out[i];
            if !app.tools.iter().any(|t| t == name) {
                app.tools.push(name.to_owned());
            }
            if is_mcp {
                app.mcp_app = true;
            } else {
                app.openai = true;
            }
        }
    }
    out
}

/// Reads every app the tools link (once per era, whichever set asks first).
pub(crate) struct ReadApps;

pub(crate) static READ: ReadApps = ReadApps;

impl Exercise for ReadApps {
    fn exercise<'a>(
        &'a self,
        conn: &'a Connection,
        rec: &'a mut Recording,
        opts: &'a CheckOptions,
    ) -> BoxFuture<'a, ()> {
        read_all(conn, rec, opts).boxed()
    }
}

async fn read_all(conn: &Connection, rec: &mut Recording, opts: &CheckOptions) {
    if rec.apps.is_some() {
        return;
    }
    let mut apps = linked(rec);
    for app in &mut apps {
        let listed_meta = rec
            .items(Listing::Resources)
            .iter()
            .find(|r| r.get("uri").and_then(Value::as_str) == Some(app.uri.as_str()))
            .and_then(|r| r.get("_meta").cloned());
        let ropts = RequestOptions {
            timeout: opts.timeout,
            bypass_cache: true,
            ..RequestOptions::default()
        };
        let read = conn
            .request("resources/read", Some(json!({ "uri": app.uri })), ropts)
            .await;
        app.outcome = match read {
            Ok(result) => Ok(content(&result, listed_meta)),
            Err(e) => Err(ProbeError::from_mcp(&e)),
        };
        let said = match &app.outcome {
            Ok(c) => format!("{} bytes of {}", c.html.len(), c.mime),
            Err(e) => format!("failed: {e}"),
        };
        rec.exercised
            .push(format!("resources/read {} (app): {said}", app.uri));
    }
    rec.apps = Some(apps);
}

fn content(result: &Value, listed_meta: Option<Value>) -> AppContent {
    let first = result
        .pointer("/contents/0")
        .cloned()
        .unwrap_or(Value::Null);
    let mut html = first
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if html.len() > MAX_HTML {
        let mut cut = MAX_HTML;
        while !html.is_char_boundary(cut) {
            cut -= 1;
        }
        html.truncate(cut);
    }
    let mut meta = listed_meta.unwrap_or(Value::Null);
    if let Some(over) = first.get("_meta").and_then(Value::as_object) {
        if !meta.is_object() {
            meta = json!({});
        }
        for (k, v) in over {
            meta[k] = v.clone();
        }
    }
    AppContent {
        mime: first
            .get("mimeType")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        html,
        meta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_read_every_spelling() {
        let t = json!({"name": "a", "_meta": {"ui": {"resourceUri": "ui://a"}, "openai/outputTemplate": "ui://b"}});
        assert_eq!(
            links(&t),
            Links {
                mcp_app: Some("ui://a".into()),
                openai: Some("ui://b".into())
            }
        );
        let old = json!({"name": "a", "_meta": {"ui/resourceUri": "ui://c"}});
        assert_eq!(links(&old).mcp_app.as_deref(), Some("ui://c"));
        assert!(!model_visible(
            &json!({"_meta": {"ui": {"visibility": ["app"]}}})
        ));
        assert!(model_visible(&json!({"name": "x"})));
    }

    #[test]
    fn content_takes_the_content_meta_over_the_listed_one() {
        let r = json!({"contents": [{"uri": "ui://a", "mimeType": "text/html;profile=mcp-app", "text": "<p>", "_meta": {"ui": {"csp": {"connectDomains": ["https://x"]}}}}]});
        let c = content(&r, Some(json!({"ui": {"prefersBorder": true}, "k": 1})));
        assert_eq!(c.html, "<p>");
        assert_eq!(c.meta["k"], 1);
        assert_eq!(c.meta["ui"]["csp"]["connectDomains"][0], "https://x");
    }
}
