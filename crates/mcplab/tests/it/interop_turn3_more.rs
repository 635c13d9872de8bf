//! More regression tests for the third interop review (N10–N13, B10), each against the
//! server the finding came from: the TypeScript SDK 2.x (`tests/interop/ts/server.mjs`), the
//! Python SDK 1.x (`tests/python/kitchen.py`), server-everything, or mcplab's own fixture over
//! HTTP where two clients must share one server. Each failed on the code before its fix.
//! Needs the npm peers and the Python venvs (feature `peer-tests`).

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

use super::peer_support::{command, kitchen_http, kitchen_stdio, mcplab, node22, repo, text};

/// N10: in the 2026-07-28 era `resources subscribe` checked nothing and waited for ever on a
/// server (TypeScript SDK 2.x) whose `resources` capability has no `subscribe: true`.
#[tokio::test]
async fn n10_subscribe_to_a_server_without_subscriptions_fails_at_once() {
    let script = repo().join("tests/interop/ts/server.mjs");
    let srv = format!("{} {} stdio", node22(), script.display());
    let o = mcplab(&[
        "--stdio",
        &srv,
        "resources",
        "subscribe",
        "ts://readme",
        "--count",
        "1",
    ])
    .await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        err.contains("does not offer resource subscriptions"),
        "{}",
        text(&o)
    );
}

/// N11: the 2026-07-28 acknowledgement was printed as a made-up `[server info mcplab]` log
/// line, and `listen` printed updates without their URI.
#[tokio::test]
async fn n11_listen_shows_the_ack_as_mcplabs_and_the_updated_uri() {
    let addr = "127.0.0.1:0".parse().unwrap();
    let (bound, stop) = mcplab_testkit::spawn_http(addr).await.unwrap();
    let url = format!("http://{bound}/mcp");
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--url",
        &url,
        "--oauth",
        "off",
        "listen",
        "--resource",
        "demo://counter",
        "--count",
        "1",
    ];
    let mut listen = command(&args, dir.path()).spawn().unwrap();
    let mut err_lines = BufReader::new(listen.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(l) = err_lines.next_line().await.unwrap() {
            seen.push(l.clone());
            if l.starts_with("acknowledged:") {
                return;
            }
        }
        panic!("no acknowledgement: {seen:?}");
    })
    .await
    .unwrap();
    let bump = mcplab(&[
        "--url",
        &url,
        "--oauth",
        "off",
        "tools",
        "call",
        "bump_counter",
    ])
    .await;
    assert!(bump.status.success(), "{}", text(&bump));
    let o = tokio::time::timeout(Duration::from_secs(30), listen.wait_with_output())
        .await
        .expect("listen ends after --count 1")
        .unwrap();
    while let Ok(Some(l)) = err_lines.next_line().await {
        seen.push(l);
    }
    stop.cancel();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("notifications/resources/updated demo://counter"),
        "{}\n{seen:?}",
        text(&o)
    );
    assert!(
        !seen
            .iter()
            .any(|l| l.contains("[server") || l.contains("subscription acknowledged")),
        "{seen:?}"
    );
}

/// N12: pinned to 2026-07-28, a 2025-only server's refusal of `server/discover` was blamed on
/// `initialize` (stdio) or quoted the internal server name `cli` (HTTP).
#[tokio::test]
async fn n12_a_refused_discover_is_named_as_such() {
    let srv = kitchen_stdio(1);
    let o = mcplab(&["--stdio", &srv, "--protocol", "2026-07-28", "ping"]).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        err.contains("server/discover") && !err.contains("`initialize`"),
        "{}",
        text(&o)
    );
    assert!(err.contains("pinned to 2026-07-28"), "{}", text(&o));

    let (_server, port) = kitchen_http(1, "http").await;
    let url = format!("http://127.0.0.1:{port}/mcp");
    let o = mcplab(&[
        "--url",
        &url,
        "--oauth",
        "off",
        "--protocol",
        "2026-07-28",
        "tools",
        "list",
    ])
    .await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        err.contains("server/discover") && err.contains("pinned to 2026-07-28"),
        "{}",
        text(&o)
    );
    assert!(
        !err.contains(" cli") && !err.contains("`initialize`"),
        "{}",
        text(&o)
    );
}

/// B10: an ad-hoc `--url …/sse` of a legacy HTTP+SSE server (Python SDK 1.x) failed unless
/// `--transport sse` was typed; the spec's backwards compatibility falls back to it.
#[tokio::test]
async fn b10_an_sse_url_falls_back_to_legacy_sse() {
    let (_server, port) = kitchen_http(1, "sse").await;
    let url = format!("http://127.0.0.1:{port}/sse");
    let o = mcplab(&["--url", &url, "--oauth", "off", "tools", "list"]).await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("create_order"),
        "{}",
        text(&o)
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("legacy HTTP+SSE transport"),
        "{}",
        text(&o)
    );
    // A typed transport is taken at its word.
    let o = mcplab(&[
        "--url",
        &url,
        "--oauth",
        "off",
        "--transport",
        "http",
        "tools",
        "list",
    ])
    .await;
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
}

/// N13: `--no-wait` printed "see `mcplab tasks get ID`" where the task cannot outlive the
/// command: on stdio (the server is mcplab's child) it is refused before the call; in a
/// sessionful HTTP connection the handle comes with a note that the session ends.
#[tokio::test]
async fn n13_no_wait_says_where_the_task_cannot_outlive_the_command() {
    let everything =
        repo().join("tests/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let srv = format!("node {} stdio", everything.display());
    let call = [
        "tools",
        "call",
        "simulate-research-query",
        "-a",
        "topic=interop",
        "--no-wait",
    ];
    let mut args = vec!["--stdio", &srv];
    args.extend(call);
    let o = mcplab(&args).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(err.contains("stdio server"), "{}", text(&o));

    let server = crate::interop::start_http("streamableHttp").await;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let mut args = vec!["--url", &url, "--oauth", "off"];
    args.extend(call);
    let o = mcplab(&args).await;
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(
        o.status.success() && out.contains("tasks get"),
        "{}",
        text(&o)
    );
    assert!(err.contains("MCP session"), "{}", text(&o));
}
