//! Rebuilds the crate when the web UI build output changes, so the embedded UI (rust-embed
//! reads `web/dist` when this crate compiles) is never stale or missing after a UI build.
fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
