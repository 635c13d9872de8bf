//! Run comparison, gates and exit codes, and sharding: shards merge to the unsharded run with
//! the same statistics and gate verdicts.

use mcplab_evals::compare::{Change, Significance, compare};
use mcplab_evals::gates::{GateStatus, evaluate};
use mcplab_evals::run::{
    CaseInfo, IterationRecord, Metrics, RunRecord, Shard, Unit, case_infos, plan, resolved_cases,
    suite_hash,
};
use mcplab_evals::shard::{MergeError, merge, parse_shard, shard_units};
use mcplab_evals::stats::summarize;
use mcplab_evals::suite::{Gates, PassHatKGate, parse_suite};
use mcplab_evals::verdict::Outcome;

fn it(case: &str, model: &str, i: u32, pass: bool) -> IterationRecord {
    IterationRecord {
        unit: Unit {
            case_id: case.into(),
            model: model.into(),
            iteration: i,
        },
        outcome: if pass {
            Outcome::Passed
        } else {
            Outcome::Failed
        },
        failures: vec![],
        metrics: Metrics {
            latency_ms: 1000 + u64::from(i) * 100,
            cost_usd: Some(0.001),
            input_tokens: 50,
            output_tokens: 5,
            ..Metrics::default()
        },
    }
}

/// A run of one case on one model with `passes` of `n` passing.
fn run_with(passes: u32, n: u32) -> RunRecord {
    let iterations: Vec<IterationRecord> = (0..n).map(|i| it("a", "m", i, i < passes)).collect();
    RunRecord {
        suite_id: "s".into(),
        suite_hash: "h".into(),
        shard: None,
        cases: vec![CaseInfo {
            id: "a".into(),
            title: None,
            pass_threshold: 0.8,
        }],
        planned: iterations.iter().map(|i| i.unit.clone()).collect(),
        iterations,
    }
}

#[test]
fn comparison_categories_and_significance() {
    let cmp = |b: (u32, u32), r: (u32, u32), min| {
        compare(
            &summarize(&run_with(b.0, b.1)),
            &summarize(&run_with(r.0, r.1)),
            min,
        )
    };
    // 9/10 → 3/10: Newcombe (run − base) = (−0.8090, −0.1705) excludes 0.
    let c = cmp((9, 10), (3, 10), 10);
    assert_eq!(c.cells[0].change, Change::Regressed);
    assert_eq!(c.cells[0].significance, Some(Significance::Worse));
    assert_eq!(c.regressions().len(), 1);
    // 3/10 → 9/10: fixed and significantly better.
    let c = cmp((3, 10), (9, 10), 10);
    assert_eq!(
        (c.cells[0].change, c.cells[0].significance),
        (Change::Fixed, Some(Significance::Better))
    );
    // 9/10 → 7/10 crosses the 0.8 threshold but the interval contains 0: not a regression.
    let c = cmp((9, 10), (7, 10), 10);
    assert_eq!(
        (c.cells[0].change, c.cells[0].significance),
        (Change::Regressed, Some(Significance::NoChange))
    );
    assert!(c.regressions().is_empty());
    // 5/5 → 0/5 with a minimum of 10 samples: undecided, whatever the rates.
    let c = cmp((5, 5), (0, 5), 10);
    assert_eq!(
        c.cells[0].significance,
        Some(Significance::InsufficientData)
    );
    // New and removed cells.
    let base = summarize(&run_with(5, 5));
    let mut other = run_with(5, 5);
    for i in &mut other.iterations {
        i.unit.case_id = "b".into();
    }
    other.planned = other.iterations.iter().map(|i| i.unit.clone()).collect();
    let c = compare(&base, &summarize(&other), 10);
    assert_eq!(c.count(Change::New), 1);
    assert_eq!(c.count(Change::Removed), 1);
}

fn gates() -> Gates {
    Gates {
        min_pass_rate: Some(0.8),
        min_pass_hat_k: Some(PassHatKGate { k: 3, min: 0.5 }),
        max_cost_usd: Some(1.0),
        max_p95_latency_ms: Some(5000),
        no_regression: Some(true),
        min_samples: Some(10),
        max_error_rate: Some(0.1),
        ..Gates::default()
    }
}

#[test]
fn gates_pass_fail_and_insufficient_data() {
    let good = summarize(&run_with(10, 10));
    let base = summarize(&run_with(10, 10));
    let cmp = compare(&base, &good, 10);
    let r = evaluate(&gates(), &good, Some(&cmp), &[]);
    assert!(
        r.gates.iter().all(|g| g.status == GateStatus::Pass),
        "{r:#?}"
    );
    assert_eq!(r.exit_code, 0);

    // 3/10 passing: pass rate and pass^3 fail; and a significant regression from 10/10.
    let bad = summarize(&run_with(3, 10));
    let cmp = compare(&base, &bad, 10);
    let r = evaluate(&gates(), &bad, Some(&cmp), &[]);
    let status: Vec<GateStatus> = r.gates.iter().map(|g| g.status).collect();
    assert_eq!(
        status,
        vec![
            GateStatus::Fail,
            GateStatus::Fail,
            GateStatus::Pass,
            GateStatus::Pass,
            GateStatus::Fail,
            // passThreshold: 3/10 is under the case's threshold.
            GateStatus::Fail
        ]
    );
    assert_eq!(r.exit_code, 1);
    assert!(
        r.gates[0]
            .reason
            .starts_with("pass rate 30.0% (3/10; 95% CI"),
        "{}",
        r.gates[0].reason
    );

    // No baseline: the regression gate cannot pass silently.
    let r = evaluate(&gates(), &good, None, &[]);
    assert_eq!(r.gates[4].status, GateStatus::InsufficientData);
    assert_eq!(r.exit_code, 3);

    // Too few samples for pass^3 and for the regression decision.
    let small = summarize(&run_with(2, 2));
    let cmp = compare(&summarize(&run_with(2, 2)), &small, 10);
    let r = evaluate(&gates(), &small, Some(&cmp), &[]);
    assert_eq!(r.gates[1].status, GateStatus::InsufficientData);
    assert_eq!(r.gates[4].status, GateStatus::InsufficientData);
    assert_eq!(r.exit_code, 3);
}

#[test]
fn unknown_cost_is_insufficient_and_over_budget_fails() {
    let mut run = run_with(10, 10);
    run.iterations[0].metrics.cost_usd = None;
    let g = Gates {
        max_cost_usd: Some(1.0),
        ..Gates::default()
    };
    let r = evaluate(&g, &summarize(&run), None, &[]);
    assert_eq!(r.gates[0].status, GateStatus::InsufficientData);
    assert!(
        r.gates[0].reason.contains("no price"),
        "{}",
        r.gates[0].reason
    );
    let g = Gates {
        max_cost_usd: Some(0.005),
        ..Gates::default()
    };
    let r = evaluate(&g, &summarize(&run_with(10, 10)), None, &[]);
    assert_eq!((r.gates[0].status, r.exit_code), (GateStatus::Fail, 1));
}

#[test]
fn invalid_runs_exit_3_even_when_a_gate_fails() {
    let mut run = run_with(2, 10);
    for i in 0..3 {
        run.iterations[i] = IterationRecord::errored(
            run.iterations[i].unit.clone(),
            "rate_limit: slow down".into(),
        );
    }
    let r = evaluate(
        &Gates {
            min_pass_rate: Some(0.9),
            ..Gates::default()
        },
        &summarize(&run),
        None,
        &[],
    );
    assert_eq!(r.gates[0].status, GateStatus::Fail);
    assert_eq!(r.exit_code, 3);
    assert!(
        r.invalid[0].contains("3 of 10 iterations ended in an error"),
        "{:?}",
        r.invalid
    );
    let r = evaluate(
        &Gates::default(),
        &summarize(&run_with(10, 10)),
        None,
        &["server demo unreachable".into()],
    );
    assert_eq!(r.exit_code, 3);
    // A cancelled run (fewer finished than planned) is incomplete.
    let mut cut = run_with(10, 10);
    cut.iterations.truncate(6);
    assert_eq!(
        evaluate(&Gates::default(), &summarize(&cut), None, &[]).exit_code,
        3
    );
}

/// A deterministic outcome per unit, standing in for a model that is right ~70 % of the time.
fn simulate(u: &Unit) -> IterationRecord {
    let h = u.case_id.len() as u32 * 7 + u.model.len() as u32 * 13 + u.iteration * 31;
    let mut r = it(&u.case_id, &u.model, u.iteration, h % 10 < 7);
    r.metrics.latency_ms = 500 + u64::from(h % 17) * 100;
    r
}

fn demo_suite_run() -> (RunRecord, Vec<Unit>) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/evals/demo.yaml"
    ))
    .unwrap();
    let suite = parse_suite(&text).unwrap();
    let units = plan(&resolved_cases(&suite));
    let mut iterations: Vec<IterationRecord> = units.iter().map(simulate).collect();
    // The unsharded runner finishes iterations in whatever order concurrency gives.
    iterations.reverse();
    let run = RunRecord {
        suite_id: suite.id.clone(),
        suite_hash: suite_hash(&suite),
        shard: None,
        cases: case_infos(&suite),
        planned: units.clone(),
        iterations,
    };
    (run, units)
}

#[test]
fn shards_merge_to_the_unsharded_result() {
    let (whole, units) = demo_suite_run();
    assert_eq!(units.len(), 7 * 2 * 5, "7 cases × 2 models × repeat 5");
    let count = 3;
    let mut shards = Vec::new();
    let mut covered = Vec::new();
    for index in 1..=count {
        let shard = Shard { index, count };
        let mine = shard_units(&units, shard);
        covered.extend(mine.iter().cloned());
        shards.push(RunRecord {
            shard: Some(shard),
            planned: mine.clone(),
            iterations: mine.iter().map(simulate).collect(),
            ..whole.clone()
        });
    }
    // Disjoint, complete and balanced to within one unit.
    covered.sort();
    let mut all = units.clone();
    all.sort();
    assert_eq!(covered, all);
    let sizes: Vec<usize> = shards.iter().map(|s| s.planned.len()).collect();
    assert!(
        sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
        "{sizes:?}"
    );
    // Same assignment every time.
    assert_eq!(
        shard_units(&units, Shard { index: 2, count }),
        shards[1].planned
    );

    shards.reverse();
    let merged = merge(shards.clone()).unwrap();
    assert_eq!(merged.planned, whole.planned);
    assert_eq!(summarize(&merged), summarize(&whole));
    let g = gates();
    let base = summarize(&whole);
    let (m, w) = (summarize(&merged), summarize(&whole));
    assert_eq!(
        evaluate(&g, &m, Some(&compare(&base, &m, 10)), &[]),
        evaluate(&g, &w, Some(&compare(&base, &w, 10)), &[])
    );

    // Refusals.
    assert!(matches!(
        merge(shards[..2].to_vec()),
        Err(MergeError::Missing { .. })
    ));
    let mut twice = shards.clone();
    twice[1] = twice[0].clone();
    assert!(matches!(merge(twice), Err(MergeError::Duplicate(_))));
    let mut other = shards.clone();
    other[0].suite_hash = "different".into();
    assert!(matches!(merge(other), Err(MergeError::Mismatch(_))));
    let mut stray = shards.clone();
    let foreign = stray[1].iterations[0].clone();
    stray[0].iterations.push(foreign);
    assert!(matches!(merge(stray), Err(MergeError::Overlap(_))));
    assert!(matches!(merge(vec![whole]), Err(MergeError::NotAShard(_))));
}

#[test]
fn shard_syntax() {
    assert_eq!(parse_shard("2/4"), Ok(Shard { index: 2, count: 4 }));
    for bad in ["0/4", "5/4", "1/0", "x/2", "3", ""] {
        assert!(parse_shard(bad).is_err(), "{bad}");
    }
}
