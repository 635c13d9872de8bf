//! The rules no other test names, each against a raw server written for it: a case file of
//! `tests/interop/rulesrv.py --case` (tools, how their calls are answered, app resources, how
//! the 2026-07-28 probe is answered) that breaks exactly that rule, and a server that keeps it
//! (`rulesrv.py clean`, or the same case without the breaking part). One check run judges
//! several rules, so each test runs few checks. [`every_rule_is_named_by_a_test`] keeps it so:
//! it fails when a rule of the catalog is named by no test.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use super::check::{check_in_dir, reported};
use super::check_wire::RawHttp;
use super::peer_support::repo;

/// A raw server's case file in `dir`, and its stdio command line.
fn case(dir: &Path, name: &str, case: &Value) -> String {
    let file = dir.join(format!("{name}.json"));
    std::fs::write(&file, case.to_string()).unwrap();
    let script = repo().join("tests/interop/rulesrv.py");
    format!("python3 {} --case={}", script.display(), file.display())
}

/// `rulesrv.py MODES` as a stdio command line.
fn modes(modes: &str) -> String {
    let script = repo().join("tests/interop/rulesrv.py");
    format!("python3 {} {modes}", script.display())
}

/// `mcplab check --json ARGS` with `data` as its data directory: its exit and report.
async fn check_in(data: &Path, args: &[&str]) -> (Output, Value) {
    reported(check_in_dir(90, data, args).await)
}

/// The findings of `rule`: (severity, message).
fn of(r: &Value, rule: &str) -> Vec<(String, String)> {
    r["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings in {r}"))
        .iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Asserts `rule` fired at `severity` with a message that contains `about`.
#[track_caller]
fn fired(r: &Value, rule: &str, severity: &str, about: &str) {
    let found = of(r, rule);
    assert!(
        found
            .iter()
            .any(|(s, m)| s == severity && m.contains(about)),
        "{rule}: expected a {severity} about {about:?}, got {found:?}"
    );
}

/// Asserts none of `rules` fired (at any severity).
#[track_caller]
fn quiet(r: &Value, rules: &[&str]) {
    for rule in rules {
        let found = of(r, rule);
        assert!(
            found.is_empty(),
            "{rule} fired on a server that keeps it: {found:?}"
        );
    }
}

const RO: fn() -> Value =
    || json!({"readOnlyHint": true, "destructiveHint": false, "openWorldHint": false});

/// A tool that keeps every directory rule but the ones its fields break.
fn tool(name: &str, extra: Value) -> Value {
    let mut t = json!({
        "name": name,
        "title": name,
        "description": format!("Does {name} for the user's notes; use it when asked to."),
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
        "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
        "annotations": RO(),
    });
    for (k, v) in extra.as_object().unwrap() {
        if v.is_null() {
            t.as_object_mut().unwrap().remove(k);
        } else {
            t[k] = v.clone();
        }
    }
    t
}

/// Spec and fuzz: an invalid outputSchema, a 2026-07-28 probe answered with another id, a
/// call answered with neither result nor error or with a result that is not an object, bad
/// arguments answered -32603.
#[tokio::test]
async fn spec_and_fuzz_rules_each_caught_and_quiet_on_a_good_server() {
    let dir = tempfile::tempdir().unwrap();
    let broken = json!({
        "tools": [
            // Not read-only: listed, never called (its results would also break structured-content).
            tool("bad_out", json!({"outputSchema": {"type": "string"}, "annotations": null})),
            tool("no_answer", json!({"outputSchema": null})),
            tool("internal", json!({"outputSchema": null})),
            tool("number", json!({"outputSchema": null})),
        ],
        "answers": {
            "no_answer": {"raw": {}},
            "number": {"result": 5},
            "internal": {"error": {"code": -32603, "message": "internal error"}},
        },
        "discover": {"errorId": "server-error"},
    });
    let args = ["--fuzz", "1", "--timeout", "10"];
    let mut all = vec!["--stdio"];
    let srv = case(dir.path(), "broken", &broken);
    all.push(&srv);
    all.extend(args);
    let (o, r) = check_in(dir.path(), &all).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    fired(
        &r,
        "output-schema",
        "error",
        "`bad_out`: outputSchema has `type: \"string\"`",
    );
    fired(&r, "probe-answer", "warning", "id \"server-error\"");
    fired(&r, "fuzz-protocol", "error", "tool `no_answer`");
    fired(
        &r,
        "fuzz-protocol",
        "error",
        "the result is 5, not a CallToolResult",
    );
    fired(&r, "fuzz-error-kind", "warning", "tool `internal`");
    assert!(
        of(&r, "fuzz-error-kind")
            .iter()
            .all(|(_, m)| m.contains("-32603")),
        "{r}"
    );

    let good = modes("clean");
    let (o, r) = check_in(dir.path(), &["--stdio", &good, "--fuzz", "2"]).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    quiet(
        &r,
        &[
            "output-schema",
            "probe-answer",
            "fuzz-protocol",
            "fuzz-error-kind",
            "client-schema",
        ],
    );
}

/// Fuzzing a streamable HTTP server whose process dies on a long string: the endpoint going
/// away is a crash, with the input that did it, and fuzzing stops (nothing to start again).
#[tokio::test]
async fn fuzzing_finds_an_http_endpoint_that_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let http = RawHttp::start("http", "fuzz-crash").await;
    let url = http.url("/mcp");
    let args = [
        "--url",
        &url,
        "--fuzz",
        "12",
        "--seed",
        "3",
        "--timeout",
        "10",
    ];
    let (o, r) = check_in(dir.path(), &args).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let crashes = of(&r, "fuzz-crash");
    assert_eq!(crashes.len(), 1, "{r}");
    let (severity, message) = &crashes[0];
    assert_eq!(severity, "error");
    assert!(
        message.contains("tool `lookup`") && message.contains(&url),
        "{message}"
    );
    let long = message
        .split("… (")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok());
    assert!(
        long.is_some_and(|n| n > 1000),
        "the input that did it: {message}"
    );
    let exercised = r["eras"][0]["exercised"].to_string();
    assert!(exercised.contains("fuzzing stopped"), "{exercised}");
}

/// Two user host profiles: `modern` asks for 2026-07-28, `textonly` never shows
/// structuredContent to the model.
fn user_profiles(data: &Path) {
    std::fs::create_dir_all(data.join("hosts")).unwrap();
    let modern = json!({"name": "modern", "client": {"protocol": "2026-07-28"}});
    let textonly = json!({"name": "textonly", "toolResults": {"structuredContent": "never"}});
    std::fs::write(data.join("hosts/modern.json"), modern.to_string()).unwrap();
    std::fs::write(data.join("hosts/textonly.json"), textonly.to_string()).unwrap();
}

/// Hosts: more tools than Cursor's 40, a description over 2 KB, a result with only
/// structuredContent, a host that asks for an era the server does not speak, calls that ask
/// the client for elicitation, sampling and roots, and skills offered.
#[tokio::test]
async fn host_rules_each_caught_and_quiet_on_a_good_server() {
    let dir = tempfile::tempdir().unwrap();
    user_profiles(dir.path());
    let mut tools: Vec<Value> = (0..41)
        .map(|i| tool(&format!("tool_{i}"), json!({"outputSchema": null})))
        .collect();
    tools.push(tool(
        "wordy",
        json!({"description": "Says a lot. ".repeat(200)}),
    ));
    tools.push(tool("structured", json!({})));
    let asks = [
        (
            "asks_form",
            "elicitation/create",
            json!({"message": "Which?",
            "requestedSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}),
        ),
        (
            "asks_model",
            "sampling/createMessage",
            json!({"maxTokens": 10,
            "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}),
        ),
        ("asks_roots", "roots/list", json!({})),
    ];
    let mut answers = json!({
        "structured": {"result": {"content": [], "structuredContent": {"ok": true}}},
    });
    for (name, method, params) in &asks {
        tools.push(tool(name, json!({"outputSchema": null})));
        let request = json!({"id": format!("{name}-1"), "method": method, "params": params});
        answers[name] = json!({"ask": request});
    }
    let broken = json!({
        "tools": tools,
        "answers": answers,
        "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
    });
    let srv = case(dir.path(), "hosts", &broken);
    let hosts = ["--host", "cursor", "--host", "claude", "--host", "textonly"];
    let mut args = vec![
        "--stdio",
        srv.as_str(),
        "--no-render",
        "--call",
        "structured",
    ];
    for (name, _, _) in &asks {
        args.extend(["--call", name]);
    }
    args.extend(hosts);
    args.extend(["--host", "modern"]);
    let (o, r) = check_in(dir.path(), &args).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    // Cursor offers 40 tools: the server as a whole is degraded, each tool past it blocked.
    fired(&r, "host-tool-limit", "warning", "cursor: degraded");
    fired(&r, "host-tool-limit", "warning", "the model sees 46 tools");
    fired(&r, "host-tool-limit", "error", "tool `wordy`: not offered");
    fired(&r, "host-tool-limit", "info", "claude: unknown");
    assert!(
        of(&r, "host-tool-limit")
            .iter()
            .all(|(s, m)| s == "info" || m.starts_with("cursor")),
        "only Cursor's limit is under 46: {r}"
    );
    fired(
        &r,
        "host-description-length",
        "info",
        "tool `wordy`: the description is 2400 bytes; no host profile states a description limit",
    );
    let description = mcplab_check::sets::find_rule("host-description-length").unwrap();
    assert_eq!(
        description.severity(),
        mcplab_protocol::check::Severity::Info,
        "no profile states a limit: information, not a warning"
    );
    // Claude's policy is unknown; `textonly` never shows structuredContent.
    fired(
        &r,
        "host-structured-content",
        "info",
        "claude: unknown — tool `structured`",
    );
    fired(
        &r,
        "host-structured-content",
        "error",
        "textonly: blocked — tool `structured`",
    );
    fired(
        &r,
        "host-structured-content",
        "warning",
        "textonly: degraded — tool `wordy`",
    );
    fired(
        &r,
        "host-protocol",
        "error",
        "modern: blocked — the host asks for 2026-07-28",
    );
    // Claude declares no elicitation, sampling or roots; whether it takes skills is unknown.
    for (name, method, _) in &asks {
        let said = format!(
            "claude: degraded — tool `{name}`: the server asked for `{method}`; the host does not declare it"
        );
        fired(&r, "host-capability", "warning", &said);
    }
    fired(
        &r,
        "host-capability",
        "info",
        "claude: unknown — the server offers skills",
    );

    let good = modes("clean");
    let mut args = vec![
        "--stdio",
        good.as_str(),
        "--no-render",
        "--call",
        "search_notes",
    ];
    args.extend(hosts);
    let (_, r) = check_in(dir.path(), &args).await;
    quiet(
        &r,
        &[
            "host-tool-limit",
            "host-description-length",
            "host-protocol",
            "host-capability",
        ],
    );
    let structured = of(&r, "host-structured-content");
    assert!(
        structured
            .iter()
            .all(|(_, m)| m.starts_with("textonly: degraded")),
        "a result with text reaches every host's model; only a host that never shows structuredContent drops the structured part: {structured:?}"
    );
}

/// Readiness over stdio: a long name, no description, a money mover, a generic name, no
/// outputSchema, a widget without a CSP.
#[tokio::test]
async fn readiness_rules_each_caught_and_quiet_on_a_good_server() {
    let dir = tempfile::tempdir().unwrap();
    let widget = |csp: Value| {
        json!({"uri": "ui://case/widget.html", "mimeType": "text/html+skybridge",
               "text": "<!doctype html><div>hi</div>", "_meta": csp})
    };
    let long = "n".repeat(65);
    let broken = json!({
        "tools": [
            tool(&long, json!({})),
            tool("no_description", json!({"description": null})),
            tool("transfer_funds", json!({"annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true}})),
            tool("run", json!({})),
            tool("plain_text", json!({"outputSchema": null})),
            tool("show_widget", json!({"_meta": {"openai/outputTemplate": "ui://case/widget.html"}})),
        ],
        "resources": [widget(Value::Null)],
    });
    let srv = case(dir.path(), "readiness", &broken);
    let directories = ["--readiness", "claude", "--readiness", "openai"];
    let mut args = vec!["--stdio", srv.as_str()];
    args.extend(directories);
    let (o, r) = check_in(dir.path(), &args).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    fired(
        &r,
        "claude-tool-name-length",
        "error",
        &format!("`{long}` is 65 characters"),
    );
    fired(
        &r,
        "claude-tool-description",
        "error",
        "`no_description` has no description",
    );
    fired(
        &r,
        "openai-tool-description",
        "error",
        "`no_description` has no description",
    );
    fired(
        &r,
        "claude-financial-transactions",
        "warning",
        "`transfer_funds`",
    );
    fired(&r, "openai-tool-names", "error", "`run` has a generic name");
    fired(
        &r,
        "openai-output-schema",
        "info",
        "`plain_text` declares no outputSchema",
    );
    fired(
        &r,
        "openai-widget-csp",
        "error",
        "ui://case/widget.html (for show_widget) declares no CSP",
    );
    fired(&r, "claude-remote-transport", "warning", "a stdio server");
    for rule in [
        "claude-tool-description",
        "openai-tool-names",
        "openai-output-schema",
    ] {
        assert_eq!(of(&r, rule).len(), 1, "only the breaking tool: {rule}: {r}");
    }

    let csp = json!({"openai/widgetCSP": {"connect_domains": [], "resource_domains": []}});
    let good = json!({
        "tools": [
            tool("search_notes", json!({})),
            tool("show_widget", json!({"_meta": {"openai/outputTemplate": "ui://case/widget.html"}})),
        ],
        "resources": [widget(csp)],
    });
    let srv = case(dir.path(), "ready", &good);
    let mut args = vec!["--stdio", srv.as_str()];
    args.extend(directories);
    let (_, r) = check_in(dir.path(), &args).await;
    quiet(
        &r,
        &[
            "claude-tool-name-length",
            "claude-tool-description",
            "openai-tool-description",
            "claude-financial-transactions",
            "openai-tool-names",
            "openai-output-schema",
            "openai-widget-csp",
            "claude-auth",
        ],
    );
}

/// Readiness over HTTP: a pasted bearer token (Claude takes OAuth only) on a loopback URL (a
/// note: check the deployed URL), and the old HTTP+SSE transport.
#[tokio::test]
async fn readiness_transport_and_auth() {
    let dir = tempfile::tempdir().unwrap();
    let http = RawHttp::start("http", "").await;
    let url = http.url("/mcp");
    let args = [
        "--url",
        url.as_str(),
        "--readiness",
        "claude",
        "--header",
        "Authorization: Bearer pasted-token",
    ];
    let (o, r) = check_in(dir.path(), &args).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    fired(&r, "claude-auth", "error", "a static Authorization header");
    assert!(
        !r.to_string().contains("pasted-token"),
        "the token shows nowhere: {r}"
    );
    fired(&r, "claude-remote-transport", "info", "is on this machine");
    assert_eq!(of(&r, "claude-remote-transport").len(), 1, "{r}");

    // Without the header, no claude-auth; the old transport is a warning.
    let sse = RawHttp::start("sse", "").await;
    let url = sse.url("/sse");
    let (_, r) = check_in(
        dir.path(),
        &["--url", &url, "--transport", "sse", "--readiness", "claude"],
    )
    .await;
    fired(
        &r,
        "claude-remote-transport",
        "warning",
        "uses the old HTTP+SSE transport",
    );
    quiet(&r, &["claude-auth"]);
}

/// The tests that name rules: this crate's and the other crates' integration tests, the unit
/// tests of mcplab-check (after `#[cfg(test)]`), and the browser tests.
fn test_sources() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            // Not into node_modules (a symlink in worktrees) or any other link.
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() && e.file_name() != "node_modules" {
                walk(&p, out);
            } else if kind.is_file() && p.extension().is_some_and(|x| x == "rs" || x == "js") {
                out.push(p);
            }
        }
    }
    let root = repo();
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        walk(&krate.path().join("tests"), &mut files);
    }
    walk(&root.join("tests/browser"), &mut files);
    let mut out: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (p, text)
        })
        .collect();
    let mut units = Vec::new();
    walk(&root.join("crates/mcplab-check/src"), &mut units);
    for p in units {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        if let Some(i) = text.find("#[cfg(test)]") {
            out.push((p, text[i..].to_owned()));
        }
    }
    out
}

/// Every rule of `--list-rules` is named (`"rule-id"`) by at least one test, so a rule
/// added without a test that makes it fire fails here.
#[test]
fn every_rule_is_named_by_a_test() {
    // Every piece of text between two double quotes (an id is one, whatever the quotes
    // around it pair with): one pass over each file, not one search per rule.
    let quoted: HashSet<String> = test_sources()
        .iter()
        .flat_map(|(_, text)| text.split('"').map(str::to_owned).collect::<Vec<_>>())
        .filter(|piece| piece.len() <= 64)
        .collect();
    let unnamed: Vec<&str> = mcplab_check::sets::all_rules()
        .map(|r| r.id)
        .filter(|id| !quoted.contains(*id))
        .collect();
    assert!(
        unnamed.is_empty(),
        "rules no test names (write a test that makes each fire): {unnamed:?}"
    );
}
