//! The headless renderer against real Chromium (`/usr/bin/chromium`, or `MCPLAB_CHROMIUM`)
//! and a stand-in render page served on loopback: sign-in redirect with a one-time code, the
//! spec fetched by the page (never in the URL), device emulation, the report awaited, the screenshot clipped to the app box, top-page errors
//! collected (and an iframe's not), a page without a report, and a missing binary. Chromium's
//! profile lives under a temp dir of the test's own, checked empty afterwards (nothing leaked).

use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::{AppHostProfile, DeviceKind, ThemeChoice};
use mcplab_protocol::host_conditions::{HostConditions, Viewer};
use mcplab_render::{RenderError, png_size, render};
use serde_json::{Value, json};

const CODE: &str = "render-test-code";

fn chromium() -> PathBuf {
    let path = std::env::var_os("MCPLAB_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    assert!(
        path.is_file(),
        "these tests need Chromium at {} (apt-get install chromium)",
        path.display()
    );
    path
}

/// The stand-in for the web UI's render page: fetches the spec it was given, shows a box of
/// the spec's width and 300 px high, logs an error from the top page and from an iframe, and
/// publishes a report of what it saw. `with_report: false` publishes nothing.
const PAGE: &str = r#"<!doctype html><meta charset=utf-8>
<meta name="viewport" content="width=device-width, initial-scale=1"><body style="margin:0">
<script>
(async () => {
const spec = await (await fetch('/spec')).json();
const box = document.createElement('div');
box.dataset.testid = 'render-app';
box.style.cssText = `width:${spec.width}px;height:300px;background:rgb(10,200,30)`;
document.body.append(box);
const frame = document.createElement('iframe');
frame.srcdoc = '<script>console.error("from the iframe")<\/script>';
frame.style.display = 'none';
document.body.append(frame);
console.error('top page says', 42);
if (WITH_REPORT) {
  window.__mcplabRenderReport = new Promise(resolve => setTimeout(() => resolve({
    initialized: true, error: null, appErrors: [], spec,
    innerWidth: innerWidth, innerHeight: innerHeight,
    maxTouchPoints: navigator.maxTouchPoints,
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }), 300));
}
setTimeout(() => { throw new Error('late top-page failure'); }, 0);
})();
</script>"#;

#[derive(serde::Deserialize)]
struct AuthQuery {
    code: String,
    next: String,
}

async fn auth(Query(q): Query<AuthQuery>) -> Response {
    if q.code != CODE || !q.next.starts_with("/#/render/") {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    Redirect::to(&q.next).into_response()
}

/// The URL the renderer opens on `origin`: the stand-in's sign-in, then its render page.
fn url(origin: &str) -> String {
    format!("{origin}/auth?code={CODE}&next=%2F%23%2Frender%2Fsome-id")
}

async fn serve(with_report: bool, spec: &AppRenderSpec) -> String {
    async fn page(State((with_report, _)): State<(bool, Value)>) -> Html<String> {
        Html(PAGE.replace("WITH_REPORT", &with_report.to_string()))
    }
    async fn spec_json(State((_, spec)): State<(bool, Value)>) -> axum::Json<Value> {
        axum::Json(spec)
    }
    let app = Router::new()
        .route("/auth", get(auth))
        .route("/", get(page))
        .route("/spec", get(spec_json))
        .with_state((with_report, json!(spec)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

fn spec(
    width: u32,
    height: u32,
    conditions: HostConditions,
    timeout_ms: Option<u64>,
) -> AppRenderSpec {
    AppRenderSpec {
        server: "demo".into(),
        tool: "show_counter_app".into(),
        arguments: json!({"by": 2}),
        conditions,
        width,
        height,
        timeout_ms,
        without_call: false,
    }
}

fn desktop() -> HostConditions {
    HostConditions::for_app_host(&AppHostProfile::default(), &Viewer::headless())
}

/// Chromium profiles are created under one temp dir of this test binary's own (tempfile's
/// process-wide override), so a leaked one can be seen; tests that start Chromium hold
/// [`ONE_BROWSER`] so they do not see each other's live profile.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn own_tmpdir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR
        .get_or_init(|| {
            let dir =
                std::env::temp_dir().join(format!("mcplab-render-test-{}", std::process::id()));
            let _ = tempfile::env::override_temp_dir(&dir);
            dir
        })
        .clone();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts nothing of Chromium is left in `dir`, then removes it (the next test makes it anew).
fn assert_clean_and_remove(dir: &std::path::Path) {
    assert_eq!(chromium_profiles_left(dir), Vec::<String>::new());
    std::fs::remove_dir(dir).expect("the temp dir is empty");
}

fn chromium_profiles_left(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("mcplab-chromium-"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renders_the_page_in_the_emulated_device_and_clips_to_the_app_box() {
    let _one = ONE_BROWSER.lock().await;
    let tmp = own_tmpdir();
    let mobile = AppHostProfile {
        device: DeviceKind::Mobile,
        theme: ThemeChoice::Dark,
        time_zone: Some("Asia/Tokyo".into()),
        ..AppHostProfile::default()
    };
    let conditions = HostConditions::for_app_host(&mobile, &Viewer::headless());
    let spec = spec(430, 932, conditions, Some(5_000));
    let origin = serve(true, &spec).await;
    let out = render(&chromium(), &url(&origin), &spec).await.unwrap();

    assert_eq!(png_size(&out.png), Some((430, 300)), "{}", out.report);
    let r = &out.report;
    assert_eq!(r["initialized"], true);
    assert_eq!(r["spec"]["arguments"], json!({"by": 2}), "{r}");
    assert_eq!(r["spec"]["conditions"]["theme"], "dark");
    assert_eq!(r["innerWidth"], 430, "{r}");
    assert_eq!(r["innerHeight"], 932, "{r}");
    assert!(r["maxTouchPoints"].as_u64().unwrap() > 0, "{r}");
    assert_eq!(r["dark"], true, "{r}");
    assert_eq!(r["timeZone"], "Asia/Tokyo", "{r}");
    // Chromium keeps its sandbox where it can; as root it cannot, and the report says so.
    let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata("/proc/self").unwrap());
    if uid == 0 {
        assert_eq!(r["chromiumSandbox"], false, "{r}");
        assert!(
            r["warnings"][0].as_str().unwrap().contains("--no-sandbox"),
            "{r}"
        );
    } else {
        assert_eq!(r["chromiumSandbox"], true, "{r}");
    }

    let errors = r["pageErrors"].as_array().unwrap();
    let messages: Vec<&str> = errors
        .iter()
        .filter_map(|e| e["message"].as_str())
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e["kind"] == "console" && e["message"] == "top page says 42"),
        "{messages:?}"
    );
    assert!(
        errors.iter().any(|e| e["kind"] == "exception"
            && e["message"]
                .as_str()
                .unwrap()
                .contains("late top-page failure")),
        "{messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("from the iframe")),
        "{messages:?}"
    );
    assert_clean_and_remove(&tmp);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_without_a_report_is_a_clear_error_not_a_hang() {
    let _one = ONE_BROWSER.lock().await;
    let tmp = own_tmpdir();
    let spec = spec(800, 600, desktop(), Some(500));
    let origin = serve(false, &spec).await;
    // "Not a hang": a deadline around the call, not a measured time.
    let err = tokio::time::timeout(
        Duration::from_secs(20),
        render(&chromium(), &url(&origin), &spec),
    )
    .await
    .expect("a clear error within 20 s, not a hang")
    .unwrap_err();
    assert!(matches!(err, RenderError::NoReport { .. }), "{err}");
    // Core says what happened; how to rebuild the UI is the edges' advice.
    let text = err.to_string();
    assert!(text.contains("has no render page"), "{text}");
    assert!(!text.contains("npm"), "{text}");
    assert_clean_and_remove(&tmp);
}

#[tokio::test]
async fn a_missing_chromium_names_the_path_it_tried() {
    let missing = PathBuf::from("/nonexistent/chromium");
    let err = render(
        &missing,
        &url("http://127.0.0.1:1"),
        &spec(1, 1, desktop(), None),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, RenderError::ChromiumNotFound { .. }), "{err}");
    let text = err.to_string();
    // The path, and no flag of a binary: the CLI and the server add their own advice.
    assert!(text.contains("/nonexistent/chromium"), "{text}");
    assert!(!text.contains("--chromium"), "{text}");
}

/// The stand-in render page that waits for the test: it asks `/hold` (answered only once the
/// test released it) before it publishes its report, so Chromium is alive while the test looks
/// at it.
const HOLDING_PAGE: &str = r#"<!doctype html><meta charset=utf-8><body>
<div data-testid="render-app" style="width:100px;height:100px;background:#0a0"></div>
<script>
window.__mcplabRenderReport = fetch('/hold').then(r => r.text()).then(t => ({ initialized: true, error: null, held: t }));
</script>"#;

struct Hold {
    reached: tokio::sync::Notify,
    release: tokio::sync::Notify,
}

async fn serve_holding(hold: std::sync::Arc<Hold>) -> String {
    async fn held(State(hold): State<std::sync::Arc<Hold>>) -> &'static str {
        hold.reached.notify_one();
        hold.release.notified().await;
        "released"
    }
    let app = Router::new()
        .route("/auth", get(auth))
        .route("/", get(|| async { Html(HOLDING_PAGE) }))
        .route("/hold", get(held))
        .with_state(hold);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

/// Pids of the processes whose command line names `dir` (Chromium's, by its profile path).
fn processes_naming(dir: &std::path::Path) -> Vec<(u32, String)> {
    let needle = dir.display().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .filter_map(|pid| {
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
            cmdline.contains(&needle).then_some((pid, cmdline))
        })
        .collect()
}

/// Inodes of the TCP sockets in LISTEN state on this machine.
fn listening_socket_inodes() -> std::collections::HashSet<String> {
    let mut inodes = std::collections::HashSet::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.get(3) == Some(&"0A") {
                inodes.insert(fields[9].to_owned());
            }
        }
    }
    inodes
}

/// Socket inodes among the open file descriptors of `pid`.
fn socket_inodes_of(pid: u32) -> Vec<String> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|target| {
            let t = target.to_string_lossy().into_owned();
            t.strip_prefix("socket:[")
                .and_then(|s| s.strip_suffix(']'))
                .map(str::to_owned)
        })
        .collect()
}

/// Review finding 5: another local user read the launch token through the renderer's
/// unauthenticated DevTools TCP port. Chromium must be driven over a pipe, listen on no TCP
/// port, and carry no secret on its command line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_gets_no_secret_in_argv_and_listens_on_no_devtools_port() {
    let _one = ONE_BROWSER.lock().await;
    let tmp = own_tmpdir();
    let hold = std::sync::Arc::new(Hold {
        reached: tokio::sync::Notify::new(),
        release: tokio::sync::Notify::new(),
    });
    let origin = serve_holding(hold.clone()).await;
    let spec = spec(200, 200, desktop(), Some(15_000));
    let running = tokio::spawn({
        let spec = spec.clone();
        async move { render(&chromium(), &url(&origin), &spec).await }
    });
    tokio::time::timeout(Duration::from_secs(30), hold.reached.notified())
        .await
        .expect("the page loaded and asked /hold");

    let processes = processes_naming(&tmp);
    assert!(!processes.is_empty(), "Chromium's processes were found");
    let listening = listening_socket_inodes();
    for (pid, cmdline) in &processes {
        let open: Vec<String> = socket_inodes_of(*pid)
            .into_iter()
            .filter(|i| listening.contains(i))
            .collect();
        assert!(open.is_empty(), "pid {pid} listens on TCP: {cmdline}");
        assert!(
            !cmdline.contains(CODE),
            "the login code is in argv: {cmdline}"
        );
        assert!(
            !cmdline.contains("--remote-debugging-port"),
            "a DevTools TCP port was asked for: {cmdline}"
        );
    }
    hold.release.notify_one();
    let out = tokio::time::timeout(Duration::from_secs(30), running)
        .await
        .expect("the render finishes")
        .unwrap()
        .unwrap();
    assert_eq!(out.report["held"], "released", "{}", out.report);
    assert_clean_and_remove(&tmp);
}
