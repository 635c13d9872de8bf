//! `mcplab eval schema|init|import|add-case`: the suite schema for editors, a starter suite for
//! the target servers (optionally with more cases a model drafts), MCPJam suites converted
//! (with what could not be carried over listed), and a saved chat session as a case.

use std::path::Path;

use mcplab_evalrun::authoring::{
    append_case, case_from_session, case_yaml, negative_case, tool_cases,
};
use mcplab_evalrun::drafting::draft_cases;
use mcplab_evals::import::{self, safe_id};
use mcplab_evals::suite::{self, Case};
use mcplab_llm::ModelRef;
use mcplab_mcp::Listing;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::output::write;
use super::{AddCaseArgs, ImportArgs, InitArgs};
use crate::failure::Failure;
use crate::output::{out, outln};
use crate::session::Session;
use crate::settings::{DataDir, Settings};
use crate::target;

pub fn schema() -> Result<(), Failure> {
    let schema = suite::suite_schema();
    outln!(
        "{}",
        serde_json::to_string_pretty(&schema).unwrap_or_default()
    );
    Ok(())
}

fn emit(output: Option<&Path>, text: &str) -> Result<(), Failure> {
    match output {
        Some(p) => {
            write(p, text)?;
            eprintln!("wrote {}", p.display());
            Ok(())
        }
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

pub fn import(args: ImportArgs) -> Result<(), Failure> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", args.file.display())))?;
    let name = args
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    let imported = import::import(&text, &name).map_err(|e| Failure::usage(e.to_string()))?;
    eprintln!(
        "read {} as an {}",
        args.file.display(),
        imported.format.label()
    );
    for n in &imported.notes {
        eprintln!("  {:?}: {}: {}", n.kind, n.path, n.message);
    }
    emit(
        args.output.as_deref(),
        &import::to_yaml(&imported.suite, &imported.notes),
    )
}

pub fn add_case(args: AddCaseArgs, data: &DataDir) -> Result<(), Failure> {
    let store = data.store()?;
    let case = case_from_session(&store, &args.from_session, args.id.as_deref())
        .map_err(Failure::usage)?;
    let Some(path) = &args.suite else {
        out!("{}", case_yaml(&case));
        return Ok(());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    match append_case(&text, case.clone()) {
        Ok((updated, id)) => {
            write(path, &updated)?;
            eprintln!("added case `{id}` to {}", path.display());
            Ok(())
        }
        Err(why) => {
            out!("{}", case_yaml(&case));
            Err(Failure::usage(format!(
                "{}: {why} (the case is printed above)",
                path.display()
            )))
        }
    }
}

pub async fn init(args: InitArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let configs = target::resolve_many(&global.target, data)?;
    if configs.is_empty() {
        return Err(Failure::usage(
            "name the servers to write cases for: --server NAME (repeatable), --demo, --stdio or --url",
        ));
    }
    let session = Session::open_all(global, configs.clone()).await?;
    let listed = list_tools(&session, &configs).await;
    let drafted = match (args.generate, args.models.first()) {
        (Some(n), Some(model)) if n > 0 => {
            let r = draft(model, &listed, n, data, &session.interrupted).await;
            Some(r)
        }
        (Some(_), None) => {
            session.close().await;
            return Err(Failure::usage(
                "--generate needs a model to draft with: --model provider::model",
            ));
        }
        _ => None,
    };
    session.close().await;
    let listed = listed?;
    let mut cases: Vec<Case> = listed.iter().flat_map(|(s, t)| tool_cases(s, t)).collect();
    match drafted {
        Some(Ok(more)) => cases.extend(more),
        Some(Err(why)) => eprintln!("warning: no cases drafted: {why}"),
        None => {}
    }
    cases.push(negative_case());
    let mut seen = std::collections::HashSet::new();
    cases.retain(|c| seen.insert(c.id.clone()));
    let configured =
        global.target.stdio.is_none() && global.target.url.is_none() && !global.target.demo;
    let names: Vec<&str> = configs.iter().map(|c| c.name.as_str()).collect();
    let mut doc = json!({
        "version": 1,
        "id": args.id.clone().unwrap_or_else(|| safe_id(&names.join("-"), "suite")),
        "title": format!("Starter suite for {}", names.join(", ")),
    });
    if configured {
        doc["servers"] = json!(names);
    } else {
        doc["mcpServers"] = mcplab_core::config::render_mcp_servers(&configs)["mcpServers"].clone();
    }
    if !args.models.is_empty() {
        doc["models"] = json!(args.models);
    }
    doc["repeat"] = json!(3);
    doc["defaults"] = json!({ "checks": [{ "turnFinished": true }, { "noToolErrors": true }] });
    doc["cases"] = serde_json::to_value(&cases).unwrap_or(Value::Null);
    let text = format!(
        "# A starter suite: edit the prompts and expected arguments, then\n#   mcplab eval run THIS_FILE{}\n# (JSON Schema for editors: mcplab eval schema > suite.schema.json)\n{}\n",
        if args.models.is_empty() {
            " --model provider::model"
        } else {
            ""
        },
        mcplab_yaml::to_yaml(&doc)
    );
    suite::parse_suite(&text).map_err(|e| {
        Failure::usage(format!(
            "the starter suite does not load (please report this): {e}"
        ))
    })?;
    emit(args.output.as_deref(), &text)
}

async fn list_tools(
    session: &Session,
    configs: &[mcplab_protocol::ServerConfig],
) -> Result<Vec<(String, Vec<Value>)>, Failure> {
    let mut out = Vec::new();
    for c in configs {
        let conn = session.manager().get(&c.name)?;
        let listed = conn.list_all(Listing::Tools, Default::default()).await?;
        out.push((
            c.name.clone(),
            listed["tools"].as_array().cloned().unwrap_or_default(),
        ));
    }
    Ok(out)
}

/// Asks `model` for `n` more cases from the tools' descriptions.
async fn draft(
    model: &str,
    listed: &Result<Vec<(String, Vec<Value>)>, Failure>,
    n: u32,
    data: &DataDir,
    cancel: &CancellationToken,
) -> Result<Vec<Case>, String> {
    let listed = listed.as_ref().map_err(|e| e.message.clone())?;
    let store = data.store().map_err(|e| e.message)?;
    let settings = super::run::provider_settings(&store);
    let model = ModelRef::parse(model).map_err(|e| e.to_string())?;
    let provider = settings
        .provider(&model.provider, &mcplab_net::tls::client())
        .map_err(|e| e.to_string())?;
    draft_cases(provider.as_ref(), model, listed, n, cancel).await
}
