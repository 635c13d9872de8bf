//! `mcplab check`: turns the flags into `mcplab_check` options, lets the library check the
//! server in every era it speaks (connecting through CLI sessions, `connector.rs`), and
//! prints its renderings — text or `--json` on stdout, `--junit`, `--sarif`, `--markdown` and
//! `--write-baseline` files. With `--host`, each app is also rendered live under each profile
//! (mcplab-server's `headless::CheckRenderer`, Chromium as `apps render` finds it). Exit 0 without errors, 1 with errors, 2 usage, 3 when no era
//! could be connected (the report is still printed: what the server sent is judged too).

mod connector;
mod peers;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcplab_check::CheckOptions;
use mcplab_check::baseline;
use mcplab_check::eras::check_server;
use mcplab_check::live::LiveRenderer;
use mcplab_check::options::FuzzOptions;
use mcplab_check::render::{self, SarifOptions};
use mcplab_check::sets::registry;
use mcplab_protocol::check::{CheckReport, RuleSet, Severity};
use mcplab_protocol::host_profile::HostProfile;
use mcplab_protocol::{ServerConfig, ServerTransport};
use mcplab_server::headless::CheckRenderer;
use serde_json::{Value, json};

use crate::cli::{CheckArgs, ReadinessDirectory};
use crate::failure::{EXIT_CALL, EXIT_CONNECT, Failure};
use crate::output::Stdout;
use crate::settings::Settings;
use crate::target;

pub async fn run(args: CheckArgs, settings: &Settings) -> Result<(), Failure> {
    let o = Stdout { raw: settings.raw };
    if args.list_rules {
        return if settings.json {
            o.json(&rules_json())
        } else {
            o.print(&render::rules_list())
        };
    }
    let mut opts = CheckOptions {
        calls: args
            .calls
            .iter()
            .map(|c| parse_call(c))
            .collect::<Result<Vec<_>, _>>()?,
        token_budget: args.token_budget,
        hosts: host_profiles(&args.hosts, settings)?,
        fuzz: args.fuzz.map(|per_tool| FuzzOptions {
            per_tool,
            seed: args.seed,
            tools: args.fuzz_tools.clone(),
            timeout: settings.timeout,
        }),
        ..CheckOptions::default()
    };
    if !opts.hosts.is_empty() && !args.no_render {
        let chromium = crate::settings::chromium(settings.chromium.as_deref());
        let renderer = CheckRenderer::new(connector::render_options(settings), chromium);
        opts.live = Some(LiveRenderer(Arc::new(renderer)));
    }
    opts.sets.extend(args.readiness.iter().map(|d| match d {
        ReadinessDirectory::Claude => RuleSet::ReadinessClaude,
        ReadinessDirectory::Openai => RuleSet::ReadinessOpenai,
    }));
    if let Some(path) = &args.baseline {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::usage(format!("cannot read the baseline {}: {e}", path.display()))
        })?;
        let read = baseline::parse(&text)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        opts.baseline = Some(read);
    }
    let config = target::resolve(&settings.target, &settings.data)?;
    opts.peers = peers::tools(settings, &config).await;
    let label = target::label(&config);
    let mut connector = connector::Sessions { settings };
    let checked = check_server(config.clone(), &label, &opts, &mut connector).await?;
    let report = checked.report;
    if settings.json {
        o.json(&serde_json::to_value(&report).unwrap_or(Value::Null))?;
    } else {
        o.print(&render::text(&report))?;
    }
    write_files(&args, &report, &checked.surfaces, &config, settings)?;
    if report.unreachable() {
        return Err(Failure::silent(EXIT_CONNECT));
    }
    if report.count(Severity::Error) > 0 {
        return Err(Failure::silent(EXIT_CALL));
    }
    Ok(())
}

/// The host profiles of `--host` (`all`: every one), in the order named.
fn host_profiles(names: &[String], settings: &Settings) -> Result<Vec<HostProfile>, Failure> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let all = crate::commands::hosts::load(&settings.data)?;
    if names.iter().any(|n| n == "all") {
        return Ok(all.list().to_vec());
    }
    names
        .iter()
        .map(|n| crate::commands::hosts::require(&all, n).cloned())
        .collect()
}

/// The report's files: JUnit, SARIF, Markdown and the baseline of what was seen.
fn write_files(
    args: &CheckArgs,
    report: &CheckReport,
    surfaces: &[mcplab_protocol::check::Surface],
    config: &ServerConfig,
    settings: &Settings,
) -> Result<(), Failure> {
    if let Some(path) = &args.junit {
        write(path, &render::junit(report))?;
    }
    if let Some(path) = &args.sarif {
        let artifact = artifact(config, settings);
        let sarif = render::sarif(report, &SarifOptions { artifact });
        write(
            path,
            &serde_json::to_string_pretty(&sarif).unwrap_or_default(),
        )?;
    }
    if let Some(path) = &args.markdown {
        write(path, &render::markdown(report))?;
    }
    if let Some(path) = &args.write_baseline {
        if surfaces.is_empty() {
            return Err(Failure::call(format!(
                "no baseline written to {}: no era could be connected",
                path.display()
            )));
        }
        let now = mcplab_protocol::clock::now_ms();
        let b = baseline::baseline(&report.server, now, surfaces.to_vec());
        write(path, &serde_json::to_string_pretty(&b).unwrap_or_default())?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))
}

/// What SARIF results point at: the `--config` file, else a stdio server's script when it
/// is a file, else the server's label.
fn artifact(config: &ServerConfig, settings: &Settings) -> String {
    if let Some(file) = &settings.target.config {
        return relative(file);
    }
    if let ServerTransport::Stdio { args, .. } = &config.transport
        && let Some(script) = args.iter().find(|a| Path::new(a).is_file())
    {
        return relative(Path::new(script));
    }
    target::label(config)
}

/// A path relative to the working directory when it is inside it (SARIF viewers resolve
/// artifact URIs against the repository root).
fn relative(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    abs.strip_prefix(&cwd).unwrap_or(&abs).display().to_string()
}

/// `--list-rules --json`: every rule of every set.
fn rules_json() -> Value {
    let sets: Vec<Value> = registry()
        .into_iter()
        .map(|d| {
            let rules: Vec<Value> = d
                .rules
                .iter()
                .map(|r| {
                    json!({
                        "id": r.id,
                        "severity": r.severity(),
                        "summary": r.summary,
                        "source": r.url(None),
                        "sourceRead": r.read(),
                        "fix": r.fix,
                    })
                })
                .collect();
            json!({"ruleSet": d.set, "title": d.title, "alwaysOn": d.always, "rules": rules})
        })
        .collect();
    json!({ "ruleSets": sets })
}

/// `NAME` or `NAME=JSON` (the tool's arguments, an object).
fn parse_call(text: &str) -> Result<(String, Value), Failure> {
    let Some((name, args)) = text.split_once('=') else {
        return Ok((text.to_owned(), Value::Object(Default::default())));
    };
    let args: Value = serde_json::from_str(args).map_err(|e| {
        Failure::usage(format!("--call {name}=…: the arguments are not JSON ({e})"))
    })?;
    if !args.is_object() {
        return Err(Failure::usage(format!(
            "--call {name}=…: the arguments must be a JSON object"
        )));
    }
    Ok((name.to_owned(), args))
}
