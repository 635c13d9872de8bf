//! `mcplab eval run`: the suite prepared against the data directory's servers and providers,
//! run by `mcplab-evalrun` with this process's connections (server requests declined, OAuth
//! per `--oauth`, Ctrl-C cancelling), progress printed as it goes, the run stored, the reports
//! written, and the gates' verdict as the exit code.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mcplab_evalrun::{
    AppRenderer, Overrides, RunEnv, RunError, RunOutcome, RunSink, RunSpec, SuiteText, ToolCheck,
    prepare,
};
use mcplab_evals::shard::parse_shard;
use mcplab_evals::suite::Gates;
use mcplab_llm::ProviderSettings;
use mcplab_llm::prices::PriceTable;
use mcplab_protocol::ServerTransport;
use mcplab_server::headless::LoopbackRenderer;
use mcplab_server::otlp::OtlpRunSink;
use mcplab_store::Store;

use super::RunArgs;
use super::output::{CliSink, RunFile, summary_text, write_reports};
use crate::cli::ElicitationMode;
use crate::failure::Failure;
use crate::output::{out, outln};
use crate::session::Session;
use crate::settings::{self, DataDir, Settings};

pub async fn run(args: RunArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let store = Arc::new(data.store()?);
    let file = SuiteText::read(&args.suite).map_err(|e| Failure::usage(e.to_string()))?;
    let overrides = Overrides {
        models: args.models.clone(),
        repeat: args.repeat,
        cases: args.cases.clone(),
        hosts_dir: Some(data.dir().join("hosts")),
    };
    let prepared = prepare(&file, &store, &overrides).map_err(|e| Failure::usage(e.to_string()))?;
    if let Some(format) = prepared.imported_from {
        eprintln!(
            "note: read {} as an {}",
            args.suite.display(),
            format.label()
        );
    }
    for note in &prepared.notes {
        eprintln!("note: {note}");
    }
    let shard = args
        .shard
        .as_deref()
        .map(parse_shard)
        .transpose()
        .map_err(Failure::usage)?;
    if args.repeat == Some(0) || args.concurrency == Some(0) {
        return Err(Failure::usage("--repeat and --concurrency are at least 1"));
    }
    let prices = prices(args.prices.as_deref(), data)?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    let gates = args.gates.gates()?;
    let otlp = crate::otlp::start(args.otlp.otlp.as_deref())?;
    let suite_gates = prepared.suite.gates.with_overrides(&gates);
    if args.replay.is_none() {
        super::trust::confirm(&prepared, &store, args.yes)?;
    }

    // Nobody answers a server's questions during a run: declined, not asked on the terminal.
    let mut quiet = global.clone();
    quiet.elicitation = Some(ElicitationMode::Decline);
    let session = Session::open_as(
        &quiet,
        Vec::new(),
        mcplab_evalrun::first_declaration(&prepared),
    )
    .await?;
    let remote = prepared
        .servers
        .iter()
        .any(|c| !matches!(c.transport, ServerTransport::Stdio { .. }));
    if remote && let Some(host) = crate::session::oauth::host(global)? {
        session.manager().set_oauth(host);
    }
    if args.check_only {
        let checked = mcplab_evalrun::check_only(session.manager(), &prepared).await;
        session.close().await;
        return check_only_report(checked.map_err(run_failure)?, global.json);
    }
    let renderer: Result<Arc<dyn AppRenderer>, String> =
        match settings::chromium(global.chromium.as_deref()) {
            Some(path) if path.is_file() => Ok(Arc::new(LoopbackRenderer::new(
                prepared.servers.clone(),
                path,
            ))),
            Some(path) => Err(format!(
                "Chromium not found at {} (pass --chromium PATH or set MCPLAB_CHROMIUM)",
                path.display()
            )),
            None => Err(
                "Chromium not found on PATH: install the `chromium` package or pass \
                         --chromium PATH"
                    .into(),
            ),
        };
    let env = RunEnv {
        providers: provider_settings(&store),
        store,
        manager: session.manager().clone(),
        http: mcplab_net::tls::client(),
        prices,
        renderer,
    };
    let spec = RunSpec {
        shard,
        concurrency: args.concurrency,
        timeout: args.iteration_timeout.map(Duration::from_secs),
        record: args.record,
        replay: args.replay.clone(),
        baseline: args.baseline.clone(),
        gates,
        ..RunSpec::new(prepared)
    };
    let events = args.out.as_ref().map(|d| d.join("events.jsonl"));
    let sink = Arc::new(CliSink::new(global.json, events.as_deref())?);
    let run_sink: Arc<dyn RunSink> = match &otlp {
        Some(exporter) => Arc::new(OtlpRunSink::new(sink.clone(), exporter.clone())),
        None => sink.clone(),
    };
    let result = mcplab_evalrun::run(spec, env, run_sink, session.interrupted.clone()).await;
    sink.finish();
    crate::otlp::finish(otlp).await;
    session.close().await;
    let outcome = result.map_err(run_failure)?;
    finish(&args, global.json, outcome, suite_gates)
}

fn run_failure(e: RunError) -> Failure {
    match e {
        RunError::Servers(m) => Failure::connect(m),
        RunError::Usage(m) | RunError::Suite(m) | RunError::Store(m) => Failure::usage(m),
    }
}

/// `--check-only`: what was checked, on stdout.
fn check_only_report(checked: ToolCheck, json: bool) -> Result<(), Failure> {
    if json {
        outln!(
            "{}",
            serde_json::json!({"checked": true, "toolNames": checked.names,
                "servers": checked.servers, "hosts": checked.hosts})
        );
    } else {
        outln!(
            "the suite checks out: {} tool name{} found on {} server{} (as {} host declaration{} see them)",
            checked.names,
            plural(checked.names),
            checked.servers,
            plural(checked.servers),
            checked.hosts,
            plural(checked.hosts)
        );
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn finish(
    args: &RunArgs,
    json: bool,
    outcome: RunOutcome,
    suite_gates: Gates,
) -> Result<(), Failure> {
    let code = outcome.exit_code();
    let file = RunFile {
        run_id: outcome.run_id.clone(),
        record: outcome.record,
        summary: outcome.summary,
        gates: outcome.gates,
        suite_gates,
        comparison: outcome.comparison,
    };
    write_reports(
        &file,
        args.junit.as_deref(),
        args.html.as_deref(),
        args.out.as_deref(),
    )?;
    if !json {
        out!(
            "{}",
            summary_text(&file.run_id, &file.record, &file.summary, Some(&file.gates))
        );
        if code == 130 {
            outln!("cancelled: the finished iterations are kept");
        }
        outln!("stored as run {0} (mcplab eval show {0})", file.run_id);
    }
    match u8::try_from(code) {
        Ok(0) => Ok(()),
        Ok(c) => Err(Failure::silent(c)),
        Err(_) => Err(Failure::silent(3)),
    }
}

/// The shipped prices, then the data directory's `prices.json` (as chat and `serve` read it),
/// then `--prices`.
fn prices(flag: Option<&Path>, data: &DataDir) -> Result<PriceTable, Failure> {
    let mut table = mcplab_core::agent::cost::load_prices(data.dir())
        .map_err(Failure::usage)?
        .table;
    if let Some(path) = flag {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
        let over = PriceTable::parse_file(&text, &path.display().to_string())
            .map_err(|e| Failure::usage(e.to_string()))?;
        table = table.with_overrides(over);
    }
    Ok(table)
}

/// Provider settings from the environment with those saved in Settings.
pub fn provider_settings(store: &Store) -> ProviderSettings {
    let env: HashMap<String, String> = std::env::vars().collect();
    let mut settings = ProviderSettings::from_vars(&env);
    for (config, problem) in settings.merge_stored(store.provider_configs().unwrap_or_default()) {
        eprintln!("ignoring stored provider `{}`: {problem}", config.id);
    }
    settings
}
