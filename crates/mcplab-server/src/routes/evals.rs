//! `/api/evals`: the suites folder (a directory the user sets; files are read and written only
//! directly inside it, by plain file name), suites in it (listed, read, saved after they load),
//! runs (started, streamed, cancelled, listed, shown from the store, one iteration's trace, a
//! suite's pass rate over its runs), cases added to a suite (from a chat session, or drafted
//! by a model from the connected servers' tools). Running is `crate::evals`; judging, storing
//! and drafting is `mcplab-evalrun`.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use futures::Stream;
use mcplab_evalrun::{
    Overrides, Prepared, SuiteText, is_trusted, launch_list, launch_text, load_run, prepare,
    remember_trusted, resolve_run_id, run_item, run_view,
};
use mcplab_mcp::Listing;
use mcplab_protocol::ServerStatus;
use mcplab_protocol::api::{DraftCasesRequest, DraftedCases};
use mcplab_protocol::evals::{
    CaseAdded, CaseInput, EvalCompareView, EvalFolder, EvalFolderInput, EvalRunItem,
    EvalRunRequest, EvalRunStarted, EvalRunView, IterationView, LaunchCheck, SuiteEntry, SuiteFile,
    SuiteInput, SuiteSaved, TrendPoint,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::error::ApiFailure;
use crate::evals::{self, Launch};

const FOLDER_PREF: &str = "evals.folder";
/// Suites larger than this are refused (the evals crate's own limit is checked on load too).
const MAX_SUITE_BYTES: usize = 1 << 20;

fn folder(app: &AppState) -> Result<PathBuf, ApiFailure> {
    let prefs = app.store.prefs()?;
    prefs
        .get(FOLDER_PREF)
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .ok_or_else(|| ApiFailure::bad_request("choose a suites folder first (Evals → Folder)"))
}

/// A plain file name in the folder: no separators, no dot files, a suite extension, and not
/// a symlink or directory.
fn suite_path(app: &AppState, name: &str) -> Result<PathBuf, ApiFailure> {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    let ext = [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e));
    if !plain || !ext {
        return Err(ApiFailure::bad_request(format!(
            "`{name}` is not a suite file name: use letters, digits, `.`, `-`, `_` and end in \
             .yaml, .yml or .json"
        )));
    }
    let path = folder(app)?.join(name);
    // A symlink (or anything but a plain file) could lead out of the folder.
    match std::fs::symlink_metadata(&path) {
        Ok(m) if !m.file_type().is_file() => Err(ApiFailure::bad_request(format!(
            "`{name}` is not a plain file in the suites folder (symlinks are not followed)"
        ))),
        _ => Ok(path),
    }
}

/// `GET /api/evals/folder`.
pub(super) async fn get_folder(
    State(app): State<Arc<AppState>>,
) -> Result<Json<EvalFolder>, ApiFailure> {
    let folder = app
        .store
        .prefs()?
        .get(FOLDER_PREF)
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(Json(EvalFolder { folder }))
}

/// `PUT /api/evals/folder`: an absolute path to an existing directory.
pub(super) async fn set_folder(
    State(app): State<Arc<AppState>>,
    Json(input): Json<EvalFolderInput>,
) -> Result<Json<EvalFolder>, ApiFailure> {
    let path = PathBuf::from(input.folder.trim());
    if !path.is_absolute() || !path.is_dir() {
        return Err(ApiFailure::bad_request(format!(
            "{} is not an existing directory: give an absolute path",
            path.display()
        )));
    }
    let canonical = path
        .canonicalize()
        .map_err(|e| ApiFailure::bad_request(format!("{}: {e}", path.display())))?;
    let text = canonical.to_string_lossy().into_owned();
    app.store.set_pref(FOLDER_PREF, &json!(text))?;
    Ok(Json(EvalFolder { folder: Some(text) }))
}

/// `GET /api/evals/suites`: the suite files in the folder, each with its id and title, or why
/// it does not load.
pub(super) async fn list_suites(
    State(app): State<Arc<AppState>>,
) -> Result<Json<Vec<SuiteEntry>>, ApiFailure> {
    let dir = folder(&app)?;
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| ApiFailure::bad_request(format!("cannot read {}: {e}", dir.display())))?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| suite_path(&app, n).is_ok())
        .collect();
    names.sort();
    let entry = |name: &String| {
        let loaded = SuiteText::read(&dir.join(name))
            .map_err(|e| e.to_string())
            .and_then(|text| mcplab_evalrun::prepare::load(&text).map_err(|e| e.to_string()));
        let (id, title, error) = match loaded {
            Ok((suite, _, _)) => (Some(suite.id), suite.title, None),
            Err(e) => (None, None, Some(e)),
        };
        SuiteEntry {
            name: name.clone(),
            id,
            title,
            error,
        }
    };
    Ok(Json(names.iter().map(entry).collect()))
}

/// `GET /api/evals/suites/{name}`.
pub(super) async fn get_suite(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<SuiteFile>, ApiFailure> {
    let path = suite_path(&app, &name)?;
    let text = SuiteText::read(&path).map_err(|e| ApiFailure::not_found(e.to_string()))?;
    Ok(Json(SuiteFile {
        name,
        text: text.text,
    }))
}

/// `PUT /api/evals/suites/{name}`: saved only if it loads (every problem in the answer).
pub(super) async fn put_suite(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(input): Json<SuiteInput>,
) -> Result<Json<SuiteSaved>, ApiFailure> {
    let path = suite_path(&app, &name)?;
    if input.text.len() > MAX_SUITE_BYTES {
        return Err(ApiFailure::bad_request("the suite is over 1 MiB: split it"));
    }
    let text = SuiteText {
        text: input.text,
        path: Some(path.clone()),
    };
    let (suite, _, _) =
        mcplab_evalrun::prepare::load(&text).map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    std::fs::write(&path, &text.text)
        .map_err(|e| ApiFailure::bad_request(format!("cannot write {}: {e}", path.display())))?;
    Ok(Json(SuiteSaved { name, id: suite.id }))
}

/// `POST /api/evals/runs`: prepares the suite (its problems answer 400) and starts the run.
pub(super) async fn start_run(
    State(app): State<Arc<AppState>>,
    Json(input): Json<EvalRunRequest>,
) -> Result<(StatusCode, Json<EvalRunStarted>), ApiFailure> {
    if input.repeat == Some(0) || input.concurrency == Some(0) {
        return Err(ApiFailure::bad_request(
            "repeat and concurrency are at least 1",
        ));
    }
    let path = suite_path(&app, &input.suite)?;
    let text = SuiteText::read(&path).map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    let overrides = Overrides {
        models: input.models.into_iter().filter(|m| !m.is_empty()).collect(),
        repeat: input.repeat,
        cases: Vec::new(),
        hosts_dir: app.hosts_dir.get().cloned(),
    };
    let prepared = prepare(&text, &app.store, &overrides)
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    agreed(&app, &prepared, input.confirm.as_deref())?;
    let launch = Launch {
        prepared,
        concurrency: input.concurrency,
    };
    let id = evals::start(&app, launch).map_err(ApiFailure::bad_request)?;
    Ok((StatusCode::ACCEPTED, Json(EvalRunStarted { run_id: id })))
}

/// A run starts only what the person agreed to: a list agreed before, or this request's
/// `confirm` naming the list's hash (then remembered).
fn agreed(app: &AppState, prepared: &Prepared, confirm: Option<&str>) -> Result<(), ApiFailure> {
    let list = launch_list(prepared);
    if list.items.is_empty() || is_trusted(&app.store, &list.hash)? {
        return Ok(());
    }
    if confirm == Some(list.hash.as_str()) {
        return Ok(remember_trusted(&app.store, &list.hash)?);
    }
    Err(ApiFailure::new(
        StatusCode::CONFLICT,
        "launch_unconfirmed",
        format!(
            "{}Agree to the list first (the Run button shows it).",
            launch_text(&list)
        ),
    ))
}

/// `GET /api/evals/suites/{name}/launch`: what a run of the suite would start and drive.
pub(super) async fn launch(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<LaunchCheck>, ApiFailure> {
    let path = suite_path(&app, &name)?;
    let text = SuiteText::read(&path).map_err(|e| ApiFailure::not_found(e.to_string()))?;
    let overrides = Overrides {
        hosts_dir: app.hosts_dir.get().cloned(),
        ..Overrides::default()
    };
    let prepared = prepare(&text, &app.store, &overrides)
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    let list = launch_list(&prepared);
    let trusted = list.items.is_empty() || is_trusted(&app.store, &list.hash)?;
    Ok(Json(LaunchCheck { list, trusted }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct EventsQuery {
    last_event_id: Option<u64>,
}

/// `GET /api/evals/runs/{id}/events`: the run's events as SSE (runs started by this process).
pub(super) async fn run_events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiFailure> {
    let run = app
        .evals
        .get(&id)
        .ok_or_else(|| ApiFailure::not_found(format!("no live eval run `{id}`")))?;
    Ok(crate::events::sse(&run.ring, &headers, q.last_event_id))
}

/// `POST /api/evals/runs/{id}/cancel`: stops new iterations; finished ones are kept.
pub(super) async fn cancel_run(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    let run = app
        .evals
        .get(&id)
        .ok_or_else(|| ApiFailure::not_found(format!("no live eval run `{id}`")))?;
    run.cancel.cancel();
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/evals/runs`: stored runs, newest first.
pub(super) async fn list_runs(
    State(app): State<Arc<AppState>>,
) -> Result<Json<Vec<EvalRunItem>>, ApiFailure> {
    let rows = app.store.eval_runs(None, 200)?;
    Ok(Json(rows.iter().map(run_item).collect()))
}

/// `GET /api/evals/runs/{id}`: a stored run (`last` or a unique prefix works too), with its
/// iterations' records and the statistics.
pub(super) async fn show_run(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<EvalRunView>, ApiFailure> {
    let not_found = |e: mcplab_evalrun::HistoryError| ApiFailure::not_found(e.to_string());
    let id = resolve_run_id(&app.store, &id).map_err(not_found)?;
    let run = load_run(&app.store, &id).map_err(not_found)?;
    Ok(Json(run_view(run)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct IterationQuery {
    case_id: String,
    model: String,
    /// 0-based, as in the run's record.
    iteration: u32,
}

/// `GET /api/evals/runs/{id}/iteration?caseId=&model=&iteration=`: one iteration's trace (its
/// turns' events, tool calls with arguments and results, checks with reasons, tokens, clocks,
/// error), fetched when the page opens it.
pub(super) async fn show_iteration(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<IterationQuery>,
) -> Result<Json<IterationView>, ApiFailure> {
    let not_found = |e: mcplab_evalrun::HistoryError| ApiFailure::not_found(e.to_string());
    let id = resolve_run_id(&app.store, &id).map_err(not_found)?;
    let unit = mcplab_evals::run::Unit {
        case_id: q.case_id,
        model: q.model,
        iteration: q.iteration,
    };
    let trace = mcplab_evalrun::iteration_trace(&app.store, &id, &unit).map_err(not_found)?;
    Ok(Json(trace))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TrendQuery {
    suite_id: String,
}

/// Runs of a suite on the chart, at most.
const TREND_RUNS: usize = 100;

/// `GET /api/evals/trend?suiteId=ID`: the suite's newest ended runs, oldest first, each with
/// the pass rate per model (every case pooled) and its 95 % Wilson interval.
pub(super) async fn trend(
    State(app): State<Arc<AppState>>,
    Query(q): Query<TrendQuery>,
) -> Result<Json<Vec<TrendPoint>>, ApiFailure> {
    let points = mcplab_evalrun::trend::pass_rate_trend(&app.store, &q.suite_id, TREND_RUNS)
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    Ok(Json(points))
}

#[derive(Deserialize)]
pub(super) struct CompareQuery {
    base: String,
    run: String,
}

/// `GET /api/evals/compare?base=A&run=B`: per case × model, Fixed / Regressed / Still failing
/// / Still passing / New / Removed, with the difference's interval and significance.
pub(super) async fn compare(
    State(app): State<Arc<AppState>>,
    Query(q): Query<CompareQuery>,
) -> Result<Json<EvalCompareView>, ApiFailure> {
    let view = mcplab_evalrun::compare_view(&app.store, &q.base, &q.run, None, false)
        .map_err(|e| ApiFailure::not_found(e.to_string()))?;
    Ok(Json(view))
}

/// `POST /api/evals/suites/{name}/cases`: a saved chat session appended to the suite as a case
/// (its user turns, the tool calls it made as expected calls); the rest of the file is kept.
pub(super) async fn add_case(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(input): Json<CaseInput>,
) -> Result<Json<CaseAdded>, ApiFailure> {
    let path = suite_path(&app, &name)?;
    let text = SuiteText::read(&path).map_err(|e| ApiFailure::not_found(e.to_string()))?;
    let case = mcplab_evalrun::authoring::case_from_session(&app.store, &input.session_id, None)
        .map_err(ApiFailure::bad_request)?;
    let (updated, id) = mcplab_evalrun::authoring::append_case(&text.text, case)
        .map_err(|why| ApiFailure::bad_request(format!("{name}: {why}")))?;
    std::fs::write(&path, updated)
        .map_err(|e| ApiFailure::bad_request(format!("cannot write {}: {e}", path.display())))?;
    Ok(Json(CaseAdded { name, case_id: id }))
}

/// Most cases one draft request asks a model for.
const MAX_DRAFTS: u32 = 20;

/// `POST /api/evals/suites/{name}/drafts`: cases `model` drafts from the tools of the connected
/// servers (or of `servers`), appended to the suite one by one, as `mcplab eval init --generate`
/// writes them. Nothing is written unless every case appends. The file is read again once the
/// model answered, so a save made meanwhile is kept. A dropped request (the page's Cancel)
/// drops this future with its connection: the model's answer is not awaited, nothing written.
pub(super) async fn draft_cases(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(input): Json<DraftCasesRequest>,
) -> Result<Json<DraftedCases>, ApiFailure> {
    let count = input.count.unwrap_or(5);
    if !(1..=MAX_DRAFTS).contains(&count) {
        return Err(ApiFailure::bad_request(format!(
            "count {count}: ask for 1 to {MAX_DRAFTS} cases"
        )));
    }
    let path = suite_path(&app, &name)?;
    let read = || SuiteText::read(&path).map_err(|e| ApiFailure::not_found(e.to_string()));
    read()?;
    let tools = server_tools(&app, input.servers).await?;
    let (model, provider) = app
        .sessions
        .provider_for(&input.model)
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    let cases = mcplab_evalrun::drafting::draft_cases(
        provider.as_ref(),
        model,
        &tools,
        count,
        &CancellationToken::new(),
    )
    .await
    .map_err(|why| ApiFailure::bad_request(format!("{}: {why}", input.model)))?;
    let mut updated = read()?.text;
    let mut case_ids = Vec::new();
    for case in cases {
        let (next, id) = mcplab_evalrun::authoring::append_case(&updated, case)
            .map_err(|why| ApiFailure::bad_request(format!("{name}: {why}")))?;
        updated = next;
        case_ids.push(id);
    }
    std::fs::write(&path, updated)
        .map_err(|e| ApiFailure::bad_request(format!("cannot write {}: {e}", path.display())))?;
    Ok(Json(DraftedCases { name, case_ids }))
}

/// Each named (or else each connected) server's `tools/list` entries.
async fn server_tools(
    app: &AppState,
    names: Option<Vec<String>>,
) -> Result<Vec<(String, Vec<Value>)>, ApiFailure> {
    let names = names.unwrap_or_else(|| {
        app.manager
            .statuses()
            .into_iter()
            .filter(|(_, s)| matches!(s, ServerStatus::Connected))
            .map(|(n, _)| n)
            .collect()
    });
    if names.is_empty() {
        return Err(ApiFailure::bad_request(
            "no server is connected: connect the servers whose tools the cases should call",
        ));
    }
    let mut out = Vec::new();
    for name in names {
        let listed = app
            .manager
            .get(&name)?
            .list_all(Listing::Tools, Default::default())
            .await?;
        let tools = listed["tools"].as_array().cloned().unwrap_or_default();
        out.push((name, tools));
    }
    Ok(out)
}
