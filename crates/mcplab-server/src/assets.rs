//! The web UI, embedded in the binary from `web/dist` at build time (read from disk in debug
//! builds). Unknown paths get `index.html` so client-side routes work. When the UI was not
//! built, a short page says how to build it instead of a bare 404.

use axum::http::{StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct Ui;

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>mcplab</title>\
<body style=\"font-family:sans-serif;max-width:40em;margin:4em auto\"><h1>mcplab</h1>\
<p>The web UI was not built into this binary. Build it with <code>scripts/build.sh</code> \
(or <code>npm --prefix web ci &amp;&amp; npm --prefix web run build</code>) and rebuild mcplab.</p>";

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return (StatusCode::NOT_FOUND, "no such API route").into_response();
    }
    let file = if path.is_empty() { "index.html" } else { path };
    if let Some(content) = Ui::get(file) {
        let mime = content.metadata.mimetype().to_owned();
        // Hashed assets never change; index.html must always be revalidated.
        let cache = if file.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, cache.to_owned()),
            ],
            content.data.into_owned(),
        )
            .into_response();
    }
    index()
}

/// The UI's `index.html` (client-side routes, the sign-in page), or how to build it.
pub fn index() -> Response {
    match Ui::get("index.html") {
        Some(index) => Html(index.data.into_owned()).into_response(),
        None => Html(NOT_BUILT).into_response(),
    }
}
