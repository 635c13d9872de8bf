//! The HTTP tap in front of a real server (the testkit's rmcp streamable HTTP service): a
//! client gets the same status, content type and body bytes through the tap as directly, in
//! both eras; the recording holds the posted frame with its 2026-07-28 headers, the exchange
//! (the bearer, cookie and API key masked) and the answer linked to it, in the host's session.

use std::time::Duration;

use mcplab_protocol::tap::{TapStart, TapTransport};
use mcplab_tap::http::{HttpTapConfig, bind, host_url, serve};
use mcplab_tap::recorder::{FileSink, Recorder, Rotation, Sinks};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

const SECRET: &str = "Bearer secret-token-0123456789abcdef";

struct Running {
    direct: String,
    tapped: String,
    record: std::path::PathBuf,
    recorder: Recorder,
    stop: CancellationToken,
    _dir: tempfile::TempDir,
}

async fn running() -> Running {
    let (server, _cancel) = mcplab_testkit::spawn_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let direct = format!("http://{server}/mcp");
    let listener = bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let tapped = host_url(listener.local_addr().unwrap(), &direct.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("rec.jsonl");
    let start = TapStart {
        format: 1,
        transport: TapTransport::Http,
        target: direct.clone(),
        pid: 1,
        started_ms: 1,
    };
    let sinks = Sinks {
        file: Some(FileSink::new(record.clone(), Rotation::default())),
        live: None,
        fallback: None,
        notice: std::sync::Arc::new(|_: &str| {}),
    };
    let recorder = Recorder::start(start, sinks);
    let config = HttpTapConfig {
        upstream: direct.parse().unwrap(),
        max_body: 1 << 20,
        max_frame: 1 << 20,
    };
    let stop = CancellationToken::new();
    tokio::spawn(serve(listener, config, recorder.clone(), stop.clone()));
    Running {
        direct,
        tapped,
        record,
        recorder,
        stop,
        _dir: dir,
    }
}

/// POSTs `body` with `headers`; returns status, content type, session id and the body text.
async fn post(url: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String, String) {
    let mut req = mcplab_net::tls::client()
        .post(url)
        .timeout(Duration::from_secs(20))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", SECRET)
        .body(body.to_owned());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await.unwrap();
    let header = |n: &str| {
        resp.headers()
            .get(n)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    let (status, kind, session) = (
        resp.status().as_u16(),
        header("content-type"),
        header("mcp-session-id"),
    );
    (status, kind, session, resp.text().await.unwrap())
}

const MODERN_LIST: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tap-http-test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const MODERN: [(&str, &str); 4] = [
    ("mcp-protocol-version", "2026-07-28"),
    ("mcp-method", "tools/list"),
    ("cookie", "session=cookie-secret-42"),
    ("x-api-key", "key-secret-42"),
];
const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tap-http-test","version":"1"}}}"#;

#[tokio::test]
async fn a_client_gets_the_same_bytes_through_the_tap_in_both_eras() {
    let run = running().await;
    let direct = post(&run.direct, &MODERN, MODERN_LIST).await;
    let tapped = post(&run.tapped, &MODERN, MODERN_LIST).await;
    assert_eq!(direct.0, 200);
    assert_eq!(tapped, direct, "2026-07-28: status, type and body as sent");

    let direct = post(&run.direct, &[], INIT).await;
    let tapped = post(&run.tapped, &[], INIT).await;
    assert!(!tapped.2.is_empty(), "a session id came back");
    assert_eq!(
        (tapped.0, &tapped.1, &tapped.3),
        (direct.0, &direct.1, &direct.3),
        "handshake era"
    );
    run.recorder.finish("stopped".into()).await;
    run.stop.cancel();

    let lines: Vec<Value> = std::fs::read_to_string(&run.record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let frames: Vec<&Value> = lines.iter().filter(|l| l["type"] == "frame").collect();
    // The modern exchange: posted frame with its headers, the note, the answer.
    let posted = frames[0];
    assert_eq!(posted["text"], MODERN_LIST);
    assert_eq!(
        posted["headers"][1],
        serde_json::json!(["mcp-method", "tools/list"])
    );
    let note = frames[1];
    assert_eq!(note["kind"], "note");
    assert_eq!(note["http"]["requestSeq"], posted["seq"]);
    let auth = note["http"]["requestHeaders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0] == "authorization")
        .unwrap();
    assert!(
        !auth[1].as_str().unwrap().contains("0123456789abcdef"),
        "masked: {auth}"
    );
    let recorded = std::fs::read_to_string(&run.record).unwrap();
    for secret in ["0123456789abcdef", "cookie-secret-42", "key-secret-42"] {
        assert!(!recorded.contains(secret), "{secret} is masked everywhere");
    }
    let answer = frames[2];
    assert_eq!(answer["exchange"], note["seq"]);
    assert!(answer["text"].as_str().unwrap().contains("\"tools\""));
    // The handshake: every frame of it in the session the server named.
    let init: Vec<&&Value> = frames
        .iter()
        .filter(|f| f["server"] == tapped.2.as_str())
        .collect();
    assert_eq!(init.len(), 3, "{init:?}");
    assert_eq!(init[0]["text"], INIT);
}
