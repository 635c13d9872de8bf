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

#[tokio::test]
async fn a_simulated_user_talks_until_its_goal_is_met_or_its_turns_run_out_and_is_paid_apart() {
    let sim = |when: &str, say: &str| {
        Rule::when(when, vec![Step::reply([say.to_owned()])]).for_model("gpt-sim")
    };
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        good("gpt-good", "g"),
        Rule::when("weather", vec![Step::reply(["I cannot tell."])]).for_model("gpt-good"),
        sim("Assistant: The sum is 42.", "GOAL_MET"),
        sim("get 2 + 40 added", "What is 2 + 40? Use the add tool."),
        sim("learn the weather", "What is the weather in Paris?"),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let prices = PRICES.replace(
        "\"openai::gpt-judge\"",
        "\"openai::gpt-sim\": {\"input\": 100.0, \"output\": 400.0, \"source\": \"https://example.test/p\", \"date\": \"2026-12-01\"},\n  \"openai::gpt-judge\"",
    );
    std::fs::write(dir.path().join("prices.json"), prices).unwrap();
    let body = "models: [openai::gpt-good]
cases:
  - id: add
    simulatedUser: { persona: a terse accountant, goal: get 2 + 40 added, maxTurns: 3, model: openai::gpt-sim }
    checks: [{ answerContains: \"42\" }]
  - id: weather
    simulatedUser: { persona: a tourist, goal: learn the weather, maxTurns: 2, model: openai::gpt-sim }
    checks: [{ answerContains: sunny }]
";
    let path = suite(dir.path(), body);
    let (code, events) = run_json(Some(&llm), dir.path(), &[path.to_str().unwrap()]).await;
    assert_eq!(code, Some(1), "{events:#?}");
    let s = &finished(&events)["summary"];
    let rates: Vec<f64> = s["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["passRate"].as_f64().unwrap())
        .collect();
    assert_eq!(rates, [1.0, 0.0], "{s}");
    // The goal met after one turn: asked twice (the first message, then GOAL_MET). The other
    // conversation ran its 2 turns: asked twice, never a third time.
    let asked = |goal: &str| {
        llm.requests()
            .iter()
            .filter(|r| r.body["model"] == "gpt-sim" && r.body.to_string().contains(goal))
            .count()
    };
    assert_eq!(
        (asked("get 2 + 40 added"), asked("learn the weather")),
        (2, 2)
    );
    let turns_of_good = |text: &str| {
        llm.requests()
            .iter()
            .filter(|r| r.body["model"] == "gpt-good" && r.body.to_string().contains(text))
            .count()
    };
    assert_eq!(
        turns_of_good("What is the weather in Paris?"),
        2,
        "two turns asked the same"
    );
    let (calls, sim_in, sim_out) = reported(&llm, "gpt-sim");
    let user = &s["simulatedUser"];
    assert_eq!(
        (
            user["calls"].as_u64(),
            user["inputTokens"].as_u64(),
            user["outputTokens"].as_u64()
        ),
        (Some(calls), Some(sim_in), Some(sim_out)),
        "{s}"
    );
    let sim_cost = (sim_in as f64 * 100.0 + sim_out as f64 * 400.0) / 1e6;
    let (_, model_in, model_out) = reported(&llm, "gpt-good");
    assert_eq!(
        (s["inputTokens"].as_u64(), s["outputTokens"].as_u64()),
        (Some(model_in), Some(model_out)),
        "the simulated user's tokens are not the model's"
    );
    let model_cost = (model_in as f64 * 1.0 + model_out as f64 * 2.0) / 1e6;
    assert!(close(&s["costUsd"], model_cost + sim_cost), "{s}");
}
