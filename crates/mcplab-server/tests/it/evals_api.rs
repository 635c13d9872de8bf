//! Tests of `/api/evals` in process: the suites folder confines every read and write to plain
//! files directly inside it (no `..`, no separators, no dot files, no symlinks out of it), a
//! suite that does not load is refused with its line and not written, and stored runs are
//! listed and shown.

use axum::http::StatusCode;
use mcplab_server::router;
use serde_json::json;

use crate::router_support::{authed, state};

fn app() -> axum::Router {
    router(state())
}

const SUITE: &str = "version: 1\nid: s\nmodels: [openai::m]\ncases:\n  - id: a\n    turns: [hi]\n    checks: [answerContains: hi]\n";

#[tokio::test]
async fn suites_are_read_and_written_only_inside_the_folder() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.yaml");
    std::fs::write(&secret, "the secret").unwrap();

    let (s, _) = authed(&app, "GET", "/api/evals/suites", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "no folder yet");
    let (s, _) = authed(
        &app,
        "PUT",
        "/api/evals/folder",
        Some(json!({"folder": "relative/dir"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, v) = authed(
        &app,
        "PUT",
        "/api/evals/folder",
        Some(json!({"folder": dir.path()})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");

    // A symlink in the folder that points out of it is neither listed, read nor written through.
    std::os::unix::fs::symlink(&secret, dir.path().join("leak.yaml")).unwrap();
    let (s, v) = authed(&app, "GET", "/api/evals/suites/leak.yaml", None).await;
    assert_ne!(s, StatusCode::OK, "{v}");
    assert!(!v.to_string().contains("the secret"));
    let (s, _) = authed(
        &app,
        "PUT",
        "/api/evals/suites/leak.yaml",
        Some(json!({"text": SUITE})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "the secret");
    for name in [
        "..%2Fsecret.yaml",
        "%2E%2E%2Fx.yaml",
        ".hidden.yaml",
        "a%2Fb.yaml",
        "x.txt",
    ] {
        let (s, _) = authed(&app, "GET", &format!("/api/evals/suites/{name}"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{name}");
    }

    // A suite that does not load is refused with its line, and not written.
    let (s, v) = authed(
        &app,
        "PUT",
        "/api/evals/suites/s.yaml",
        Some(json!({"text": "version: 1\nid: s\nrepeat: many\ncases: []\n"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v.to_string().contains("3:"), "{v}");
    assert!(!dir.path().join("s.yaml").exists());
    let (s, v) = authed(
        &app,
        "PUT",
        "/api/evals/suites/s.yaml",
        Some(json!({"text": SUITE})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("s.yaml")).unwrap(),
        SUITE
    );
    let (s, v) = authed(&app, "GET", "/api/evals/suites", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v, json!([{"name": "s.yaml", "id": "s"}]));

    let (s, v) = authed(&app, "GET", "/api/evals/runs", None).await;
    assert_eq!((s, v), (StatusCode::OK, json!([])));
    let (s, _) = authed(&app, "GET", "/api/evals/runs/nope", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// The folder picker lists directories under the home only: `..`, an absolute path elsewhere
/// and a symlink leading out are refused; dot directories and symlinks are not offered.
#[tokio::test]
async fn the_folder_picker_lists_only_inside_the_home() {
    let state = state();
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let app = router(state.clone());
    let (s, v) = authed(&app, "GET", "/api/evals/dirs", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "no home known yet: {v}");
    assert!(v.to_string().contains("HOME"), "{v}");
    state.home_dir.set(home.path().to_owned()).unwrap();

    std::fs::create_dir_all(home.path().join("work/evals")).unwrap();
    std::fs::create_dir(home.path().join("Beta")).unwrap();
    std::fs::create_dir(home.path().join(".config")).unwrap();
    std::fs::write(home.path().join("work/evals/a.yaml"), SUITE).unwrap();
    std::fs::write(home.path().join("work/evals/notes.txt"), "x").unwrap();
    std::os::unix::fs::symlink(outside.path(), home.path().join("out")).unwrap();

    let (s, v) = authed(&app, "GET", "/api/evals/dirs", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let root = home.path().canonicalize().unwrap();
    assert_eq!(v["path"], json!(root), "{v}");
    assert_eq!(v["parent"], json!(null), "nothing above the home: {v}");
    assert_eq!(
        v["dirs"],
        json!(["Beta", "work"]),
        "no dot dirs, no symlinks: {v}"
    );

    let (s, v) = authed(&app, "GET", "/api/evals/dirs?path=work%2Fevals", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["suites"], json!(1), "{v}");
    assert_eq!(v["parent"], json!(root.join("work")), "{v}");

    let elsewhere = format!("/api/evals/dirs?path={}", outside.path().display());
    for path in [
        "/api/evals/dirs?path=..".to_owned(),
        "/api/evals/dirs?path=work%2F..%2F..".to_owned(),
        "/api/evals/dirs?path=out".to_owned(),
        "/api/evals/dirs?path=%2F".to_owned(),
        elsewhere,
    ] {
        let (s, v) = authed(&app, "GET", &path, None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{path}: {v}");
        assert!(v.to_string().contains("outside your home"), "{path}: {v}");
    }
}
