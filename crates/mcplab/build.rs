//! Names the commit this binary was built from, for `mcplab --version`: sets
//! `MCPLAB_BUILD_COMMIT` for the crate. Where it comes from, first found wins: the
//! `MCPLAB_COMMIT` environment variable (a packager building from a source archive), the
//! `.cargo_vcs_info.json` that `cargo package` writes into a packaged crate (a `cargo install`
//! from the crate sources, where `git` would see no repository or the wrong one), then
//! `git rev-parse HEAD` in a checkout; else "unknown commit". It must not fail the build:
//! a version string is never worth a broken install.
//!
//! On x86_64 Linux release builds linked by rust-lld (rustc's default linker there since 1.90)
//! it also hands the linker `link-order.txt` (`--symbol-ordering-file`): the functions the
//! one-shot CLI commands run, placed side by side, so a short command maps a few MiB of the
//! binary instead of half of it (`scripts/link_order.py` writes the file and says why). Any other
//! linker, target or profile builds without it; `MCPLAB_LINK_ORDER=0` turns it off.
use std::path::{Path, PathBuf};
use std::process::Command;

/// Hex digits shown, as `git log --oneline` would with a long abbreviation.
const SHORT: usize = 12;

fn main() {
    println!("cargo:rerun-if-env-changed=MCPLAB_COMMIT");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let commit = from_env()
        .or_else(|| from_vcs_info(&manifest))
        .or_else(|| from_git(&manifest))
        .map(|sha| sha.chars().take(SHORT).collect::<String>())
        .unwrap_or_else(|| "unknown commit".to_owned());
    println!("cargo:rustc-env=MCPLAB_BUILD_COMMIT={commit}");
    link_order(&manifest);
}

/// Passes `link-order.txt` to rust-lld for the `mcplab` binary (see the module doc). Names the
/// linker does not find (a stale file) are skipped without a warning: the build never fails on it.
fn link_order(manifest: &Path) {
    let file = manifest.join("link-order.txt");
    println!("cargo:rerun-if-changed={}", file.display());
    println!("cargo:rerun-if-env-changed=MCPLAB_LINK_ORDER");
    let wanted = std::env::var("MCPLAB_LINK_ORDER").as_deref() != Ok("0");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    if wanted && release && file.exists() && links_with_rust_lld() {
        let arg = "cargo:rustc-link-arg-bin=mcplab=-Wl";
        println!("{arg},--symbol-ordering-file={}", file.display());
        println!("{arg},--no-warn-symbol-ordering");
    }
}

/// True when rustc links with its bundled lld: x86_64 Linux (glibc), rustc 1.90 or newer, and no
/// linker chosen in cargo's configuration or the rust flags (then it may be GNU ld, which does not
/// know the ordering flag).
fn links_with_rust_lld() -> bool {
    let var = |name| std::env::var(name).unwrap_or_default();
    if var("TARGET") != "x86_64-unknown-linux-gnu" || std::env::var_os("RUSTC_LINKER").is_some() {
        return false;
    }
    if var("CARGO_ENCODED_RUSTFLAGS").contains("link") {
        return false; // -C linker=…, linker-flavor, linker-features, link-self-contained
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("-V").output() else {
        return false;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let version = String::from_utf8_lossy(&out.stdout);
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1));
    minor
        .and_then(|m| m.parse::<u32>().ok())
        .is_some_and(|m| m >= 90)
}

fn from_env() -> Option<String> {
    let sha = std::env::var("MCPLAB_COMMIT").ok()?;
    is_sha(sha.trim()).then(|| sha.trim().to_owned())
}

/// `{"git": {"sha1": "<40 hex>"}, "path_in_vcs": "crates/mcplab"}`, as cargo writes it
/// (https://doc.rust-lang.org/cargo/commands/cargo-package.html#cargo_vcs_infojson-format).
fn from_vcs_info(manifest: &Path) -> Option<String> {
    let path = manifest.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(&path).ok()?;
    println!("cargo:rerun-if-changed={}", path.display());
    let after = &text[text.find("\"sha1\"")? + "\"sha1\"".len()..];
    let start = after.find('"')? + 1;
    let sha = &after[start..start + after[start..].find('"')?];
    is_sha(sha).then(|| sha.to_owned())
}

/// HEAD of the checkout around the crate, rerun when HEAD moves (a commit, a checkout).
fn from_git(manifest: &Path) -> Option<String> {
    let sha = git(manifest, &["rev-parse", "HEAD"])?;
    if !is_sha(&sha) {
        return None;
    }
    let mut watched = vec![git(manifest, &["rev-parse", "--git-path", "HEAD"])?];
    if let Some(branch) = git(manifest, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(manifest, &["rev-parse", "--git-path", &branch])?);
    }
    watched.push(git(manifest, &["rev-parse", "--git-path", "packed-refs"])?);
    for path in watched {
        let path = manifest.join(path); // --git-path may answer relative to the crate
        // A path that does not exist would make cargo rerun this script on every build.
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    Some(sha)
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status.success().then_some(())?;
    Some(String::from_utf8(out.stdout).ok()?.trim().to_owned())
}

fn is_sha(s: &str) -> bool {
    s.len() >= 7 && s.chars().all(|c| c.is_ascii_hexdigit())
}
