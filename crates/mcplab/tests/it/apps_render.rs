//! Black-box tests of `mcplab apps render`: the real binary, real Chromium (`/usr/bin/chromium`
//! or `MCPLAB_CHROMIUM`), the web UI's real render page (from `web/dist`), against the demo
//! server's counter and broken apps and the published `@modelcontextprotocol/server-basic-
//! vanillajs` example over stdio. Each run gets its own data dir and TMPDIR; afterwards no
//! Chromium profile is left there and no process still refers to it (nothing orphaned).

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use serde_json::Value;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn chromium() -> String {
    let path = std::env::var("MCPLAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&path).is_file(),
        "these tests need Chromium at {path} (apt-get install chromium)"
    );
    path
}

fn demo() -> String {
    format!("{BIN} demo-server")
}

fn npm_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/npm")
}

struct Run {
    output: Output,
    dir: tempfile::TempDir,
}

impl Run {
    fn code(&self) -> i32 {
        self.output.status.code().unwrap_or(-1)
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn report(&self) -> Value {
        let text = std::fs::read_to_string(self.path("shot.png.json"))
            .unwrap_or_else(|e| panic!("no report ({e}); stderr: {}", self.stderr()));
        serde_json::from_str(&text).unwrap()
    }
    fn png(&self) -> Vec<u8> {
        std::fs::read(self.path("shot.png")).unwrap()
    }
    fn context(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code(),
            self.stdout(),
            self.stderr()
        )
    }
}

/// Runs `mcplab apps render … --out <dir>/shot.png` with its own data dir and TMPDIR, then
/// checks that nothing of Chromium is left behind.
async fn render(args: &[&str]) -> Run {
    render_in(args, |_| {}).await
}

/// [`render`] after `setup` prepared the data directory (e.g. a host profile of one's own).
async fn render_in(args: &[&str], setup: impl FnOnce(&Path)) -> Run {
    let dir = tempfile::tempdir().unwrap();
    setup(&dir.path().join("data"));
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("shot.png");
    let output = Command::new(BIN)
        .args(["apps", "render"])
        .args(args)
        .arg("--out")
        .arg(&out)
        .env("MCPLAB_DATA_DIR", dir.path().join("data"))
        .env("TMPDIR", &tmp)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("mcplab runs")
        .wait_with_output();
    let output = tokio::time::timeout(Duration::from_secs(120), output)
        .await
        .expect("mcplab apps render finished in time")
        .unwrap();
    let run = Run { output, dir };
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.is_empty(),
        "left in TMPDIR: {left:?}\n{}",
        run.context()
    );
    assert_eq!(processes_mentioning(&tmp), Vec::<String>::new(), "orphans");
    run
}

/// Command lines of live processes that mention `needle` (Chromium's profile path).
fn processes_mentioning(needle: &Path) -> Vec<String> {
    let needle = needle.to_string_lossy().into_owned();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&needle))
        .collect()
}

/// Width and height from the PNG signature and IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.len() > 24, "too short for a PNG: {} bytes", png.len());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&png[12..16], b"IHDR", "IHDR first");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    (w, h)
}

fn has_bridge_method(report: &Value, method: &str) -> bool {
    report["bridgeMessages"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["method"] == method)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_counter_app_renders_on_a_dark_japanese_phone() {
    let (c, d) = (chromium(), demo());
    let run = render(&[
        "--chromium",
        &c,
        "--stdio",
        &d,
        "--tool",
        "show_counter_app",
        "--device",
        "mobile",
        "--theme",
        "dark",
        "--locale",
        "ja-JP",
    ])
    .await;
    assert_eq!(run.code(), 0, "{}", run.context());
    let (w, h) = png_size(&run.png());
    assert_eq!(w, 430, "{}", run.context());
    assert!((1..=932).contains(&h), "height {h}");

    let r = run.report();
    assert_eq!(r["initialized"], true, "{r:#}");
    assert_eq!(r["error"], Value::Null, "{r:#}");
    assert!(has_bridge_method(&r, "ui/initialize"), "{r:#}");
    assert_eq!(r["hostContext"]["locale"], "ja-JP", "{r:#}");
    assert_eq!(r["hostContext"]["theme"], "dark", "{r:#}");
    assert_eq!(r["toolResult"]["structuredContent"]["count"], 0, "{r:#}");
    assert_eq!(r["appErrors"], serde_json::json!([]));
    assert_eq!(r["png"]["width"], 430);
    assert_eq!(r["png"]["height"], h);
    assert_eq!(r["spec"]["width"], 430);
    assert_eq!(r["spec"]["height"], 932);
    assert_eq!(r["spec"]["conditions"]["deviceType"], "mobile");
    assert_eq!(r["spec"]["conditions"]["touch"], true);
    assert_eq!(r["spec"]["conditions"]["hover"], false);

    let out = run.stdout();
    assert!(out.contains("initialized:      yes"), "{out}");
    assert!(out.contains("shot.png (430x"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_published_example_app_renders_with_its_tool_result() {
    let script =
        npm_dir().join("node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js");
    assert!(
        script.exists(),
        "server-basic-vanillajs is not installed: run `npm ci` in tests/npm"
    );
    let stdio = format!("node {} --stdio", script.display());
    let c = chromium();
    let run = render(&[
        "--chromium",
        &c,
        "--stdio",
        &stdio,
        "--tool",
        "get-time",
        "--json",
    ])
    .await;
    assert_eq!(run.code(), 0, "{}", run.context());
    // --json prints the report that was written.
    let printed: Value = serde_json::from_str(&run.stdout()).expect("JSON on stdout");
    assert_eq!(printed, run.report());
    let r = run.report();
    assert_eq!(r["initialized"], true, "{r:#}");
    assert!(r["toolResult"].is_object(), "{r:#}");
    assert_eq!(r["toolError"], Value::Null);
    let (w, _) = png_size(&run.png());
    assert_eq!(w, 1280, "desktop width");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_that_throws_at_load_fails_the_run() {
    let (c, d) = (chromium(), demo());
    let run = render(&[
        "--chromium",
        &c,
        "--stdio",
        &d,
        "--tool",
        "show_broken_app",
        // Generous for a loaded CI machine: the render page ends as soon as the app has thrown
        // before initializing, so a passing run takes a few seconds, not this long.
        "--timeout",
        "30",
    ])
    .await;
    assert_eq!(run.code(), 1, "{}", run.context());
    let r = run.report();
    assert_eq!(r["initialized"], false, "{r:#}");
    let errors = r["appErrors"].as_array().unwrap();
    assert!(
        errors.iter().any(|e| e["message"]
            .as_str()
            .is_some_and(|m| m.contains("failed on purpose at load"))),
        "{r:#}"
    );
    // The screenshot is still written: it shows what the user would have seen.
    png_size(&run.png());
    assert!(
        run.stdout().contains("initialized:      no"),
        "{}",
        run.context()
    );
    assert!(run.stderr().contains("error: the app"), "{}", run.context());
}

#[tokio::test]
async fn a_missing_chromium_is_a_usage_error_that_says_what_to_do() {
    let d = demo();
    let run = render(&[
        "--chromium",
        "/nonexistent/chromium",
        "--stdio",
        &d,
        "--tool",
        "show_counter_app",
    ])
    .await;
    assert_eq!(run.code(), 2, "{}", run.context());
    let err = run.stderr();
    assert!(
        err.contains("Chromium not found at /nonexistent/chromium")
            && err.contains("install the `chromium` package or pass --chromium PATH"),
        "{err}"
    );
    assert!(!run.path("shot.png").exists());
}

#[tokio::test]
async fn the_help_documents_the_exit_codes() {
    let o = Command::new(BIN)
        .args(["apps", "render", "--help"])
        .output()
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Exit codes: 0 the app initialized"), "{text}");
    for flag in [
        "--device",
        "--rotate",
        "--theme",
        "--csp",
        "--chromium",
        "--report",
    ] {
        assert!(text.contains(flag), "{flag} in {text}");
    }
}

/// `--host`: the app gets the display modes and the MCP Apps host capabilities the host profile
/// offers and, for a host that gives MCP Apps `window.openai`, the shim; a display mode the host
/// does not offer is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_rendered_under_two_host_profiles_gets_what_each_declares() {
    let (c, d) = (chromium(), demo());
    let args = [
        "--chromium",
        &c,
        "--stdio",
        &d,
        "--tool",
        "show_counter_app",
    ];
    let narrow = |data: &Path| {
        std::fs::create_dir_all(data.join("hosts")).unwrap();
        let profile = r#"{"name": "narrow", "appHost": {"displayModes": ["inline"], "windowOpenai": true,
                "hostCapabilities": {"openLinks": false, "downloadFile": false, "message": null}}}"#;
        std::fs::write(data.join("hosts/narrow.json"), profile).unwrap();
    };
    let runs = [
        render_in(&[&args[..], &["--host", "mcplab"]].concat(), |_| {}).await,
        render_in(&[&args[..], &["--host", "narrow"]].concat(), narrow).await,
    ];
    let reports: Vec<Value> = runs
        .iter()
        .map(|run| {
            assert_eq!(run.code(), 0, "{}", run.context());
            run.report()
        })
        .collect();
    let modes = |r: &Value| r["hostContext"]["availableDisplayModes"].clone();
    assert_eq!(
        modes(&reports[0]),
        serde_json::json!(["inline", "fullscreen", "pip"]),
        "{:#}",
        reports[0]
    );
    assert_eq!(
        modes(&reports[1]),
        serde_json::json!(["inline"]),
        "{:#}",
        reports[1]
    );
    // The hostCapabilities the host sent in its ui/initialize answer (read off the bridge):
    // mcplab's own, then exactly the profile's.
    let caps = |r: &Value| {
        let mut keys: Vec<String> = r["hostCapabilities"]
            .as_object()
            .unwrap_or_else(|| panic!("no hostCapabilities in {r:#}"))
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    };
    assert_eq!(
        caps(&reports[0]),
        [
            "downloadFile",
            "logging",
            "message",
            "openLinks",
            "sandbox",
            "serverResources",
            "serverTools",
            "updateModelContext"
        ]
    );
    assert_eq!(
        caps(&reports[1]),
        [
            "logging",
            "sandbox",
            "serverResources",
            "serverTools",
            "updateModelContext"
        ]
    );
    assert_eq!(reports[0]["spec"]["conditions"]["openaiShim"], false);
    assert_eq!(reports[1]["spec"]["conditions"]["openaiShim"], true);
    let refused = render_in(
        &[
            &args[..],
            &["--host", "narrow", "--display-mode", "fullscreen"],
        ]
        .concat(),
        narrow,
    )
    .await;
    assert_eq!(refused.code(), 2, "{}", refused.context());
    assert!(
        refused.stderr().contains("offers the display modes"),
        "{}",
        refused.context()
    );
}
