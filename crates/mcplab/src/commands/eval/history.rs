//! `mcplab eval runs|show|compare|merge`: stored runs listed, shown and compared (with
//! `--json` the same as JSON), and the `run.json` files of every shard of a run merged back
//! into the one run, judged again by its gates.

use mcplab_evals::run::model_label;
use std::path::Path;

use mcplab_evalrun::merge::store_merged;
use mcplab_evalrun::{HistoryError, compare_view, load_run, resolve_run_id, run_item, run_view};
use mcplab_evals::compare::{Change, Comparison};
use mcplab_evals::report::html_report;

use super::output::{RunFile, summary_text, write, write_reports};
use super::{CompareArgs, MergeArgs, RunsArgs, ShowArgs};
use crate::failure::Failure;
use crate::output::{out, outln};
use crate::settings::{DataDir, Settings};

fn history(e: HistoryError) -> Failure {
    Failure::usage(e.to_string())
}

fn time(ms: u64) -> String {
    // UTC, to the minute: runs are told apart by id, this is for orientation.
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

pub fn runs(args: RunsArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let store = data.store()?;
    let rows = store
        .eval_runs(args.suite.as_deref(), args.limit)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let items: Vec<_> = rows.iter().map(run_item).collect();
    if global.json {
        let list = &items;
        outln!(
            "{}",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
        return Ok(());
    }
    if items.is_empty() {
        outln!("no eval runs yet: mcplab eval run SUITE");
        return Ok(());
    }
    outln!(
        "{:12}  {:16}  {:24}  {:18}  {:10}  {:>9}  {:>5}",
        "RUN",
        "STARTED (UTC)",
        "SUITE",
        "KIND",
        "STATUS",
        "PASS",
        "EXIT"
    );
    for r in items {
        let pass = r
            .pass_rate
            .map_or("—".into(), |p| format!("{:.1}%", p * 100.0));
        let exit = r.exit_code.map_or("—".into(), |c| c.to_string());
        outln!(
            "{:12}  {:16}  {:24}  {:18}  {:10}  {:>9}  {:>5}",
            r.id,
            time(r.started_ms),
            r.suite_id,
            r.kind.label(),
            r.status,
            pass,
            exit
        );
    }
    Ok(())
}

pub fn show(args: ShowArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let store = data.store()?;
    let id = resolve_run_id(&store, &args.run).map_err(history)?;
    let run = load_run(&store, &id).map_err(history)?;
    if let Some(n) = args.iteration {
        return super::trace::show_iteration(&store, &run, &args, n, global.json);
    }
    let view = run_view(run);
    if let Some(path) = &args.html {
        let page = html_report(
            &view.record,
            &view.summary,
            view.gates.as_ref(),
            view.comparison.as_ref(),
        );
        write(path, &page)?;
    }
    if global.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&view).unwrap_or_default()
        );
        return Ok(());
    }
    outln!(
        "{} · started {} UTC · {} · host {}",
        view.header
            .suite_title
            .as_deref()
            .unwrap_or(&view.run.suite_id),
        time(view.run.started_ms),
        view.run.status,
        view.run.host_hash.get(..12).unwrap_or(&view.run.host_hash)
    );
    out!(
        "{}",
        summary_text(&id, &view.record, &view.summary, view.gates.as_ref())
    );
    let failing: Vec<_> = view
        .record
        .iterations
        .iter()
        .filter(|i| !i.outcome.is_pass())
        .collect();
    if !failing.is_empty() {
        outln!("\nnot passed:");
        for it in failing {
            let u = &it.unit;
            outln!(
                "  {} [{}] #{}",
                u.case_id,
                model_label(&u.model),
                u.iteration + 1
            );
            for f in &it.failures {
                outln!("    - {}", crate::output::safe(f));
            }
        }
        outln!("\n(the whole trace: mcplab eval show {id} --iteration N --case ID --model M)");
    }
    Ok(())
}

pub fn compare(args: CompareArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let store = data.store()?;
    let view = compare_view(&store, &args.base, &args.run, args.min_samples, args.traces)
        .map_err(history)?;
    if global.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&view).unwrap_or_default()
        );
        return Ok(());
    }
    out!(
        "{}",
        comparison_text(&view.base, &view.run, &view.comparison)
    );
    if let Some(traces) = view.traces {
        outln!("\nper iteration ({} differ):", traces.len());
        for t in traces {
            outln!(
                "  {} [{}] #{}",
                t.unit.case_id,
                model_label(&t.unit.model),
                t.unit.iteration + 1
            );
            for d in t.differences {
                outln!("    - {}", crate::output::safe(&d.to_string()));
            }
        }
    }
    Ok(())
}

fn comparison_text(base: &str, run: &str, c: &Comparison) -> String {
    let mut out = format!(
        "{run} against {base} (a change counts with ≥ {} iterations a side)\n",
        c.min_samples
    );
    for change in [
        Change::Regressed,
        Change::Fixed,
        Change::StillFailing,
        Change::New,
        Change::Removed,
        Change::StillPassing,
    ] {
        let cells: Vec<_> = c.cells.iter().filter(|x| x.change == change).collect();
        if cells.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{} ({}):\n", change.label(), cells.len()));
        for x in cells {
            let side = |v: Option<(u64, u64)>| v.map_or("—".into(), |(p, n)| format!("{p}/{n}"));
            let diff = match (x.difference, x.interval) {
                (Some(d), Some(i)) => format!(
                    "  {:+.1} points (95% CI {:+.1} to {:+.1}){}",
                    d * 100.0,
                    i.low * 100.0,
                    i.high * 100.0,
                    match x.significance {
                        Some(mcplab_evals::compare::Significance::InsufficientData) =>
                            " — insufficient data",
                        Some(mcplab_evals::compare::Significance::Worse) => " — significant",
                        Some(mcplab_evals::compare::Significance::Better) => " — significant",
                        _ => "",
                    }
                ),
                _ => String::new(),
            };
            out.push_str(&format!(
                "  {} [{}]: {} → {}{diff}\n",
                x.case_id,
                model_label(&x.model),
                side(x.base),
                side(x.run)
            ));
        }
    }
    out
}

/// A shard's `run.json`.
fn read_run_file(path: &Path) -> Result<RunFile, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!(
            "{} is not the run.json of `mcplab eval run --out DIR`: {e}",
            path.display()
        ))
    })
}

pub fn merge(args: MergeArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let files: Vec<RunFile> = args
        .shards
        .iter()
        .map(|p| read_run_file(p))
        .collect::<Result<_, _>>()?;
    let suite_gates = files
        .first()
        .map(|f| f.suite_gates.clone())
        .unwrap_or_default()
        .with_overrides(&args.gates.gates()?);
    let store = data.store()?;
    let shards = files.into_iter().map(|f| (f.run_id, f.record)).collect();
    let merged = store_merged(&store, shards, &suite_gates, args.baseline.as_deref())
        .map_err(Failure::usage)?;
    let file = RunFile {
        run_id: merged.run_id,
        record: merged.record,
        summary: merged.summary,
        gates: merged.gates,
        suite_gates,
        comparison: merged.comparison,
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    write_reports(
        &file,
        args.junit.as_deref(),
        args.html.as_deref(),
        args.out.as_deref(),
    )?;
    if global.json {
        outln!("{}", serde_json::to_string(&file).unwrap_or_default());
    } else {
        out!(
            "{}",
            summary_text(&file.run_id, &file.record, &file.summary, Some(&file.gates))
        );
        outln!("stored as run {0} (mcplab eval show {0})", file.run_id);
    }
    match u8::try_from(file.gates.exit_code) {
        Ok(0) => Ok(()),
        Ok(c) => Err(Failure::silent(c)),
        Err(_) => Err(Failure::silent(3)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(time(0), "1970-01-01 00:00");
        assert_eq!(time(1_709_210_096_000), "2024-02-29 12:34");
    }
}
