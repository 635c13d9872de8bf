//! Black-box tests of the suite check made before any model runs: tools the suite names that
//! its servers do not list are a suite error (exit 2) with the file, line and "did you mean",
//! and no model is asked; `eval run --check-only` does only that check, with no API key.

use mcplab_testkit::llm::{Rules, ScriptedLlm};

use crate::eval_support::*;

const MISSPELLED: &str = "cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
    toolCalls:
      expected:
        - { tool: ad, arguments: { a: 2, b: 40 } }
    checks:
      - firstTool: addd
      - toolResult: { tool: add, server: dmeo, matches: {} }
";

#[tokio::test]
async fn a_misspelled_tool_is_a_suite_error_at_its_line_before_any_model_runs() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-good", "g")])).await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), MISSPELLED);
    let p = path.to_str().unwrap();
    let o = output(eval(
        Some(&llm),
        dir.path(),
        &["run", p, "--model", "openai::gpt-good"],
    ))
    .await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{p}:12:"))
            && err.contains("tool `ad` is not on server `demo`: did you mean `add`?"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{p}:14:")) && err.contains("did you mean `add`?"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{p}:15:"))
            && err.contains(
                "server `dmeo` is not one of the suite's servers (demo): did you mean `demo`?"
            ),
        "{err}"
    );
    assert!(llm.requests().is_empty(), "no model was asked");
    let o = output(eval(None, dir.path(), &["runs", "--json"])).await;
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "[]",
        "no run was stored"
    );
}

#[tokio::test]
async fn check_only_checks_the_names_with_no_key_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good_suite = suite(
        dir.path(),
        &format!("models: [openai::gpt-good]\n{ADD_CASE}"),
    );
    let o = output(eval(
        None,
        dir.path(),
        &["run", good_suite.to_str().unwrap(), "--check-only"],
    ))
    .await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        out.contains("the suite checks out: 1 tool name found on 1 server"),
        "{out}"
    );
    let bad = suite_with(
        dir.path(),
        "bad.yaml",
        BIN,
        &format!("models: [openai::gpt-good]\n{MISSPELLED}"),
    );
    let o = output(eval(
        None,
        dir.path(),
        &["run", bad.to_str().unwrap(), "--check-only"],
    ))
    .await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("3 names in") && err.contains("bad.yaml:13:"),
        "{err}"
    );
}

#[tokio::test]
async fn the_commands_a_suite_starts_are_listed_and_asked_once_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let path = suite(
        dir.path(),
        &format!("models: [openai::gpt-good]\n{ADD_CASE}"),
    );
    let p = path.to_str().unwrap();
    let listed = format!("start `{BIN} demo-server` (server `demo`, defined in the suite)");
    // Without a terminal (CI), the list is printed and the run goes ahead.
    let o = output(eval(None, dir.path(), &["run", p, "--check-only"])).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains(&listed), "{}", stderr(&o));
    // On a terminal (util-linux `script` gives the command a pty): asked; "n" starts nothing.
    let on_tty = |answer: &'static str| {
        let cmd = format!("{BIN} eval run {p} --check-only");
        let mut c = tokio::process::Command::new("script");
        c.args(["-qec", &cmd, "/dev/null"])
            .env("MCPLAB_DATA_DIR", dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        async move {
            let mut child = c.spawn().unwrap();
            let mut stdin = child.stdin.take().unwrap();
            tokio::io::AsyncWriteExt::write_all(&mut stdin, answer.as_bytes())
                .await
                .unwrap();
            let o = tokio::time::timeout(
                std::time::Duration::from_secs(120),
                child.wait_with_output(),
            )
            .await
            .expect("mcplab finished")
            .unwrap();
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stdout).into_owned(),
            )
        }
    };
    let (code, text) = on_tty("n\n").await;
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("Start them? [y/N]") && text.contains("nothing was started"),
        "{text}"
    );
    let (code, text) = on_tty("y\n").await;
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("the suite checks out"), "{text}");
    // Agreed once: the same list is not asked about again (nothing is typed this time).
    let (code, text) = on_tty("").await;
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&listed) && !text.contains("Start them?"),
        "{text}"
    );
}
