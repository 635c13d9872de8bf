//! Regression tests for the third interop review's findings (N1–N16, B10, B14 and the
//! accept-defaults disagreement), each against the official SDK server the finding came from:
//! the TypeScript SDK 1.x (`tests/interop/ts/server1.mjs`, `@modelcontextprotocol/sdk`), the
//! Python SDK 1.x (`tests/python/kitchen.py` in `.venv1`), or `tests/interop/rawsrv.py` where a
//! server must misbehave on purpose. Each failed on the code before its fix. Needs the npm
//! peers and the Python venvs (feature `peer-tests`).

use super::peer_support::{kitchen_stdio, mcplab, mcplab_with_input, node22, raw, repo, text};

/// The TypeScript SDK 1.x server's command line.
fn ts1() -> String {
    let script = repo().join("tests/interop/ts/server1.mjs");
    format!("{} {} stdio", node22(), script.display())
}

/// N1: log notifications are shown in the order the server sent them (rmcp handled each on a
/// task of its own: 3 runs in 4 were out of order).
#[tokio::test]
async fn n1_log_lines_keep_the_servers_order() {
    let srv = ts1();
    for _ in 0..4 {
        let o = mcplab(&[
            "--stdio",
            &srv,
            "--log-level",
            "debug",
            "tools",
            "call",
            "log_all",
        ])
        .await;
        let err = String::from_utf8_lossy(&o.stderr);
        let order: Vec<&str> = err
            .lines()
            .filter_map(|l| l.split("] line ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(
            order,
            ["1", "2", "3", "4", "5", "6", "7", "8"],
            "{}",
            text(&o)
        );
    }
}

/// N2: `-a payment.number=4111` into a discriminated union member typed as a string is sent
/// as the string "4111" (was the number, which the SDK's zod check refused).
#[tokio::test]
async fn n2_union_members_are_typed_by_their_branch() {
    let o = mcplab(&[
        "--stdio",
        &ts1(),
        "tools",
        "call",
        "pay",
        "-a",
        "customer=ann",
        "-a",
        "payment.number=4111",
        "-a",
        "payment.kind=card",
    ])
    .await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(r#""number":"4111""#) && out.contains("paid ann") && o.status.success(),
        "{}",
        text(&o)
    );
}

/// N3: `--elicitation ask` checks `format` (email, uri, date) and asks again instead of sending
/// an answer the TypeScript SDK refuses.
#[tokio::test]
async fn n3_elicitation_formats_are_checked_before_sending() {
    let answers =
        "not-an-email\nz@example.com\nnot a uri\nhttps://x.test/\n2025-13-45\n2025-12-31\n";
    let o = mcplab_with_input(
        &[
            "--stdio",
            &ts1(),
            "--elicitation",
            "ask",
            "tools",
            "call",
            "ask_form",
        ],
        answers,
    )
    .await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            r#"accept {"email":"z@example.com","site":"https://x.test/","born":"2025-12-31"}"#
        ),
        "{}",
        text(&o)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not an email address"), "{}", text(&o));
}

/// N9: the Python SDK 1.x logs ~95 lines of validation errors when it refuses `auto`'s
/// `server/discover` probe; they are not the work's stderr, so they stay out of the output and
/// in the traffic (`--trace` shows them). The server's own stderr still shows.
#[tokio::test]
async fn n9_stderr_from_refusing_the_probe_is_not_shown() {
    let srv = kitchen_stdio(1);
    let o = mcplab(&["--stdio", &srv, "tools", "list"]).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!err.contains("validation error"), "{}", text(&o));
    assert!(
        err.contains("Processing request of type ListToolsRequest"),
        "the work's stderr is still shown: {}",
        text(&o)
    );
    let o = mcplab(&["--trace", "--stdio", &srv, "ping"]).await;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("while refusing mcplab's server/discover probe")
            && err.contains("stderr | Failed to validate request"),
        "{}",
        text(&o)
    );
}

/// A slow 2025 server refuses the probe only after mcplab gave up on it and sent
/// `initialize` (four npm app servers starting at once on a loaded machine did): the late
/// refusal is the probe's, not an answer to `initialize` ("uncorrelated error response").
#[tokio::test]
async fn a_probe_refused_after_the_fallback_does_not_fail_the_connect() {
    let srv = raw("late-discover");
    let o = mcplab(&["--connect-timeout", "20", "--stdio", &srv, "info"]).await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("2025-11-25"),
        "{}",
        text(&o)
    );
}

/// N16: a 2025 server that ignores requests it does not know (or answers the probe with
/// garbage) cost 10 s per connect with `auto`, and failed with a connect deadline of 10 s or
/// less. Once the server has read the probe and not answered it soon after, it is started
/// again and asked `initialize`: the fallback comes within a deadline shorter than rmcp's.
#[tokio::test]
async fn n16_auto_falls_back_fast_from_a_server_that_ignores_the_probe() {
    for mode in ["ignore-discover", "discover-garbage"] {
        let srv = raw(mode);
        // 8 s: below rmcp's own 10 s probe deadline (the old cost), above what a Python
        // start takes on a loaded CI machine (a 3 s deadline failed there, at load 10).
        let o = mcplab(&["--connect-timeout", "8", "--stdio", &srv, "ping"]).await;
        assert!(o.status.success(), "{mode}: {}", text(&o));
        // Which of the two ends the probe (the ping's answer, or half the deadline of silence
        // while Python starts on a busy machine) is timing; the fallback within 8 s is not.
        let o = mcplab(&["--timeout", "8", "--stdio", &srv, "info"]).await;
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && out.contains("no answer to server/discover"),
            "{mode}: {}",
            text(&o)
        );
    }
}

/// The methods a rawsrv.py run saw, one per process start (a start's first method opens it).
fn methods_seen(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|m| m["method"].as_str().map(str::to_owned))
        .collect()
}

/// `auto` never sends anything but `server/discover` to a server before it answered it: a
/// `ping` there turned a dual-era TypeScript SDK 2.x server to the 2025 shape (it answered the
/// probe as 2026-07-28, then every later request as 2025). A server that ignores the probe is
/// started again and asked `initialize`; the probed process saw only the probe.
#[tokio::test]
async fn an_ignored_probe_is_never_followed_by_a_ping_on_its_session() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("seen.jsonl");
    let starts = dir.path().join("starts");
    let log_env = format!("RAWSRV_LOG={}", log.display());
    let starts_env = format!("RAWSRV_STARTS={}", starts.display());
    let srv = raw("ignore-discover");
    let args = ["--stdio", &srv, "-e", &log_env, "-e", &starts_env, "info"];
    let o = mcplab(&args).await;
    assert!(o.status.success(), "{}", text(&o));
    let seen = methods_seen(&log);
    assert!(!seen.iter().any(|m| m == "ping"), "{seen:?}");
    let initialize = seen.iter().position(|m| m == "initialize");
    assert_eq!(
        seen.first().map(String::as_str),
        Some("server/discover"),
        "{seen:?}"
    );
    assert!(initialize.is_some(), "{seen:?}");
    let pids = std::fs::read_to_string(&starts).unwrap();
    assert_eq!(
        pids.lines().count(),
        2,
        "probed, then started for initialize: {pids}"
    );
}

/// Security review N6's side note: with `auto`, a stdio server that answers `server/discover`
/// with `{}` (a lax 2025 server) was started twice; the answer is now a refusal on the same
/// process, which then gets `initialize`.
#[tokio::test]
async fn a_lax_answer_to_the_probe_falls_back_on_the_same_process() {
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("starts");
    let starts_env = format!("RAWSRV_STARTS={}", starts.display());
    let srv = raw("lax");
    let o = mcplab(&["--stdio", &srv, "-e", &starts_env, "info"]).await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("2025-11-25"),
        "{}",
        text(&o)
    );
    assert!(out.contains("not a discover result"), "{}", text(&o));
    let pids = std::fs::read_to_string(&starts).unwrap();
    assert_eq!(pids.lines().count(), 1, "started once: {pids}");
}

/// `sh -c` that holds its first start `secs` seconds before becoming `server` (reading nothing
/// meanwhile: a slow first start, e.g. cold imports) and starts it at once afterwards.
fn slow_first_start(marker: &std::path::Path, secs: u32, server: &str) -> String {
    let m = marker.display();
    format!("sh -c 'if [ ! -e {m} ]; then : > {m}; sleep {secs}; fi; exec {server}'")
}

/// A 2026-07-28 server whose first start reads nothing before `auto` gives the probe up (half
/// the connect deadline; rmcp's own probe deadline is 10 s) is started again and asked
/// `server/discover` alone, patiently: it is spoken to as 2026-07-28, not as 2025 (it was, by
/// a fresh `initialize`). A 2025 server that starts as slowly still ends in the 2025 era: it
/// refuses the second probe and is started a third time with `initialize`.
#[tokio::test]
async fn a_slow_first_start_is_asked_server_discover_again_not_taken_for_2025() {
    let dir = tempfile::tempdir().unwrap();
    let modern = format!("{} demo-server", super::peer_support::BIN);
    let legacy = raw("");
    // Side by side: each costs a held first start.
    let connect = |server: String, revision: &'static str| {
        let srv = slow_first_start(&dir.path().join(format!("started-{revision}")), 3, &server);
        async move {
            let args = ["--connect-timeout", "4", "--json", "--stdio", &srv, "info"];
            (revision, mcplab(&args).await)
        }
    };
    let runs = tokio::join!(connect(modern, "2026-07-28"), connect(legacy, "2025-11-25"));
    for (revision, o) in [runs.0, runs.1] {
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{revision}: {}", text(&o));
        let info: serde_json::Value = serde_json::from_str(&out).expect("info --json");
        assert_eq!(info["protocolVersion"], revision, "{}", text(&o));
        let how = info["mcplab/era"]["how"].as_str().unwrap_or_default();
        assert!(
            how.contains("the server read nothing"),
            "the era says why it started again: {how}"
        );
    }
}
