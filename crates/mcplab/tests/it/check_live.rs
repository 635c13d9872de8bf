//! `mcplab check --host` rendering apps live (issue 24 item 2, rule `host-app-live`): the real
//! binary renders each app of `tests/interop/rawsrv.py`'s `app-*` modes in real Chromium under
//! the host profile, without calling a tool, and what the widget did decides the app's verdict
//! beside the static scan (the "works" verdict is `hosts::live`'s unit test: each render here
//! costs a Chromium start, 8-15 s under load). Without Chromium the check says once that nothing was rendered and
//! keeps the static verdicts.

use serde_json::Value;

use super::check::{check, raw};

/// The reasons of `rule` for app `uri` under host `host`.
fn live_reasons<'a>(r: &'a Value, host: &str, uri: &str) -> Vec<&'a Value> {
    let h = r["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == host)
        .unwrap_or_else(|| panic!("no host {host}: {r}"));
    let item = h["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == uri)
        .unwrap_or_else(|| panic!("no app {uri} under {host}: {h}"));
    item["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["message"].as_str().unwrap().starts_with("rendered live"))
        .collect()
}

fn findings<'a>(r: &'a Value, rule: &str) -> Vec<&'a Value> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// VS Code offers apps no `ui/message`: the asker's request is refused live (degraded), the
/// thrower never initializes (blocked). Two renders, no tool called.
#[cfg(feature = "chromium-tests")]
#[tokio::test]
async fn apps_rendered_under_a_host_are_judged_by_what_they_did() {
    let (o, r) = check(&raw("app-asks app-throws"), &["--host", "vscode"]).await;
    assert_eq!(o.status.code(), Some(1), "the thrower is blocked: {r}");
    let asker = live_reasons(&r, "vscode", "ui://raw/asker.html");
    assert_eq!(asker.len(), 1, "{asker:?}");
    assert_eq!(asker[0]["verdict"], "degraded", "{asker:?}");
    let said = asker[0]["message"].as_str().unwrap();
    assert!(said.contains("refused `ui/message`"), "{said}");
    assert_eq!(asker[0]["field"], "appHost.hostCapabilities.message");
    let thrower = live_reasons(&r, "vscode", "ui://raw/thrower.html");
    assert_eq!(thrower.len(), 1, "{thrower:?}");
    assert_eq!(thrower[0]["verdict"], "blocked", "{thrower:?}");
    let said = thrower[0]["message"].as_str().unwrap();
    assert!(said.contains("did not initialize"), "{said}");
    assert!(said.contains("raw thrower fails at load"), "{said}");
    let live = findings(&r, "host-app-live");
    assert!(
        live.iter().any(|f| f["severity"] == "error"),
        "blocked is an error: {live:?}"
    );
    let exercised = r["eras"][0]["exercised"].to_string();
    assert!(
        exercised.contains("rendered ui://raw/asker.html as vscode"),
        "{exercised}"
    );
    assert!(
        !r["eras"][0]["exercised"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().starts_with("tools/call")),
        "no tool is called without --call: {exercised}"
    );
}

/// No Chromium: one info finding says nothing was rendered; the static verdicts stand.
#[tokio::test]
async fn without_chromium_the_check_says_it_rendered_nothing() {
    let flags = ["--host", "vscode", "--chromium", "/nonexistent/chromium"];
    let (o, r) = check(&raw("app-asks"), &flags).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    let live = findings(&r, "host-app-live");
    assert_eq!(live.len(), 1, "{live:?}");
    assert_eq!(live[0]["severity"], "info");
    let said = live[0]["message"].as_str().unwrap();
    assert!(said.starts_with("not rendered: no Chromium"), "{said}");
    assert!(live_reasons(&r, "vscode", "ui://raw/asker.html").is_empty());
    let (_, r) = check(&raw("app-asks"), &["--host", "vscode", "--no-render"]).await;
    assert!(findings(&r, "host-app-live").is_empty(), "{r}");
}

/// A tool links an app whose resource cannot be read: blocked in every host that shows apps
/// (`host-app-read`, an error), judged without rendering.
#[tokio::test]
async fn an_app_that_cannot_be_read_is_blocked() {
    let (o, r) = check(&raw("app-missing"), &["--host", "vscode", "--no-render"]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let read = findings(&r, "host-app-read");
    assert_eq!(read.len(), 1, "{r}");
    assert_eq!(read[0]["severity"], "error");
    assert!(
        read[0]["message"]
            .as_str()
            .unwrap()
            .contains("ui://raw/missing.html"),
        "{read:?}"
    );
}
