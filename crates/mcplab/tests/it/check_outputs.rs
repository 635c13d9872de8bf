//! `mcplab check` end to end from the CLI for issue 24 items 4, 6 and 7: the security set
//! (poisoning, hidden Unicode shown visibly, shadowing, collisions with another configured
//! server, secrets in URLs, credentials over plain HTTP), baselines (`--write-baseline`, then
//! `--baseline` against a changed server) and the outputs for CI and people — exit codes
//! 0/1/2/3, JUnit (one test case per rule and era, one failure element each), SARIF 2.1.0
//! validated against the OASIS schema (vendored in crates/mcplab-check/testdata) and Markdown.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Command;

use super::check::{check, check_args, has, raw, repo, rules};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn finding<'a>(report: &'a Value, rule: &str) -> &'a Value {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == rule)
        .unwrap_or_else(|| panic!("no {rule} finding: {report}"))
}

/// `mcplab ARGS` (text output) in a scratch data directory: exit code, stdout, stderr.
async fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let o = tokio::time::timeout(
        Duration::from_secs(60),
        Command::new(BIN)
            .args(args)
            .env("MCPLAB_DATA_DIR", dir.path())
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("mcplab finished in time")
    .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Item 4: each attack is found with its rule and the offending text, invisible characters
/// written as `<U+XXXX>` in the JSON report and in the text a person reads.
#[tokio::test]
async fn security_findings_show_the_offending_text_visibly() {
    let (o, r) = check(&raw("poison"), &[]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let hidden = finding(&r, "hidden-unicode");
    assert_eq!(hidden["severity"], "error");
    assert!(
        hidden["message"]
            .as_str()
            .unwrap()
            .contains("4 tag character(s) spelling “leak”"),
        "{hidden}"
    );
    let excerpt = hidden["excerpt"].as_str().unwrap();
    for shown in ["<U+200B>", "<U+E006C>", "<U+202E>"] {
        assert!(excerpt.contains(shown), "{excerpt}");
    }
    assert!(
        !excerpt
            .chars()
            .any(|c| ('\u{E0000}'..='\u{E007F}').contains(&c)),
        "{excerpt}"
    );
    assert_eq!(hidden["path"], "/result/tools/1/description");
    assert!(
        finding(&r, "tool-poisoning")["excerpt"]
            .as_str()
            .unwrap()
            .contains("<IMPORTANT>")
    );
    assert!(has(&r, "warning", "sensitive-file"), "{r}");
    assert_eq!(
        finding(&r, "tool-shadowing")["path"],
        "/result/tools/2/description"
    );
    let secret = finding(&r, "secret-in-url");
    assert!(
        !secret.to_string().contains("sk-live0123456789abcdef"),
        "masked: {secret}"
    );
    for f in r["findings"].as_array().unwrap() {
        if f["ruleSet"] == "security" {
            assert!(f["frames"][0].is_u64(), "{f}");
            assert!(f["source"].as_str().unwrap().starts_with("https://"), "{f}");
        }
    }
    let raw_cmd = raw("poison");
    let (code, text, _) = run(&["check", "--stdio", &raw_cmd]).await;
    assert_eq!(code, Some(1));
    assert!(
        text.contains("<U+E006C><U+E0065><U+E0061><U+E006B>"),
        "{text}"
    );
    assert!(
        !text.chars().any(|c| c == '\u{200B}' || c == '\u{202E}'),
        "nothing invisible reaches the terminal: {text:?}"
    );
}

/// Item 4: a tool named like another configured server's tool is reported (the other
/// servers of the `--config` file are listed quietly for it).
#[tokio::test]
async fn a_tool_name_that_collides_with_another_configured_server() {
    let dir = tempfile::tempdir().unwrap();
    let script = repo().join("tests/interop/rawsrv.py").display().to_string();
    let config = json!({"mcpServers": {
        "poisoned": {"command": "python3", "args": [script, "poison"]},
        "office": {"command": "python3", "args": [script, "peer"]},
    }});
    let file = dir.path().join("mcp.json");
    std::fs::write(&file, config.to_string()).unwrap();
    let file = file.display().to_string();
    let (o, r) = check_args(&["--config", &file, "--server", "poisoned"]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let collision = finding(&r, "tool-name-collision");
    let message = collision["message"].as_str().unwrap();
    assert!(
        message.contains("send_mail") && message.contains("office"),
        "{message}"
    );
}

/// Item 4: credentials over plain HTTP and a secret in the configured URL are found even
/// when the server cannot be reached (exit 3), and a 401 whose protected resource metadata
/// is on plain HTTP off this machine is found from the recorded exchange.
#[tokio::test]
async fn plain_http_credentials_and_secrets_in_the_url() {
    let url = "http://mcp.invalid/mcp?api_key=sk-live0123456789abcdef";
    let (o, r) = check_args(&[
        "--url",
        url,
        "--bearer",
        "t0ken",
        "--oauth",
        "off",
        "--connect-timeout",
        "10",
    ])
    .await;
    assert_eq!(o.status.code(), Some(3), "{r}");
    assert!(has(&r, "error", "plain-http-auth"), "{r}");
    let secret = finding(&r, "secret-in-url");
    assert!(
        !secret.to_string().contains("sk-live0123456789abcdef"),
        "masked: {secret}"
    );

    let port = mcplab_testkit::ports::spare_port();
    let _server = tokio::process::Command::new("python3")
        .args([
            repo().join("tests/interop/rawsrv.py").display().to_string(),
            "http".into(),
            "challenge".into(),
        ])
        .env("PORT", port.to_string())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "rawsrv did not listen"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (o, r) = check_args(&["--url", &url, "--oauth", "off"]).await;
    assert_eq!(o.status.code(), Some(3), "{r}");
    let f = finding(&r, "plain-http-auth");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("http://auth.invalid/"),
        "{f}"
    );
}

/// Item 6: a baseline written from one version flags the next version's breaking changes as
/// errors and its additions as compatible; the same server against its own baseline is clean.
#[tokio::test]
async fn a_baseline_catches_breaking_changes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("baseline.json");
    let path = file.display().to_string();
    let (o, r) = check(&raw("plain"), &["--write-baseline", &path]).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let text = written.to_string();
    for expected in ["\"echo\"", "\"slow\"", "\"weather\"", "2025-11-25"] {
        assert!(text.contains(expected), "{expected}: {written}");
    }
    let (o, r) = check(&raw("plain"), &["--baseline", &path]).await;
    assert_eq!(o.status.code(), Some(0), "unchanged: {r}");
    assert!(!rules(&r).iter().any(|(s, _)| s != "info"), "{r}");

    let (o, r) = check(&raw("v2"), &["--baseline", &path]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let messages = |rule: &str| -> String {
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule"] == rule)
            .map(|f| format!("{} {}\n", f["severity"], f["message"]))
            .collect()
    };
    let removed = messages("baseline-removed");
    assert!(removed.contains("error") && removed.contains("echo"), "{r}");
    let argument = messages("baseline-argument");
    assert!(
        argument.contains("unit"),
        "new required argument: {argument}"
    );
    assert!(argument.contains("steps"), "retyped argument: {argument}");
    let output = messages("baseline-output");
    assert!(output.contains("temp"), "{output}");
    let compatible = messages("baseline-compatible");
    assert!(
        compatible.contains("extra") && compatible.contains("info"),
        "{compatible}"
    );
}

/// Item 7: exit 0 clean, 1 errors, 2 usage, 3 could not connect.
#[tokio::test]
async fn exit_codes() {
    let plain = raw("plain");
    assert_eq!(run(&["check", "--stdio", &plain]).await.0, Some(0));
    let broken = raw("dup-tool");
    assert_eq!(run(&["check", "--stdio", &broken]).await.0, Some(1));
    let (code, _, err) = run(&["check", "--stdio", &plain, "--call", "x={nope"]).await;
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&[
        "check",
        "--stdio",
        &plain,
        "--baseline",
        "/nonexistent/b.json",
    ])
    .await;
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(run(&["check", "--no-such-flag"]).await.0, Some(2));
    let (code, out, _) = run(&["check", "--stdio", "/nonexistent/server"]).await;
    assert_eq!(code, Some(3), "{out}");
    assert!(
        out.contains("initialize"),
        "the report is still printed: {out}"
    );
}

/// Item 7: the text groups findings by rule set, the worst set first (a set with errors before
/// one with warnings only, clean sets last), errors before warnings within a set.
#[tokio::test]
async fn text_groups_rule_sets_worst_first() {
    let srv = raw("bad-name");
    let (code, out, _) = run(&["check", "--stdio", &srv, "--readiness", "claude"]).await;
    assert_eq!(code, Some(1), "{out}");
    let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("{s:?} not in: {out}"));
    let readiness = at("Readiness: Anthropic connector directory: ");
    let spec = at("Spec: 0 error(s), 1 warning(s)");
    let security = at("Security: clean");
    assert!(readiness < spec && spec < security, "{out}");
    let section = &out[readiness..spec];
    let last_error = section.rfind("  ERROR ").unwrap();
    let first_warning = section.find("  WARN").unwrap();
    assert!(last_error < first_warning, "errors first: {section}");
}

/// Item 7: JUnit has one test case per rule and era, each with at most one failure element
/// (a rule with several errors joins them), `failures` counts the failing cases; SARIF is
/// valid 2.1.0 with one result per finding; Markdown has the verdict and the findings.
#[tokio::test]
async fn junit_sarif_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("check.xml");
    let sarif = dir.path().join("check.sarif");
    let markdown = dir.path().join("check.md");
    let files = [
        "--junit",
        junit.to_str().unwrap(),
        "--sarif",
        sarif.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
    ];
    // Several findings of one rule (tool-name, input-schema), errors and warnings.
    let (o, r) = check(&raw("bad-tools notify-id"), &files).await;
    assert_eq!(o.status.code(), Some(1), "{r}");

    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suite = doc.root_element();
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let rules_run: usize = r["eras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rules"].as_array().unwrap().len())
        .sum();
    assert_eq!(cases.len(), rules_run, "{xml}");
    let mut names: Vec<&str> = cases.iter().map(|c| c.attribute("name").unwrap()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "one case per rule and era: {xml}");
    let mut failing = 0;
    for case in &cases {
        let failures = case
            .children()
            .filter(|n| n.has_tag_name("failure"))
            .count();
        assert!(failures <= 1, "{:?}: {xml}", case.attribute("name"));
        failing += failures;
    }
    let error_rules: std::collections::BTreeSet<String> = rules(&r)
        .into_iter()
        .filter(|(s, _)| s == "error")
        .map(|(_, rule)| rule)
        .collect();
    assert_eq!(failing, error_rules.len(), "{xml}");
    assert_eq!(
        suite.attribute("failures"),
        Some(failing.to_string().as_str())
    );
    assert_eq!(
        suite.attribute("tests"),
        Some(cases.len().to_string().as_str())
    );
    let input_schema = cases
        .iter()
        .find(|c| c.attribute("name") == Some("input-schema [2025-11-25]"))
        .unwrap();
    let failure = input_schema
        .children()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert!(
        failure
            .attribute("message")
            .unwrap()
            .contains("(and 1 more)"),
        "two input-schema errors in one failure: {xml}"
    );

    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let schema_file = repo().join("crates/mcplab-check/testdata/sarif-2.1.0-rtm.5.json");
    // The schema's `run.language` pattern ends in `]?`, a literal `]` that ECMA-262 regexes
    // accept and Rust's do not: that one pattern is written the way Rust reads it.
    let schema_text = std::fs::read_to_string(schema_file)
        .unwrap()
        .replace("[a-zA-Z]{2}]?$", "[a-zA-Z]{2}\\\\]?$");
    let schema: Value = serde_json::from_str(&schema_text).unwrap();
    let validator = jsonschema::draft4::new(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), r["findings"].as_array().unwrap().len());
    let rules_listed = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for result in results {
        let i = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules_listed[i]["id"], result["ruleId"], "{result}");
    }

    let md = std::fs::read_to_string(&markdown).unwrap();
    assert!(md.starts_with("## mcplab check of "), "{md}");
    assert!(md.contains("❌ fails"), "{md}");
    assert!(md.contains("notification-id"), "{md}");
    assert!(
        md.contains("| era | revision | connected | exercised |"),
        "{md}"
    );
}

/// The security set and the baseline read the listings, not the recorded frames: with a
/// traffic budget too small to keep `tools/list` whole, the poisoned tools are still found
/// and the baseline still has every tool.
#[tokio::test]
async fn security_and_baseline_read_whole_listings_when_frames_are_cut() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    let (o, r) = check(
        &raw("poison"),
        &[
            "--limit",
            "traffic=1500",
            "--limit",
            "preview=300",
            "--write-baseline",
            base.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    for rule in ["tool-poisoning", "hidden-unicode", "tool-shadowing"] {
        assert!(has(&r, "error", rule), "{rule}: {r}");
    }
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&base).unwrap()).unwrap();
    let tools = written["surfaces"][0]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 4, "{written}");
}

/// A password or token in `--url` shows in none of the outputs: the server label, the
/// connect error (which quotes the URL), text, JSON, JUnit, SARIF and Markdown — only its
/// masked form (`hunt… (13 chars)`).
#[tokio::test]
async fn a_secret_in_the_url_shows_in_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let port = mcplab_testkit::ports::spare_port();
    // Nothing listens there: connecting fails at once, with an error that quotes the URL.
    let url =
        format!("http://alice:hunter2secret@127.0.0.1:{port}/mcp?access_token=abcdef123456789&x=1");
    let out = |name: &str| dir.path().join(name).display().to_string();
    let files = [
        "--junit".to_owned(),
        out("check.xml"),
        "--sarif".to_owned(),
        out("check.sarif"),
        "--markdown".to_owned(),
        out("check.md"),
    ];
    let mut args: Vec<&str> = vec!["--url", &url, "--oauth", "off"];
    args.extend(files.iter().map(String::as_str));
    let (o, r) = check_args(&args).await;
    assert_eq!(o.status.code(), Some(3), "{r}");
    assert!(
        r["server"].as_str().unwrap().contains("hunt… (13 chars)"),
        "{r}"
    );
    let (_, text, err) = run(&["check", "--url", &url, "--oauth", "off"]).await;
    let mut shown = vec![
        ("json", r.to_string()),
        ("stderr", String::from_utf8_lossy(&o.stderr).into_owned()),
        ("text", text),
        ("text stderr", err),
    ];
    for file in ["check.xml", "check.sarif", "check.md"] {
        shown.push((file, std::fs::read_to_string(out(file)).unwrap()));
    }
    for (what, shown) in shown {
        for secret in ["hunter2secret", "abcdef123456789"] {
            assert!(!shown.contains(secret), "{what} shows {secret}: {shown}");
        }
    }
    assert!(
        has(&r, "error", "initialize"),
        "the connect error is there: {r}"
    );
}
