//! What an eval run spends and keeps, black box: the judge's tokens are priced from the price
//! table, counted in the run's cost and its cost gate, and shown apart (JSON summary, the CLI's
//! summary line); worked out from the usage the scripted LLM reported for each request; and
//! `eval runs prune` deletes the run again.

use mcplab_testkit::llm::{Rule, Rules, ScriptedLlm, Step};
use serde_json::Value;

use crate::eval_support::*;

/// $ per token: the models under test almost free, the judge dear, so the judge alone decides
/// whether the cost gate passes.
const PRICES: &str = r#"{"version": 1, "prices": {
  "openai::gpt-good": {"input": 1.0, "output": 2.0, "source": "https://example.test/p", "date": "2026-12-01"},
  "openai::gpt-judge": {"input": 10000.0, "output": 40000.0, "source": "https://example.test/p", "date": "2026-12-01"}
}}"#;

const JUDGED_CASE: &str = "cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
    checks:
      - answerContains: \"42\"
    judge:
      rubric: The answer states the sum.
      model: openai::gpt-judge
";

/// (input, output) tokens the scripted LLM reported for `model`'s requests.
fn reported(llm: &ScriptedLlm, model: &str) -> (u64, u64, u64) {
    llm.requests()
        .iter()
        .filter(|r| r.body["model"] == model)
        .filter_map(|r| r.usage)
        .fold((0, 0, 0), |(n, i, o), u| {
            (
                n + 1,
                i + u64::from(u.input_tokens),
                o + u64::from(u.output_tokens),
            )
        })
}

fn close(v: &Value, x: f64) -> bool {
    v.as_f64().is_some_and(|v| (v - x).abs() < 1e-9)
}

#[tokio::test]
async fn the_judges_tokens_are_in_the_cost_and_its_gate_and_shown_apart() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        good("gpt-good", "g"),
        Rule::when(
            "Rubric",
            vec![Step::reply([r#"{"score": 0.9, "reason": "states 42"}"#])],
        )
        .for_model("gpt-judge"),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prices.json"), PRICES).unwrap();
    // The models' own cost is a few cents at most; the judge's is dollars.
    let body = format!("repeat: 2\ngates: {{ maxCostUsd: 0.5 }}\n{JUDGED_CASE}");
    let path = suite(dir.path(), &body);
    let path = path.to_str().unwrap();
    let (code, events) = run_json(
        Some(&llm),
        dir.path(),
        &[path, "--model", "openai::gpt-good"],
    )
    .await;
    let end = finished(&events);
    let s = &end["summary"];

    let (calls, judge_in, judge_out) = reported(&llm, "gpt-judge");
    assert_eq!(calls, 2, "one judge call per iteration");
    let judge = &s["judge"];
    assert_eq!(
        (
            judge["calls"].as_u64(),
            judge["inputTokens"].as_u64(),
            judge["outputTokens"].as_u64()
        ),
        (Some(2), Some(judge_in), Some(judge_out)),
        "{s}"
    );
    let judge_cost = (judge_in as f64 * 10000.0 + judge_out as f64 * 40000.0) / 1e6;
    assert!(close(&judge["costUsd"], judge_cost), "{s}");
    let (_, model_in, model_out) = reported(&llm, "gpt-good");
    // The models' tokens stay the models' own; the cost is both.
    assert_eq!(
        (s["inputTokens"].as_u64(), s["outputTokens"].as_u64()),
        (Some(model_in), Some(model_out))
    );
    let model_cost = (model_in as f64 * 1.0 + model_out as f64 * 2.0) / 1e6;
    assert!(close(&s["costUsd"], model_cost + judge_cost), "{s}");
    assert!(
        model_cost < 0.5 && judge_cost > 0.5,
        "the prices pick the judge as the gate's cause"
    );

    // The gate counts the judge: over budget.
    assert_eq!(code, Some(1), "{events:?}");
    let gate = &end["gates"]["gates"][0];
    assert_eq!(
        (gate["gate"].as_str(), gate["status"].as_str()),
        (Some("maxCostUsd 0.5"), Some("fail")),
        "{gate}"
    );
    assert!(
        gate["reason"]
            .as_str()
            .unwrap()
            .contains("of which judge $"),
        "{gate}"
    );

    // The person reading the terminal sees the judge apart.
    let id = run_id(&events);
    let o = output(eval(None, dir.path(), &["show", &id])).await;
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!("judge {judge_in} in / {judge_out} out tokens, $")),
        "{text}"
    );
}
