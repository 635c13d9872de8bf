//! Embeds the web UI build (`web/dist`) into the binary: every file becomes an entry of a
//! generated, path-sorted table (`$OUT_DIR/ui_files.rs`) with its MIME type, and files that
//! gzip well are stored gzipped (browsers take them as they are; `assets.rs` inflates for a
//! client that does not accept gzip). The UI is a quarter of its size in the binary this way,
//! and serving it copies nothing. Reruns when the UI build output changes, so the embedded UI
//! is never stale. No `web/dist` → an empty table (the server then says how to build it).
//!
//! A packaged crate (`cargo package`, then `cargo install` without Node) has no `web/dist`
//! beside it: `scripts/package.sh` copies the built UI into the crate as `ui-dist/`, which
//! is read first when present.
use std::io::Write;
use std::path::{Path, PathBuf};

/// Files smaller than this are stored as they are: gzip would not pay for its header.
const MIN_GZIP: usize = 1024;

fn main() {
    let dist = ui_dir();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut files = Vec::new();
    if dist.is_dir() {
        collect(&dist, &dist, &mut files);
    }
    files.sort();
    let mut table = String::from("&[\n");
    for (i, rel) in files.iter().enumerate() {
        let bytes = std::fs::read(dist.join(rel)).expect("read a web/dist file");
        let (body, gzip) = maybe_gzip(&bytes);
        let stored = out.join(format!("ui_{i}"));
        std::fs::write(&stored, body).expect("write into OUT_DIR");
        let mime = mime_guess::from_path(rel).first_or_octet_stream();
        table.push_str(&format!(
            "    UiFile {{ path: {rel:?}, mime: {:?}, gzip: {gzip}, body: include_bytes!({:?}) }},\n",
            mime.essence_str(),
            stored.display().to_string(),
        ));
    }
    table.push(']');
    std::fs::write(out.join("ui_files.rs"), table).expect("write the UI table");
}

/// `ui-dist/` inside the crate (the UI packaged with it) when it exists, else the checkout's
/// `web/dist`. `ui-dist/` is watched only while it exists: cargo reruns a build script on every
/// build while a watched path is missing.
fn ui_dir() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let packaged = crate_dir.join("ui-dist");
    let checkout = crate_dir.join("../../web/dist");
    println!("cargo:rerun-if-changed={}", checkout.display());
    if packaged.is_dir() {
        println!("cargo:rerun-if-changed={}", packaged.display());
        if checkout.is_dir() {
            println!(
                "cargo:warning=embedding the packaged UI in {} rather than web/dist: remove it \
                 (scripts/package.sh left it behind) to embed the UI you build",
                packaged.display()
            );
        }
        return packaged;
    }
    checkout
}

/// Relative paths (with `/`) of every file under `dir`.
fn collect(root: &Path, dir: &Path, files: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("read web/dist") {
        let path = entry.expect("read web/dist").path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let parts: Vec<_> = rel.iter().map(|p| p.to_string_lossy()).collect();
            files.push(parts.join("/"));
        }
    }
}

/// The gzipped bytes when that saves at least a tenth, else the bytes as they are.
fn maybe_gzip(bytes: &[u8]) -> (Vec<u8>, bool) {
    if bytes.len() < MIN_GZIP {
        return (bytes.to_vec(), false);
    }
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).expect("gzip in memory");
    let gz = enc.finish().expect("gzip in memory");
    if gz.len() * 10 <= bytes.len() * 9 {
        (gz, true)
    } else {
        (bytes.to_vec(), false)
    }
}
