//! Embeds the vendored MCP JSON Schemas (`src/spec/schema/*.json`, 0.64 MB as published) in
//! the binary minified and gzipped (61 KB): `$OUT_DIR/<revision>.json.gz`, inflated by
//! `spec::schema` when a check loads a revision. Reruns when a schema file changes.
use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/spec/schema");
    println!("cargo:rerun-if-changed={}", dir.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for entry in std::fs::read_dir(&dir).expect("read src/spec/schema") {
        let path = entry.expect("read src/spec/schema").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read(&path).expect("read a schema file");
        let value: serde_json::Value =
            serde_json::from_slice(&text).expect("a vendored schema is JSON");
        let minified = serde_json::to_vec(&value).expect("JSON serialises");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&minified).expect("gzip in memory");
        let name = path.file_name().expect("a file name").to_string_lossy();
        std::fs::write(
            out.join(format!("{name}.gz")),
            enc.finish().expect("gzip in memory"),
        )
        .expect("write into OUT_DIR");
    }
}
