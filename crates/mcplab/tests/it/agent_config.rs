//! `mcplab servers export --for AGENT` (issue 25): the entry that makes a coding agent start
//! `mcplab mcp`. The README shows these snippets; they must be exactly what the command
//! prints, so the README cannot drift from the code (or the other way round). Also the
//! `mcplab mcp` flags that need no peer to test (`--http` refuses a non-loopback address).

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn export(args: &[&str]) -> Output {
    let data = tempfile::tempdir().unwrap();
    Command::new(BIN)
        .args(["servers", "export"])
        .args(args)
        .env("MCPLAB_DATA_DIR", data.path())
        .output()
        .expect("mcplab runs")
}

/// The README's fenced code blocks, each block's text with its final newline.
fn readme_blocks() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        match (&mut open, line.starts_with("```")) {
            (None, true) => open = Some(String::new()),
            (Some(b), true) => {
                blocks.push(std::mem::take(b));
                open = None;
            }
            (Some(b), false) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks
}

#[test]
fn the_readme_shows_what_servers_export_for_prints() {
    let blocks = readme_blocks();
    for agent in ["claude-code", "codex", "cursor", "vscode", "goose"] {
        let o = export(&["--for", agent, "--allow-command", "node dist/*"]);
        assert!(
            o.status.success(),
            "{agent}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let printed = String::from_utf8(o.stdout).unwrap();
        assert!(printed.contains("mcp"), "{agent}: {printed}");
        assert!(
            blocks.contains(&printed),
            "README.md has no code block that is exactly `mcplab servers export --for {agent} \
             --allow-command 'node dist/*'`:\n{printed}"
        );
        // Where it goes, on stderr, so stdout can be redirected into the file.
        assert!(String::from_utf8_lossy(&o.stderr).starts_with("# "));
    }
}

#[test]
fn claude_is_claude_code_and_allow_needs_for() {
    let claude = export(&["--for", "claude"]);
    let code = export(&["--for", "claude-code"]);
    assert!(claude.status.success());
    assert_eq!(claude.stdout, code.stdout);
    assert_eq!(
        String::from_utf8_lossy(&code.stdout),
        "claude mcp add mcplab -- mcplab mcp\n"
    );

    let o = export(&["--allow-command", "node *"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--for"));
    let o = export(&["--for", "emacs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("goose"));
}

#[test]
fn mcplab_mcp_refuses_to_listen_beyond_loopback() {
    let data = tempfile::tempdir().unwrap();
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let mut child = Command::new(BIN)
            .args(["mcp", "--http", addr])
            .env("MCPLAB_DATA_DIR", data.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mcplab runs");
        // Were it to listen, it would serve until killed: wait with a deadline.
        let deadline = Instant::now() + Duration::from_secs(30);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                child.kill().unwrap();
                panic!("mcplab mcp --http {addr} kept running");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{addr}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("loopback only"), "{addr}: {err}");
    }
}

#[test]
fn mcplab_mcp_says_which_knob_is_wrong() {
    let data = tempfile::tempdir().unwrap();
    let cases = [
        (
            &["--timeout", "0"][..],
            "--timeout must be a positive number",
        ),
        (&["--limit", "bogus=1"][..], "message"),
        (&["--limit", "message=lots"][..], "--limit message"),
        (&["--attach"][..], "no running mcplab found"),
    ];
    for (args, said) in cases {
        let o = Command::new(BIN)
            .arg("mcp")
            .args(args)
            .env("MCPLAB_DATA_DIR", data.path())
            .stdin(Stdio::null())
            .output()
            .expect("mcplab runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(said), "{args:?}: {err}");
    }
}
