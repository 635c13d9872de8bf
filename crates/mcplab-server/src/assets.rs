//! The web UI, embedded in the binary from `web/dist` at build time (`build.rs` writes the
//! table; files that gzip well are stored gzipped). A browser that accepts gzip gets those
//! bytes as they are (`Content-Encoding: gzip`), straight from the binary's read-only data; any
//! other client gets them inflated. Unknown paths get `index.html` so client-side routes work.
//! When the UI was not built, a short page says how to build it instead of a bare 404.

use std::io::Read;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};

/// One embedded file of `web/dist`.
struct UiFile {
    /// Relative to `web/dist`, with `/`.
    path: &'static str,
    mime: &'static str,
    /// `body` is gzipped.
    gzip: bool,
    body: &'static [u8],
}

/// Every file of `web/dist`, sorted by path.
static FILES: &[UiFile] = include!(concat!(env!("OUT_DIR"), "/ui_files.rs"));

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>mcplab</title>\
<body style=\"font-family:sans-serif;max-width:40em;margin:4em auto\"><h1>mcplab</h1>\
<p>The web UI was not built into this binary. Build it with <code>scripts/build.sh</code> \
(or <code>npm --prefix web ci &amp;&amp; npm --prefix web run build</code>) and rebuild mcplab.</p>";

fn find(path: &str) -> Option<&'static UiFile> {
    FILES
        .binary_search_by(|f| f.path.cmp(path))
        .ok()
        .map(|i| &FILES[i])
}

pub(crate) async fn serve(headers: HeaderMap, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return (StatusCode::NOT_FOUND, "no such API route").into_response();
    }
    let name = if path.is_empty() { "index.html" } else { path };
    let Some(file) = find(name) else {
        return index(&headers);
    };
    // Hashed assets never change; index.html must always be revalidated.
    let cache = if name.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = body(file, &headers);
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(file.mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

/// The UI's `index.html` (client-side routes, the sign-in page), or how to build it.
pub(crate) fn index(headers: &HeaderMap) -> Response {
    match find("index.html") {
        Some(file) => {
            let mut response = body(file, headers);
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            response
        }
        None => Html(NOT_BUILT).into_response(),
    }
}

/// The file's bytes: as stored for a client that accepts gzip, inflated for one that does not.
fn body(file: &'static UiFile, headers: &HeaderMap) -> Response {
    if !file.gzip {
        return Body::from(Bytes::from_static(file.body)).into_response();
    }
    let vary = [(header::VARY, HeaderValue::from_static("accept-encoding"))];
    if accepts_gzip(headers) {
        let encoding = (header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        return (vary, [encoding], Bytes::from_static(file.body)).into_response();
    }
    let mut plain = Vec::new();
    match flate2::read::GzDecoder::new(file.body).read_to_end(&mut plain) {
        Ok(_) => (vary, plain).into_response(),
        // The build wrote these bytes with flate2; failing to read them back is a bug.
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the embedded file {} is damaged: {e}", file.path),
        )
            .into_response(),
    }
}

/// Whether `Accept-Encoding` names gzip (or `*`) without `q=0`.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        h
    }

    #[test]
    fn gzip_is_taken_only_when_accepted() {
        assert!(accepts_gzip(&with("gzip, deflate, br, zstd")));
        assert!(accepts_gzip(&with("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts_gzip(&with("*")));
        assert!(!accepts_gzip(&with("gzip;q=0")));
        assert!(!accepts_gzip(&with("br, deflate")));
        assert!(!accepts_gzip(&with("identity")));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn the_table_is_sorted_so_lookups_find_every_file() {
        for file in FILES {
            assert!(
                std::ptr::eq(find(file.path).unwrap(), file),
                "{}",
                file.path
            );
        }
    }

    async fn bytes_of(response: Response) -> Vec<u8> {
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await;
        body.unwrap().to_vec()
    }

    /// Every file of `web/dist` comes out byte for byte: gzipped to a browser, as it is to a
    /// client without gzip. Needs the UI built (`npm --prefix web run build`), as the browser
    /// tests do.
    #[tokio::test]
    async fn every_ui_file_is_served_as_built_with_and_without_gzip() {
        let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
        assert!(
            FILES.iter().any(|f| f.gzip) && dist.is_dir(),
            "build the web UI first (npm --prefix web run build), then rerun"
        );
        for file in FILES {
            let want = std::fs::read(dist.join(file.path)).unwrap();
            let uri: Uri = format!("/{}", file.path).parse().unwrap();
            let plain = serve(HeaderMap::new(), uri.clone()).await;
            assert_eq!(plain.headers().get(header::CONTENT_ENCODING), None);
            assert_eq!(bytes_of(plain).await, want, "{}", file.path);
            let zipped = serve(with("gzip, deflate, br"), uri).await;
            let encoding = zipped.headers().get(header::CONTENT_ENCODING).cloned();
            let mut got = bytes_of(zipped).await;
            if file.gzip {
                assert_eq!(encoding.unwrap(), "gzip", "{}", file.path);
                let mut inflated = Vec::new();
                flate2::read::GzDecoder::new(&got[..])
                    .read_to_end(&mut inflated)
                    .unwrap();
                got = inflated;
            }
            assert_eq!(got, want, "{}", file.path);
        }
    }
}
