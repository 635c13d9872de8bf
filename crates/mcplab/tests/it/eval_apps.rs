//! The app checks of `mcplab eval run` in real Chromium (the real render page, `web/dist`) with
//! the demo server's apps: `appRendered` passes an app that works but logs a console error,
//! `noConsoleErrors` fails it with the line it logged; `maxRenderMs` passes a limit no render
//! can miss (600000) and fails one none can meet (0), whatever the machine's speed.

use mcplab_testkit::llm::{Rule, Rules, ScriptedLlm, Step};
use serde_json::json;

use crate::eval_support::*;

const CASES: &str = "models: [openai::gpt-x]
concurrency: 1
cases:
  - id: counter
    turns: [Show the counter.]
    checks:
      - appRendered: {}
      - noConsoleErrors: true
      - maxRenderMs: 600000
      - maxRenderMs: 0
  - id: noisy
    turns: [Show the noisy app.]
    checks:
      - appRendered: { tool: show_noisy_app }
      - noConsoleErrors: true
      - maxRenderMs: 600000
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_errors_and_render_time_are_checked_on_real_renders() {
    let chromium = std::env::var("MCPLAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let show = |word: &str, id: &str, tool: &str| {
        Rule::when(
            word,
            vec![
                call(id, &format!("demo__{tool}"), json!({})),
                Step::reply(["Here it is."]),
            ],
        )
    };
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        show("counter", "c1", "show_counter_app"),
        show("noisy", "n1", "show_noisy_app"),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), CASES);
    let mut run = eval(
        Some(&llm),
        dir.path(),
        &["run", path.to_str().unwrap(), "--json"],
    );
    run.env("MCPLAB_CHROMIUM", &chromium);
    let o = output(run).await;
    let events = lines(&o);
    let failures = |case: &str| -> Vec<String> {
        let it = events
            .iter()
            .find(|e| e["type"] == "iterationFinished" && e["caseId"] == case)
            .unwrap_or_else(|| panic!("no iteration of {case}: {}", stderr(&o)));
        assert_eq!(it["outcome"]["status"], "failed", "{it}");
        serde_json::from_value(it["failures"].clone()).unwrap()
    };
    let counter = failures("counter");
    assert_eq!(counter.len(), 1, "only maxRenderMs: 0 fails: {counter:?}");
    assert!(counter[0].contains("ms > 0 ms"), "{counter:?}");
    let noisy = failures("noisy");
    assert_eq!(
        noisy.len(),
        1,
        "appRendered and the render time pass: {noisy:?}"
    );
    assert!(
        noisy[0].contains("logged 1 console error(s), first: mcplab-demo noisy app"),
        "{noisy:?}"
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}
