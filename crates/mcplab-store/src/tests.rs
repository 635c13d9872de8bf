//! Tests for the store against real SQLite files in temporary directories, including a child
//! process that is SIGKILLed after an acknowledged write.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use mcplab_protocol::{ServerConfig, ServerTransport};
use rusqlite::Connection;
use serde_json::json;

use super::migrations::LATEST;
use super::{Store, StoreError};

fn stdio(name: &str, command: &str) -> ServerConfig {
    ServerConfig {
        name: name.to_string(),
        transport: ServerTransport::Stdio {
            command: command.to_string(),
            args: vec!["--flag".to_string(), "x y".to_string()],
            env: BTreeMap::from([("K".to_string(), "v".to_string())]),
            cwd: Some("/tmp".to_string()),
        },
        timeout_ms: Some(1234),
        inherit_env: false,
        protocol: Default::default(),
    }
}

fn http(name: &str, url: &str) -> ServerConfig {
    ServerConfig {
        name: name.to_string(),
        transport: ServerTransport::Http {
            url: url.to_string(),
            headers: BTreeMap::from([("Authorization".to_string(), "Bearer t".to_string())]),
            oauth: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    }
}

fn names(store: &Store) -> Vec<String> {
    store
        .servers()
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect()
}

fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("mcplab.db")).unwrap();
    (dir, store)
}

#[test]
fn store_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Store>();
}

#[test]
fn servers_crud_keeps_insertion_order() {
    let (_dir, store) = temp_store();
    assert!(store.servers().unwrap().is_empty());
    store.insert_server(&http("zeta", "http://z")).unwrap();
    store.insert_server(&stdio("alpha", "node")).unwrap();
    store.insert_server(&http("mid", "http://m")).unwrap();
    assert_eq!(names(&store), ["zeta", "alpha", "mid"]);
    assert_eq!(store.server("alpha").unwrap(), stdio("alpha", "node"));

    store.delete_server("alpha").unwrap();
    assert_eq!(names(&store), ["zeta", "mid"]);
    // A new server goes last, even after the end of the list was deleted.
    store.delete_server("mid").unwrap();
    store.insert_server(&stdio("alpha", "deno")).unwrap();
    store.insert_server(&http("mid", "http://m2")).unwrap();
    assert_eq!(names(&store), ["zeta", "alpha", "mid"]);
    assert_eq!(store.server("alpha").unwrap(), stdio("alpha", "deno"));
}

#[test]
fn insert_with_taken_name_conflicts_and_changes_nothing() {
    let (_dir, store) = temp_store();
    store.insert_server(&http("a", "http://one")).unwrap();
    let err = store.insert_server(&stdio("a", "node")).unwrap_err();
    assert!(
        matches!(err, StoreError::Conflict(ref n) if n == "a"),
        "{err:?}"
    );
    assert_eq!(store.servers().unwrap(), [http("a", "http://one")]);
}

#[test]
fn missing_servers_are_not_found() {
    let (_dir, store) = temp_store();
    assert!(matches!(store.server("x"), Err(StoreError::NotFound(_))));
    assert!(matches!(
        store.replace_server("x", &http("x", "http://x")),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.delete_server("x"),
        Err(StoreError::NotFound(_))
    ));
    assert!(store.servers().unwrap().is_empty());
}

#[test]
fn server_order_is_set_whole_or_not_at_all() {
    let (dir, store) = temp_store();
    for n in ["a", "b", "c"] {
        store.insert_server(&http(n, "http://x")).unwrap();
    }
    let order = |ns: &[&str]| ns.iter().map(|n| n.to_string()).collect::<Vec<_>>();

    store.set_server_order(&order(&["c", "a", "b"])).unwrap();
    assert_eq!(names(&store), ["c", "a", "b"]);
    // A new server goes last; a rename keeps its place.
    store.insert_server(&http("d", "http://x")).unwrap();
    store.replace_server("a", &http("a2", "http://x")).unwrap();
    assert_eq!(names(&store), ["c", "a2", "b", "d"]);

    for (wrong, said) in [
        (order(&["c", "a2", "b"]), "missing: d"),
        (order(&["c", "a2", "b", "d", "e"]), "not configured: e"),
        (order(&["c", "a2", "b", "b", "d"]), "named twice: b"),
        (order(&["c", "a", "b", "d"]), "not configured: a"),
    ] {
        let err = store.set_server_order(&wrong).unwrap_err();
        assert!(matches!(err, StoreError::OrderMismatch { .. }), "{err:?}");
        assert!(err.to_string().contains(said), "{err}");
        assert_eq!(names(&store), ["c", "a2", "b", "d"], "nothing changed");
    }
    // The order survives reopening the file.
    store
        .set_server_order(&order(&["d", "b", "a2", "c"]))
        .unwrap();
    drop(store);
    let store = Store::open(&dir.path().join("mcplab.db")).unwrap();
    assert_eq!(names(&store), ["d", "b", "a2", "c"]);
}

#[test]
fn replace_keeps_position_and_may_rename() {
    let (_dir, store) = temp_store();
    store.insert_server(&http("a", "http://a")).unwrap();
    store.insert_server(&http("b", "http://b")).unwrap();
    store.insert_server(&http("c", "http://c")).unwrap();

    store.replace_server("b", &stdio("b", "uvx")).unwrap();
    assert_eq!(names(&store), ["a", "b", "c"]);
    assert_eq!(store.server("b").unwrap(), stdio("b", "uvx"));

    store.replace_server("b", &stdio("renamed", "uvx")).unwrap();
    assert_eq!(names(&store), ["a", "renamed", "c"]);
    assert!(matches!(store.server("b"), Err(StoreError::NotFound(_))));
    assert_eq!(store.server("renamed").unwrap(), stdio("renamed", "uvx"));

    let err = store
        .replace_server("renamed", &http("c", "http://other"))
        .unwrap_err();
    assert!(
        matches!(err, StoreError::Conflict(ref n) if n == "c"),
        "{err:?}"
    );
    assert_eq!(store.server("c").unwrap(), http("c", "http://c"));
    assert_eq!(store.server("renamed").unwrap(), stdio("renamed", "uvx"));
}

#[test]
fn upsert_replaces_in_place_or_appends() {
    let (_dir, store) = temp_store();
    assert!(!store.upsert_server(&http("a", "http://a")).unwrap());
    assert!(!store.upsert_server(&http("b", "http://b")).unwrap());
    assert!(store.upsert_server(&stdio("a", "node")).unwrap());
    assert_eq!(names(&store), ["a", "b"]);
    assert_eq!(store.server("a").unwrap(), stdio("a", "node"));
    let many = [http("b", "http://b2"), http("c", "http://c")];
    assert_eq!(store.upsert_servers(&many).unwrap(), [true, false]);
    assert_eq!(names(&store), ["a", "b", "c"]);
    assert_eq!(store.server("b").unwrap(), http("b", "http://b2"));
}

#[test]
fn settings_and_prefs_round_trip_separately() {
    let (_dir, store) = temp_store();
    assert_eq!(store.setting("llm").unwrap(), None);
    assert!(store.prefs().unwrap().is_empty());

    let llm = json!({"provider": "openai", "models": ["a", "b"], "temperature": 0.5});
    store.set_setting("llm", &llm).unwrap();
    store.set_setting("flag", &json!(true)).unwrap();
    store.set_setting("flag", &json!(false)).unwrap();
    assert_eq!(store.setting("llm").unwrap(), Some(llm));
    assert_eq!(store.setting("flag").unwrap(), Some(json!(false)));

    store.set_pref("theme", &json!("dark")).unwrap();
    store.set_pref("panels", &json!([30, 70])).unwrap();
    store.set_pref("theme", &json!("light")).unwrap();
    store.set_pref("nothing", &json!(null)).unwrap();
    let prefs = store.prefs().unwrap();
    assert_eq!(
        prefs,
        BTreeMap::from([
            ("nothing".to_string(), json!(null)),
            ("panels".to_string(), json!([30, 70])),
            ("theme".to_string(), json!("light")),
        ])
    );
    // The two tables do not share keys.
    assert_eq!(store.setting("theme").unwrap(), None);
    assert!(!prefs.contains_key("llm"));
}

#[test]
fn reopening_keeps_everything_and_is_not_new() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/data/mcplab.db");
    {
        let store = Store::open(&path).unwrap();
        assert!(store.is_new());
        store.insert_server(&http("b", "http://b")).unwrap();
        store.insert_server(&stdio("a", "node")).unwrap();
        store.set_setting("s", &json!({"x": 1})).unwrap();
        store.set_pref("p", &json!("v")).unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert!(!store.is_new());
    assert_eq!(
        store.servers().unwrap(),
        [http("b", "http://b"), stdio("a", "node")]
    );
    assert_eq!(store.setting("s").unwrap(), Some(json!({"x": 1})));
    assert_eq!(store.prefs().unwrap()["p"], json!("v"));
    // A server added after reopening still goes last.
    store.insert_server(&http("c", "http://c")).unwrap();
    assert_eq!(names(&store), ["b", "a", "c"]);
}

#[test]
fn in_memory_store_works_and_is_new() {
    let store = Store::open_in_memory().unwrap();
    assert!(store.is_new());
    store.insert_server(&http("a", "http://a")).unwrap();
    assert_eq!(names(&store), ["a"]);
}

#[test]
fn wal_and_durability_pragmas_are_on() {
    let (dir, store) = temp_store();
    {
        let conn = store.conn.lock();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let sync: i64 = conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        assert_eq!(sync, 2, "synchronous=FULL");
        let fk: i64 = conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, LATEST);
    }
    // WAL is a property of the file: an unrelated connection sees it too.
    let other = Connection::open(dir.path().join("mcplab.db")).unwrap();
    let mode: String = other
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcplab.db");
    drop(Store::open(&path).unwrap());
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", LATEST + 1)
            .unwrap();
        // A rollback-journal file, so that merely switching it to WAL would change its bytes.
        let mode: String = conn
            .query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "delete");
    }
    let before = std::fs::read(&path).unwrap();

    let err = match Store::open(&path) {
        Ok(_) => panic!("a newer schema must not open"),
        Err(e) => e,
    };
    match &err {
        StoreError::NewerSchema { found, known, .. } => {
            assert_eq!((*found, *known), (LATEST + 1, LATEST));
        }
        other => panic!("expected NewerSchema, got {other:?}"),
    }
    assert!(
        err.to_string().contains("created by a newer mcplab"),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "file was modified");
}

#[test]
fn a_file_that_is_not_a_database_fails_to_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcplab.db");
    std::fs::write(&path, vec![b'x'; 4096]).unwrap();
    let err = match Store::open(&path) {
        Ok(_) => panic!("garbage must not open"),
        Err(e) => e,
    };
    assert!(
        matches!(err, StoreError::Open { ref path, .. } if path.ends_with("mcplab.db")),
        "{err:?}"
    );
}

#[test]
fn rows_that_do_not_deserialize_are_corrupt() {
    let (dir, store) = temp_store();
    store.insert_server(&http("ok", "http://ok")).unwrap();
    {
        let conn = Connection::open(dir.path().join("mcplab.db")).unwrap();
        conn.execute(
            "INSERT INTO servers (name, position, config) VALUES ('bad', 99, '{not json')",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO servers (name, position, config) VALUES ('alias', 100, ?1)",
            [serde_json::to_string(&http("other", "http://o")).unwrap()],
        )
        .unwrap();
        conn.execute("INSERT INTO prefs (key, value) VALUES ('p', 'nope')", [])
            .unwrap();
        conn.execute("INSERT INTO settings (key, value) VALUES ('s', '[1,')", [])
            .unwrap();
    }
    assert!(matches!(store.servers(), Err(StoreError::Corrupt(_))));
    assert!(matches!(store.server("bad"), Err(StoreError::Corrupt(_))));
    assert!(matches!(store.server("alias"), Err(StoreError::Corrupt(_))));
    assert_eq!(store.server("ok").unwrap(), http("ok", "http://ok"));
    assert!(matches!(store.prefs(), Err(StoreError::Corrupt(_))));
    assert!(matches!(store.setting("s"), Err(StoreError::Corrupt(_))));
}

/// Set in the child process: the database path it writes to before waiting to be killed.
const WRITER_ENV: &str = "MCPLAB_STORE_TEST_KILLED_WRITER_DB";
const ACKNOWLEDGED: &str = "acknowledged";

#[test]
fn a_killed_process_loses_nothing_acknowledged() {
    if let Some(path) = std::env::var_os(WRITER_ENV) {
        act_as_killed_writer(Path::new(&path));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcplab.db");
    let test_name = format!(
        "{}::a_killed_process_loses_nothing_acknowledged",
        module_path!().split_once("::").unwrap().1
    );
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &test_name, "--nocapture", "--test-threads=1"])
        .env(WRITER_ENV, &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();

    // Read on a thread so a child that never acknowledges fails the test instead of hanging it.
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line.trim() == ACKNOWLEDGED {
                let _ = tx.send(());
                break;
            }
        }
    });
    let acked = rx.recv_timeout(Duration::from_secs(30));
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL).unwrap();
    let status = child.wait().unwrap();
    acked.expect("the writer never acknowledged its writes");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(nix::sys::signal::Signal::SIGKILL as i32),
        "{status:?}"
    );

    // The writes sit in the WAL, not yet checkpointed: reopening must recover them from it.
    assert!(dir.path().join("mcplab.db-wal").exists());
    let store = Store::open(&path).unwrap();
    assert!(!store.is_new());
    assert_eq!(store.servers().unwrap(), [stdio("written", "node")]);
    assert_eq!(store.prefs().unwrap()["theme"], json!("dark"));
}

/// The child's side: write, acknowledge, then wait to be killed without closing the database.
fn act_as_killed_writer(path: &Path) -> ! {
    use std::io::Write;
    let store = Store::open(path).unwrap();
    store.insert_server(&stdio("written", "node")).unwrap();
    store.set_pref("theme", &json!("dark")).unwrap();
    let mut out = std::io::stdout().lock();
    // The harness has already printed "test <name> ... " without a newline; start a fresh line.
    writeln!(out, "\n{ACKNOWLEDGED}").unwrap();
    out.flush().unwrap();
    drop(out);
    std::thread::sleep(Duration::from_secs(120));
    // Never reached in a passing run; exiting without closing keeps the kill's semantics.
    std::process::exit(1);
}

/// A store opened on a file that was last written at schema `version`, with the rows `fill`
/// wrote at that schema; the open has migrated it to the latest version.
fn upgraded_from(version: usize, fill: impl FnOnce(&Connection)) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcplab.db");
    {
        let conn = Connection::open(&path).unwrap();
        for sql in &super::migrations::MIGRATIONS[..version] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", version as i64)
            .unwrap();
        fill(&conn);
    }
    let store = Store::open(&path).unwrap();
    let migrated: i64 = store
        .conn
        .lock()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(migrated, LATEST);
    (dir, store)
}

/// A file last written at schema 5 (before HostConfigs), with a chat session, a turn and app
/// context in it, opens at the latest version with every row intact; the session has no
/// HostConfig yet (the session runtime builds one from its settings).
#[test]
fn upgrading_a_version_5_file_keeps_its_chat_rows() {
    let (_dir, store) = upgraded_from(5, |conn| {
        conn.execute(
            "INSERT INTO chat_sessions (id, title, created_ms, updated_ms, settings, app_context)
             VALUES ('old', 'An old chat', 1, 2, ?1, ?2)",
            [
                r#"{"model":"openai::gpt-4o-mini","servers":["demo"],"stepLimit":3,"requireApproval":true}"#,
                r#"[{"key":"c1:modelContext","server":"demo","tool":"t","callId":"c1","source":"modelContext","content":[],"structuredContent":null,"updatedAtMs":5}]"#,
            ],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO chat_turns (session_id, seq, turn_id, user_text, events, messages)
             VALUES ('old', 1, 't1', 'hello', '[]', '[]')",
            [],
        )
        .unwrap();
    });
    let s = store.session("old").unwrap();
    assert_eq!(s.title, "An old chat");
    assert_eq!(s.settings.step_limit, Some(3));
    assert_eq!(s.settings.require_approval, Some(true));
    assert_eq!(s.host_config, None, "built from the settings when read");
    assert_eq!(
        store.turns::<serde_json::Value>("old").unwrap()[0].0.user,
        "hello"
    );
    assert_eq!(store.app_context("old").unwrap()[0].key, "c1:modelContext");
}

/// A file last written at schema 3 (servers, settings, prefs and OAuth credentials, before
/// playground scenarios), with a row in each table in the JSON shape of that time, opens at
/// the latest version with every row readable.
#[test]
fn upgrading_a_version_3_file_keeps_servers_prefs_and_credentials() {
    let (_dir, store) = upgraded_from(3, |conn| {
        conn.execute_batch(
            r#"INSERT INTO servers (name, position, config) VALUES
                 ('old', 0, '{"name":"old","type":"stdio","command":"node","args":["s.js"]}'),
                 ('remote', 1, '{"name":"remote","type":"http","url":"http://127.0.0.1:9/mcp"}');
               INSERT INTO prefs (key, value) VALUES ('theme', '"dark"');
               INSERT INTO oauth_credentials (server, url, value, updated_ms) VALUES
                 ('remote', 'http://127.0.0.1:9/mcp',
                  '{"serverUrl":"http://127.0.0.1:9/mcp","tokenEndpoint":"http://127.0.0.1:9/token",
                    "client":{"clientId":"c1","method":"dcr"},
                    "tokens":{"accessToken":"at","tokenType":"Bearer"}}', 7);"#,
        )
        .unwrap();
    });
    let names: Vec<String> = store
        .servers()
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["old", "remote"]);
    assert_eq!(store.prefs().unwrap()["theme"], json!("dark"));
    let creds = store
        .oauth_credentials("remote", "http://127.0.0.1:9/mcp")
        .unwrap()
        .expect("the credential survives the upgrade");
    assert_eq!(creds.client.client_id, "c1");
    assert_eq!(creds.tokens.unwrap().access_token, "at");
    assert!(store.scenarios().unwrap().is_empty());
}

/// A file written at every earlier schema (1 up to the one before the latest: each released
/// data directory is one of these) opens at the latest version with its configured server and
/// preferences intact. Migrations only go forward; a new one is covered here automatically.
#[test]
fn every_earlier_schema_upgrades_keeping_servers_and_prefs() {
    for version in 1..LATEST as usize {
        let (_dir, store) = upgraded_from(version, |conn| {
            conn.execute_batch(
                r#"INSERT INTO servers (name, position, config) VALUES
                     ('kept', 0, '{"name":"kept","type":"stdio","command":"node","args":["s.js"]}');
                   INSERT INTO prefs (key, value) VALUES ('theme', '"dark"');"#,
            )
            .unwrap();
        });
        let names: Vec<String> = store
            .servers()
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(
            names,
            ["kept"],
            "servers after upgrading from schema {version}"
        );
        assert_eq!(
            store.prefs().unwrap()["theme"],
            json!("dark"),
            "schema {version}"
        );
    }
}

/// Parallel CLI runs open one fresh data directory at once: every open succeeds (the
/// conformance suite's parallel-isolation scenario once saw "database is locked").
#[test]
fn many_processes_opening_a_fresh_file_at_once_all_succeed() {
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcplab.db");
        let gate = std::sync::Arc::new(std::sync::Barrier::new(12));
        let opens: Vec<_> = (0..12)
            .map(|_| {
                let (path, gate) = (path.clone(), gate.clone());
                std::thread::spawn(move || {
                    gate.wait();
                    Store::open(&path).map(|_| ()).map_err(|e| e.to_string())
                })
            })
            .collect();
        for open in opens {
            open.join().unwrap().unwrap();
        }
    }
}

/// N7 (security review 3): the data directory a store creates is 0700 whatever the umask (it
/// was 0755 under umask 022); one that exists is left alone.
#[test]
fn a_new_data_dir_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("share").join("mcplab");
    let _store = Store::open(&data.join("mcplab.db")).unwrap();
    let mode = std::fs::metadata(&data).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{mode:o}");
    let open = tmp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o750)).unwrap();
    let _store = Store::open(&open.join("mcplab.db")).unwrap();
    let mode = std::fs::metadata(&open).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o750, "{mode:o}");
}

/// A store call, by name, for [`no_store_call_holds_up_the_async_worker`].
type Call = (&'static str, Box<dyn Fn(&Store) + Send + Sync>);

/// Every call that waits for the connection; results are ignored (most find nothing).
fn every_call() -> Vec<Call> {
    let run = super::EvalRunRow {
        id: "r".into(),
        suite_id: "s".into(),
        suite_hash: "h".into(),
        host_hash: "h".into(),
        title: None,
        source: None,
        status: "running".into(),
        started_ms: 1,
        finished_ms: None,
        header: json!({}),
        result: None,
        recording: None,
    };
    vec![
        ("servers", Box::new(|s| drop(s.servers()))),
        ("server", Box::new(|s| drop(s.server("x")))),
        (
            "insert_server",
            Box::new(|s| drop(s.insert_server(&stdio("a", "c")))),
        ),
        (
            "replace_server",
            Box::new(|s| drop(s.replace_server("x", &stdio("x", "c")))),
        ),
        ("delete_server", Box::new(|s| drop(s.delete_server("x")))),
        ("sessions", Box::new(|s| drop(s.sessions()))),
        ("session", Box::new(|s| drop(s.session("x")))),
        ("app_context", Box::new(|s| drop(s.app_context("x")))),
        ("has_turn", Box::new(|s| drop(s.has_turn("x", "t")))),
        ("delete_session", Box::new(|s| drop(s.delete_session("x")))),
        (
            "create_eval_run",
            Box::new(move |s| drop(s.create_eval_run(&run))),
        ),
        ("eval_run", Box::new(|s| drop(s.eval_run("x")))),
        (
            "eval_iteration",
            Box::new(|s| drop(s.eval_iteration("x", "c", "m", 0))),
        ),
        (
            "delete_eval_run",
            Box::new(|s| drop(s.delete_eval_run("x"))),
        ),
        ("setting", Box::new(|s| drop(s.setting("k")))),
        (
            "set_setting",
            Box::new(|s| drop(s.set_setting("k", &json!(1)))),
        ),
        ("prefs", Box::new(|s| drop(s.prefs()))),
        (
            "oauth_credentials",
            Box::new(|s| drop(s.oauth_credentials("x", "u"))),
        ),
        (
            "clear_oauth_credentials",
            Box::new(|s| drop(s.clear_oauth_credentials("x"))),
        ),
        ("scenario", Box::new(|s| drop(s.scenario("x")))),
        (
            "delete_scenario",
            Box::new(|s| drop(s.delete_scenario("x"))),
        ),
    ]
}

/// Route handlers and chat turns call the store from async code. While one call waits for the
/// connection (another holds it, as a slow fsync does), the runtime's only worker must still
/// run other tasks: the wait is handed off the worker (`blocking`).
#[test]
fn no_store_call_holds_up_the_async_worker() {
    let store = std::sync::Arc::new(Store::open_in_memory().unwrap());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    let mut stuck = Vec::new();
    for (name, call) in every_call() {
        let busy = store.conn.lock();
        let (started, call_started) = mpsc::channel();
        let s = store.clone();
        let task = rt.spawn(async move {
            started.send(()).unwrap();
            call(&s);
        });
        call_started
            .recv_timeout(Duration::from_secs(30))
            .expect("the call starts on the worker");
        // The worker is inside the call now; this task runs only if the wait left the worker.
        let (beat, heard) = mpsc::channel();
        rt.spawn(async move { beat.send(()).ok() });
        if heard.recv_timeout(Duration::from_secs(5)).is_err() {
            stuck.push(name);
        }
        drop(busy);
        rt.block_on(task).unwrap();
    }
    assert!(
        stuck.is_empty(),
        "these calls held up the async worker: {stuck:?}"
    );
}
