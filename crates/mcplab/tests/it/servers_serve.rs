//! `mcplab servers add|remove|import` while `mcplab serve` runs on the same data directory:
//! the edit goes through the running inspector's API (found through `launch.json`), so its
//! list, its event stream and its connections follow at once. With no inspector answering
//! (no `launch.json`, a dead process, a closed port) the store is edited as before; an
//! inspector that refuses the launch secret is an error, and nothing changes.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Command;

use crate::serve::{Running, start};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

/// Runs the CLI on data directory `data`; bounded so a hang fails the test.
async fn cli(data: &Path, args: &[&str]) -> Output {
    let child = Command::new(BIN)
        .args(args)
        .env("MCPLAB_DATA_DIR", data)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(Duration::from_secs(60), child)
        .await
        .expect("mcplab finished in time")
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The server event `kind` of `server` (`added`, `updated`, `removed`).
fn is_event(e: &Value, kind: &str, server: &str) -> bool {
    e["kind"] == "server" && e["event"]["type"] == kind && e["event"]["server"] == server
}

fn is_connected(e: &Value, server: &str) -> bool {
    is_event(e, "status", server) && e["event"]["status"]["state"] == "connected"
}

/// The names the running inspector lists.
async fn listed(run: &Running) -> Vec<String> {
    let list = run.get("/api/servers").await;
    let names = list.as_array().unwrap_or_else(|| panic!("a list: {list}"));
    names
        .iter()
        .map(|s| s["config"]["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The names the store holds, read by the CLI (`servers list --json`).
async fn stored(data: &Path) -> Vec<String> {
    let o = cli(data, &["--json", "servers", "list"]).await;
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let servers = doc["mcpServers"].as_object().unwrap();
    servers.keys().cloned().collect()
}

fn assert_told(o: &Output, line: &str, run: &Running) {
    let err = stderr(o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(line), "{err}");
    let told = format!("the running inspector at {} was updated", run.base);
    assert!(err.contains(&told), "{err}");
}

#[tokio::test]
async fn servers_edits_reach_a_running_serve_live() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let run = start(data, &["--port", "0"]).await;
    let demo = format!("{BIN} demo-server");

    // Added: listed, announced, and connected as the web's Add does.
    let o = cli(data, &["servers", "add", "live", "--stdio", &demo]).await;
    assert_told(&o, "added `live`", &run);
    let seen = run.events_until(|e| is_connected(e, "live")).await;
    assert!(
        seen.iter().any(|e| is_event(e, "added", "live")),
        "{seen:?}"
    );
    assert!(listed(&run).await.contains(&"live".to_owned()));

    // Added again: replaced in place, announced as updated.
    let log = data.join("reads.log");
    let changed = format!("{demo} --read-log {}", log.display());
    let o = cli(data, &["servers", "add", "live", "--stdio", &changed]).await;
    assert_told(&o, "replaced `live`", &run);
    // Connected before, so reconnected with the new config (as the web's edit form does).
    let connected = std::cell::Cell::new(0);
    let seen = run
        .events_until(|e| {
            connected.set(connected.get() + usize::from(is_connected(e, "live")));
            connected.get() == 2
        })
        .await;
    assert!(
        seen.iter().any(|e| is_event(e, "updated", "live")),
        "{seen:?}"
    );
    let view = run.get("/api/servers/live").await;
    assert!(
        view["config"]["args"].to_string().contains("--read-log"),
        "{view}"
    );

    // Imported: both servers, each announced.
    let file = data.join("two.json");
    let doc = json!({"mcpServers": {
        "one": {"command": BIN, "args": ["demo-server"]},
        "two": {"url": "http://127.0.0.1:9/mcp"},
    }});
    std::fs::write(&file, doc.to_string()).unwrap();
    let o = cli(data, &["servers", "import", file.to_str().unwrap()]).await;
    assert_told(&o, "imported 2 server(s): added [one, two]", &run);
    let seen = run.events_until(|e| is_event(e, "added", "two")).await;
    assert!(seen.iter().any(|e| is_event(e, "added", "one")), "{seen:?}");
    let names = listed(&run).await;
    assert!(names.contains(&"one".into()) && names.contains(&"two".into()));

    // Removed: disconnected, announced, gone from the list.
    let o = cli(data, &["servers", "remove", "live"]).await;
    assert_told(&o, "removed `live`", &run);
    run.events_until(|e| is_event(e, "removed", "live")).await;
    assert!(!listed(&run).await.contains(&"live".to_owned()));
    assert_eq!(run.get("/api/servers/live").await["code"], "not_found");
    // An unknown name is refused as without a serve (usage, exit 2).
    let o = cli(data, &["servers", "remove", "live"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    run.stop().await;
}

#[tokio::test]
async fn a_refused_secret_changes_nothing_and_a_gone_serve_leaves_the_store_to_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let run = start(data, &["--port", "0"]).await;
    let launch_path = data.join("launch.json");
    let launch: Value =
        serde_json::from_str(&std::fs::read_to_string(&launch_path).unwrap()).expect("launch.json");
    let mut wrong = launch.clone();
    wrong["secret"] = json!("not-the-secret");
    std::fs::write(&launch_path, wrong.to_string()).unwrap();

    let demo = format!("{BIN} demo-server");
    let before = listed(&run).await;
    let o = cli(data, &["servers", "add", "refused", "--stdio", &demo]).await;
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("launch secret"), "{}", stderr(&o));
    let o = cli(data, &["servers", "remove", "demo"]).await;
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(listed(&run).await, before, "nothing changed");
    assert_eq!(stored(data).await, before, "nothing changed in the store");

    // Killed: launch.json stays behind, naming a dead process; the CLI edits the store.
    std::fs::write(&launch_path, launch.to_string()).unwrap();
    run.crash().await;
    assert!(launch_path.exists(), "a crash leaves launch.json");
    let o = cli(data, &["servers", "add", "after", "--stdio", &demo]).await;
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("added `after`"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("inspector"), "{}", stderr(&o));
    assert!(stored(data).await.contains(&"after".to_owned()));

    // A live process but nothing on the port (connection refused): the store too.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let pid = std::process::id();
    let stale = json!({"url": url, "secret": "x", "pid": pid});
    std::fs::write(&launch_path, stale.to_string()).unwrap();
    let o = cli(data, &["servers", "remove", "after"]).await;
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stored(data).await.contains(&"after".to_owned()));
}

/// The names `servers list` prints, in its order (the table's first column).
async fn printed(data: &Path) -> Vec<String> {
    let o = cli(data, &["servers", "list"]).await;
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let rows = text
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('-'));
    rows.map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn servers_move_reorders_the_store_or_a_running_serve() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    for name in ["a", "b", "c"] {
        let o = cli(
            data,
            &["servers", "add", name, "--url", "http://127.0.0.1:9/mcp"],
        )
        .await;
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let base = printed(data).await;
    assert!(
        base.ends_with(&["a".into(), "b".into(), "c".into()]),
        "{base:?}"
    );
    let at = base.len().to_string();
    // No serve: the store.
    let o = cli(data, &["servers", "move", "a", "--to", &at]).await;
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        printed(data)
            .await
            .ends_with(&["b".into(), "c".into(), "a".into()])
    );
    let o = cli(data, &["servers", "move", "a", "--to", "0"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("give 1 to {at}")),
        "{}",
        stderr(&o)
    );

    // A running serve: through it, its list and its event stream follow.
    let run = start(data, &["--port", "0"]).await;
    let o = cli(data, &["servers", "move", "a", "--before", "b"]).await;
    assert_told(&o, "moved `a`", &run);
    let seen = run
        .events_until(|e| e["kind"] == "server" && e["event"]["type"] == "reordered")
        .await;
    let told = &seen.last().unwrap()["event"]["servers"];
    assert_eq!(*told, json!(listed(&run).await), "{told}");
    assert!(
        listed(&run)
            .await
            .ends_with(&["a".into(), "b".into(), "c".into()])
    );
    let o = cli(data, &["servers", "move", "nosuch", "--to", "1"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    run.stop().await;
    assert!(
        printed(data)
            .await
            .ends_with(&["a".into(), "b".into(), "c".into()])
    );
}
