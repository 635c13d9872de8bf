//! The real `mcplab` binary against the testkit's OAuth-protected MCP server: transparent
//! sign-in for `--url` targets (non-interactive, and interactive with the loopback redirect
//! listener, a test standing in for the browser), tokens reused by the next invocation,
//! `oauth status|logout`, and `oauth debug` in human and JSON form with its exit codes.

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use mcplab_testkit::oauth::{OAuthTestConfig, OAuthTestServer};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn mcplab(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("MCPLAB_DATA_DIR", data)
        .env_remove("RUST_LOG")
        .env_remove("MCPLAB_OAUTH")
        // No xdg-open here: the CLI must print the URL instead of opening a browser.
        .env("PATH", "/nonexistent")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

async fn run(data: &Path, args: &[&str]) -> Output {
    let child = mcplab(data, args).spawn().expect("mcplab runs");
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("mcplab finished in time")
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn url_targets_sign_in_by_themselves_and_reuse_the_tokens() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let data = tempfile::tempdir().unwrap();
    let url = server.mcp_url();
    let args = [
        "--url",
        url.as_str(),
        "--oauth",
        "non-interactive",
        "tools",
        "call",
        "whoami",
    ];
    let out = run(data.path(), &args).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("client client-"),
        "{}",
        text(&out.stdout)
    );
    let out = run(data.path(), &args).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        server.records().authorize.len(),
        1,
        "the second run reused the token"
    );

    let out = run(data.path(), &["oauth", "status", "--json"]).await;
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status[0]["server"], "cli");
    assert_eq!(status[0]["url"], url);
    let token = status[0]["accessToken"].as_str().unwrap();
    assert!(token.contains('…'), "masked: {token}");
    assert!(!text(&out.stdout).contains("\"access-"), "no token in full");

    // `oauth login` signs in again, reusing the stored client registration.
    let login = [
        "--url",
        url.as_str(),
        "--oauth",
        "non-interactive",
        "oauth",
        "login",
    ];
    let out = run(data.path(), &login).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("signed in to cli as client client-"));
    let rec = server.records();
    assert_eq!((rec.register.len(), rec.authorize.len()), (1, 2));

    let out = run(data.path(), &["--url", url.as_str(), "oauth", "logout"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("signed out of cli"));
    let out = run(data.path(), &["oauth", "status"]).await;
    assert!(text(&out.stdout).contains("no sign-ins stored"));

    // With OAuth off, the 401 is an error that says what to do.
    let out = run(
        data.path(),
        &["--url", url.as_str(), "--oauth", "off", "tools", "list"],
    )
    .await;
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("401"), "{}", text(&out.stderr));
}

#[tokio::test]
async fn interactive_sign_in_prints_the_url_and_waits_for_the_redirect() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let data = tempfile::tempdir().unwrap();
    let url = server.mcp_url();
    let mut child = mcplab(data.path(), &["--url", url.as_str(), "tools", "list"])
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let authorization_url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(u) = line.trim().strip_prefix("http") {
                return format!("http{u}");
            }
        }
        panic!("no URL printed");
    })
    .await
    .unwrap();
    assert!(authorization_url.contains("code_challenge_method=S256"));
    // The "browser": the authorization server redirects to the CLI's loopback listener.
    let page = mcplab_net::tls::client()
        .get(&authorization_url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Signed in to cli"), "{page}");
    let out = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("whoami"),
        "{}",
        text(&out.stdout)
    );
    let redirect = &server.records().authorize[0].params["redirect_uri"];
    assert!(redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"));
}

#[tokio::test]
async fn oauth_debug_prints_steps_and_exits_with_the_fix() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let data = tempfile::tempdir().unwrap();
    let url = server.mcp_url();
    let out = run(
        data.path(),
        &["oauth", "debug", url.as_str(), "--non-interactive"],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let human = text(&out.stdout);
    assert!(
        human.contains("→ Fetch the protected resource metadata"),
        "{human}"
    );
    assert!(human.contains("✓ Authorization works"), "{human}");
    assert!(human.contains("authorized: Bearer token acce…"), "{human}");

    let out = run(
        data.path(),
        &[
            "--json",
            "oauth",
            "debug",
            url.as_str(),
            "--non-interactive",
        ],
    )
    .await;
    assert!(out.status.success());
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[..lines.len() - 1].iter().all(|l| l["kind"] == "step"));
    let last = lines.last().unwrap();
    assert_eq!(last["kind"], "finished");
    assert_eq!(last["run"]["state"], "succeeded");
    assert_eq!(
        last["run"]["steps"].as_array().unwrap().len(),
        lines.len() - 1
    );

    let broken = OAuthTestServer::start(OAuthTestConfig {
        prm_resource: Some("https://other.example.com/mcp".into()),
        ..OAuthTestConfig::default()
    })
    .await;
    let url = broken.mcp_url();
    let out = run(
        data.path(),
        &["oauth", "debug", url.as_str(), "--non-interactive"],
    )
    .await;
    assert_eq!(out.status.code(), Some(3));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("does not match the server URL")
            && stderr.contains("fix: set \"resource\""),
        "{stderr}"
    );
    assert!(
        text(&out.stdout).contains("✗"),
        "the failed step is printed"
    );
}
