//! Getting a suite ready to run: the file read as an mcplab suite or, when it is one, as an
//! MCPJam suite (converted, with what could not be carried over as notes); its `host` resolved
//! (inline, or a HostConfig file beside the suite, parsed as the chat parses it); the
//! servers it names turned into configs (configured ones from the store, inline `mcpServers`,
//! else the host's); and the run's overrides applied (models, repeat, cases). Every problem
//! is an error that says what to fix; nothing is connected or run here.

use std::path::{Path, PathBuf};

use mcplab_core::session::host;
use mcplab_core::session::profiles::{HostProfiles, apply_profile};
use mcplab_evals::import::{self, SourceFormat};
use mcplab_evals::suite::{self, HostSpec, Suite, SuiteErrors};
use mcplab_protocol::ServerConfig;
use mcplab_protocol::host::HostConfig;
use mcplab_store::{Store, StoreError};

/// A suite's text and where it came from (to find a `host` file beside it).
#[derive(Debug, Clone)]
pub struct SuiteText {
    pub text: String,
    pub path: Option<PathBuf>,
}

impl SuiteText {
    /// Reads `path`, refusing files over the suite size limit before reading them whole.
    pub fn read(path: &Path) -> Result<SuiteText, PrepareError> {
        let limit = suite::LoadLimits::default().max_bytes as u64;
        let io = |e: std::io::Error| PrepareError::Read {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let size = std::fs::metadata(path).map_err(io)?.len();
        if size > limit {
            return Err(PrepareError::Read {
                path: path.display().to_string(),
                message: format!(
                    "it is {size} bytes, over the {limit}-byte limit for a suite: split it"
                ),
            });
        }
        Ok(SuiteText {
            text: std::fs::read_to_string(path).map_err(io)?,
            path: Some(path.to_path_buf()),
        })
    }
}

/// What a run may change about a suite.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// Replace every model list (the suite's and each case's).
    pub models: Vec<String>,
    /// Replace every `repeat`.
    pub repeat: Option<u32>,
    /// Run only these cases (by id).
    pub cases: Vec<String>,
    /// Where the person's own host profiles are (the data directory's `hosts/`): a suite's
    /// `hosts:` may name them beside the built-in ones. `None`: built-in profiles only.
    pub hosts_dir: Option<PathBuf>,
}

/// A suite ready to run.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The suite as loaded (its hash identifies it), before overrides.
    pub loaded: Suite,
    /// The suite with the overrides applied: what runs.
    pub suite: Suite,
    /// The host turns run under (servers filled in, normalized); its `model` is replaced per
    /// iteration.
    pub host: HostConfig,
    /// The suite's `hosts:` by name: `host` run as each built-in host profile.
    pub hosts: std::collections::BTreeMap<String, HostConfig>,
    pub servers: Vec<ServerConfig>,
    pub source: Option<String>,
    /// The suite file's text, to place later problems at their lines (`None` when the file
    /// was converted from another format: its lines are not the suite's).
    pub text: Option<String>,
    /// Set when the file was an MCPJam suite.
    pub imported_from: Option<SourceFormat>,
    /// What the reader should know (import notes).
    pub notes: Vec<String>,
    /// For each case of `suite`, the index of the case in the file it came from (a dataset
    /// case makes one case per row).
    pub origins: Vec<usize>,
}

#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("cannot read {path}: {message}")]
    Read { path: String, message: String },
    #[error("{0}")]
    Suite(SuiteErrors),
    #[error("{0}")]
    Import(String),
    #[error("the host config {path}: {message}")]
    Host { path: String, message: String },
    #[error(
        "the suite names server `{0}`, which is not configured: add it (`mcplab servers add`, \
         the Servers page) or define it under `mcpServers` in the suite"
    )]
    UnknownServer(String),
    #[error("{0}")]
    Servers(String),
    #[error(
        "no model to run: list `models` in the suite, set `model` in its host, or pass --model \
         provider::model"
    )]
    NoModels,
    #[error("no case with id {0} in the suite (its cases: {1})")]
    UnknownCases(String, String),
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// Reads the suite (mcplab's format, or MCPJam's), resolves its host and servers against
/// `store`, and applies `overrides`.
pub fn prepare(
    file: &SuiteText,
    store: &Store,
    overrides: &Overrides,
) -> Result<Prepared, PrepareError> {
    let (mut loaded, imported_from, notes) = load(file)?;
    let folder = file
        .path
        .as_deref()
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let text = imported_from.is_none().then_some(file.text.as_str());
    read_datasets(&mut loaded, &folder, text)?;
    let (expanded, origins) = suite::expand(&loaded)
        .map_err(|problems| PrepareError::Suite(suite::locate_problems(text, problems)))?;
    let mut host = resolve_host(&loaded, file.path.as_deref())?;
    let servers = resolve_servers(&loaded, &host, store)?;
    let filters = std::mem::take(&mut host.servers);
    host.servers = servers
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                filters.get(&c.name).cloned().unwrap_or_default(),
            )
        })
        .collect();
    let host = host::normalized(&host);
    let hosts = resolve_profiles(&loaded, &host, overrides.hosts_dir.as_deref())?;
    let suite = apply(&expanded, &host, overrides)?;
    Ok(Prepared {
        loaded,
        suite,
        host,
        hosts,
        servers,
        source: file.path.as_ref().map(|p| p.display().to_string()),
        text: imported_from.is_none().then(|| file.text.clone()),
        imported_from,
        notes,
        origins,
    })
}

impl Prepared {
    /// The suite file's folder (check commands run there, datasets are read from there); the
    /// current directory when the suite has no file.
    pub fn folder(&self) -> PathBuf {
        self.source
            .as_deref()
            .map(Path::new)
            .and_then(Path::parent)
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    }
}

/// The suite's `hosts:` and its cases' `host`s as HostConfigs (built-in or the person's own
/// profiles over the suite's host).
fn resolve_profiles(
    suite: &Suite,
    base: &HostConfig,
    own: Option<&Path>,
) -> Result<std::collections::BTreeMap<String, HostConfig>, PrepareError> {
    let mut names: Vec<&String> = suite.hosts.iter().collect();
    for case in &suite.cases {
        if let Some(h) = &case.host
            && !names.contains(&h)
        {
            names.push(h);
        }
    }
    if names.is_empty() {
        return Ok(Default::default());
    }
    let err = |message: String| PrepareError::Host {
        path: "hosts".into(),
        message,
    };
    let all = HostProfiles::load(own).map_err(|e| err(e.to_string()))?;
    names
        .into_iter()
        .map(|name| {
            let profile = all.require(name).map_err(err)?;
            Ok((name.clone(), apply_profile(base, &profile.host_config)))
        })
        .collect()
}

/// The suite in the file, converting an MCPJam file. An mcplab suite (the usual file) is
/// parsed once; only a file that is not one is read again, to tell an MCPJam file (converted)
/// from a broken suite (its errors reported).
pub fn load(file: &SuiteText) -> Result<(Suite, Option<SourceFormat>, Vec<String>), PrepareError> {
    match suite::parse_suite(&file.text) {
        Ok(suite) => Ok((suite, None, Vec::new())),
        Err(_) if is_mcpjam(&file.text) => import_mcpjam(file),
        Err(errors) => Err(PrepareError::Suite(errors)),
    }
}

fn import_mcpjam(
    file: &SuiteText,
) -> Result<(Suite, Option<SourceFormat>, Vec<String>), PrepareError> {
    let name = file
        .path
        .as_ref()
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    let imported =
        import::import(&file.text, &name).map_err(|e| PrepareError::Import(e.to_string()))?;
    let notes = imported
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.path, n.message))
        .collect();
    Ok((imported.suite, Some(imported.format), notes))
}

/// Whether `text` is an MCPJam file (`tests.json`'s array, or a suite file v1 with
/// `schemaVersion`) rather than an mcplab suite.
pub fn is_mcpjam(text: &str) -> bool {
    if text.trim_start().starts_with('[') {
        return true;
    }
    let limits = mcplab_yaml::Limits {
        max_depth: 64,
        max_nodes: 500_000,
    };
    mcplab_yaml::parse(text, limits)
        .map(|(doc, _)| doc.get("schemaVersion").is_some() && doc.get("version").is_none())
        .unwrap_or(false)
}

fn resolve_host(suite: &Suite, path: Option<&Path>) -> Result<HostConfig, PrepareError> {
    let config = match &suite.host {
        None => HostConfig::default(),
        Some(HostSpec::Inline(h)) => {
            host::check(h).map_err(|e| PrepareError::Host {
                path: "host (inline)".into(),
                message: e.to_string(),
            })?;
            (**h).clone()
        }
        Some(HostSpec::File(name)) => {
            let base = path.and_then(Path::parent).unwrap_or(Path::new("."));
            let file = base.join(name);
            let shown = file.display().to_string();
            let text = std::fs::read_to_string(&file).map_err(|e| PrepareError::Host {
                path: shown.clone(),
                message: format!("cannot read it ({e}); `host` paths are relative to the suite"),
            })?;
            host::parse(&text).map_err(|e| PrepareError::Host {
                path: shown,
                message: e.to_string(),
            })?
        }
    };
    Ok(config)
}

/// The servers to connect: configured ones by name and inline ones; with neither, the
/// host's servers by configured name.
fn resolve_servers(
    suite: &Suite,
    host: &HostConfig,
    store: &Store,
) -> Result<Vec<ServerConfig>, PrepareError> {
    let mut names = suite.servers.clone();
    if names.is_empty() && suite.mcp_servers.is_none() {
        names = host.servers.keys().cloned().collect();
    }
    let mut configs = Vec::new();
    for name in &names {
        match store.server(name) {
            Ok(c) => configs.push(c),
            Err(StoreError::NotFound(_)) => return Err(PrepareError::UnknownServer(name.clone())),
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(inline) = &suite.mcp_servers {
        let text = serde_json::json!({ "mcpServers": inline }).to_string();
        let parsed = mcplab_core::config::parse_mcp_servers(&text, "the suite's mcpServers")
            .map_err(|e| PrepareError::Servers(e.to_string()))?;
        configs.extend(parsed);
    }
    if configs.is_empty() {
        return Err(PrepareError::Servers(
            "the suite names no server: list configured ones under `servers`, define them under \
             `mcpServers`, or name them in the host config's `servers`"
                .into(),
        ));
    }
    Ok(configs)
}

/// Whether `--case wanted` picks `id`: the id itself, or every row of a dataset case
/// (`add` picks `add[small]` and `add#2`).
fn selects(wanted: &str, id: &str) -> bool {
    id == wanted
        || id
            .strip_prefix(wanted)
            .is_some_and(|rest| rest.starts_with('[') || rest.starts_with('#'))
}

/// Every `dataset: { file }` read from beside the suite into its rows (so the suite's hash
/// covers them); a file that cannot be read or parsed is a suite error at its line.
fn read_datasets(suite: &mut Suite, folder: &Path, text: Option<&str>) -> Result<(), PrepareError> {
    let limit = suite::LoadLimits::default().max_bytes as u64;
    let mut problems = Vec::new();
    for (i, case) in suite.cases.iter_mut().enumerate() {
        let Some(suite::Dataset::File(f)) = &case.dataset else {
            continue;
        };
        let path = folder.join(&f.file);
        let read = std::fs::metadata(&path)
            .map_err(|e| {
                format!(
                    "{}: cannot read it ({e}); dataset paths are relative to the suite",
                    f.file
                )
            })
            .and_then(|m| match m.len() > limit {
                true => Err(format!(
                    "{}: {} bytes, over the {limit}-byte limit",
                    f.file,
                    m.len()
                )),
                false => std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: cannot read it ({e})", f.file)),
            })
            .and_then(|t| suite::parse_rows(&f.file, &t));
        match read {
            Ok(rows) => case.dataset = Some(suite::Dataset::Rows(rows)),
            Err(message) => problems.push((format!("/cases/{i}/dataset/file"), message)),
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(PrepareError::Suite(suite::locate_problems(text, problems))),
    }
}

/// The suite with the overrides applied and the model list settled.
fn apply(loaded: &Suite, host: &HostConfig, o: &Overrides) -> Result<Suite, PrepareError> {
    let mut suite = loaded.clone();
    if !o.models.is_empty() {
        suite.models = o.models.clone();
        for case in &mut suite.cases {
            case.models = None;
            case.model = None;
        }
    }
    if suite.models.is_empty() && !host.model.is_empty() {
        suite.models = vec![host.model.clone()];
    }
    if let Some(n) = o.repeat {
        suite.repeat = Some(n.max(1));
        for case in &mut suite.cases {
            case.repeat = None;
        }
    }
    if !o.cases.is_empty() {
        let unknown: Vec<&str> = o
            .cases
            .iter()
            .filter(|id| !suite.cases.iter().any(|c| selects(id, &c.id)))
            .map(String::as_str)
            .collect();
        if !unknown.is_empty() {
            let known: Vec<&str> = suite.cases.iter().map(|c| c.id.as_str()).collect();
            return Err(PrepareError::UnknownCases(
                unknown.join(", "),
                known.join(", "),
            ));
        }
        for case in &mut suite.cases {
            if !o.cases.iter().any(|id| selects(id, &case.id)) {
                case.skip = true;
            }
        }
    }
    let runs_something = suite
        .cases
        .iter()
        .filter(|c| !c.skip && !c.is_model_free())
        .all(|c| !mcplab_evals::verdict::case_models(&suite, c).is_empty());
    if !runs_something || suite.cases.iter().all(|c| c.skip) {
        return Err(PrepareError::NoModels);
    }
    for model in suite.models.iter().chain(
        suite
            .cases
            .iter()
            .filter_map(|c| c.models.as_ref())
            .flatten()
            .chain(suite.cases.iter().filter_map(|c| c.model.as_ref())),
    ) {
        mcplab_llm::ModelRef::parse(model).map_err(|e| PrepareError::Servers(e.to_string()))?;
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with_demo() -> Store {
        let store = Store::open_in_memory().unwrap();
        store
            .insert_server(&ServerConfig {
                name: "demo".into(),
                transport: mcplab_protocol::ServerTransport::Stdio {
                    command: "mcplab".into(),
                    args: vec!["demo-server".into()],
                    env: Default::default(),
                    cwd: None,
                },
                timeout_ms: None,
                protocol: Default::default(),
                inherit_env: false,
            })
            .unwrap();
        store
    }

    fn text(t: &str) -> SuiteText {
        SuiteText {
            text: t.into(),
            path: None,
        }
    }

    #[test]
    fn servers_host_and_overrides() {
        let store = store_with_demo();
        let suite = "version: 1\nid: s\nservers: [demo]\nhost:\n  model: openai::a\n  stepLimit: 3\n  servers: { demo: { deny: [fail] } }\ncases:\n  - id: one\n    turns: [hi]\n  - id: two\n    models: [openai::b]\n    repeat: 4\n    turns: [yo]\n";
        let p = prepare(&text(suite), &store, &Overrides::default()).unwrap();
        assert_eq!(p.servers[0].name, "demo");
        assert_eq!(p.host.step_limit, 3);
        assert_eq!(p.host.servers["demo"].deny, ["fail"]);
        assert_eq!(
            p.suite.models,
            ["openai::a"],
            "the host's model when none listed"
        );
        let o = Overrides {
            models: vec!["openai::c".into()],
            repeat: Some(2),
            cases: vec!["two".into()],
            ..Overrides::default()
        };
        let p = prepare(&text(suite), &store, &o).unwrap();
        assert!(p.suite.cases[0].skip);
        assert_eq!(
            p.suite.cases[1].models, None,
            "--model replaces case models"
        );
        assert_eq!(p.suite.cases[1].repeat, None);
        assert_eq!(p.suite.repeat, Some(2));
        assert_eq!(
            p.loaded.cases[1].repeat,
            Some(4),
            "the loaded suite is kept as is"
        );
        let bad = Overrides {
            cases: vec!["three".into()],
            ..Overrides::default()
        };
        let e = prepare(&text(suite), &store, &bad).unwrap_err();
        assert!(
            e.to_string().contains("three") && e.to_string().contains("one, two"),
            "{e}"
        );
    }

    #[test]
    fn unknown_servers_missing_models_and_bad_hosts_say_what_to_do() {
        let store = store_with_demo();
        let e = prepare(
            &text("version: 1\nid: s\nservers: [nope]\nmodels: [openai::m]\ncases: [{id: a, turns: [hi]}]\n"),
            &store,
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(
            matches!(e, PrepareError::UnknownServer(ref n) if n == "nope"),
            "{e}"
        );
        let e = prepare(
            &text("version: 1\nid: s\nservers: [demo]\ncases: [{id: a, turns: [hi]}]\n"),
            &store,
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(matches!(e, PrepareError::NoModels), "{e}");
        let e = prepare(
            &text("version: 1\nid: s\nservers: [demo]\nhost: missing.yaml\nmodels: [openai::m]\ncases: [{id: a, turns: [hi]}]\n"),
            &store,
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("missing.yaml"), "{e}");
    }

    #[test]
    fn a_host_file_beside_the_suite_and_inline_servers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("host.yaml"),
            "model: anthropic::m\nsystemPrompt: Be brief.\n",
        )
        .unwrap();
        let path = dir.path().join("suite.yaml");
        std::fs::write(
            &path,
            "version: 1\nid: s\nhost: host.yaml\nmcpServers:\n  local: { command: mcplab, args: [demo-server] }\ncases: [{id: a, turns: [hi]}]\n",
        )
        .unwrap();
        let store = Store::open_in_memory().unwrap();
        let p = prepare(
            &SuiteText::read(&path).unwrap(),
            &store,
            &Overrides::default(),
        )
        .unwrap();
        assert_eq!(p.host.system_prompt, "Be brief.");
        assert_eq!(p.suite.models, ["anthropic::m"]);
        assert_eq!(p.servers[0].name, "local");
        assert!(p.host.servers.contains_key("local"));
    }

    #[test]
    fn load_reads_suites_converts_mcpjam_files_and_reports_broken_suites() {
        let text = |t: &str| SuiteText {
            text: t.into(),
            path: None,
        };
        let (suite, from, _) =
            load(&text("version: 1\nid: x\ncases: [{id: a, turns: [hi]}]\n")).unwrap();
        assert_eq!((suite.id.as_str(), from), ("x", None));
        let jam = include_str!("../../mcplab-evals/tests/fixtures/mcpjam-suite-v1.yaml");
        let (_, from, _) = load(&text(jam)).unwrap();
        assert_eq!(from, Some(SourceFormat::McpjamSuiteV1));
        let (_, from, _) = load(&text(r#"[{"title": "adds", "query": "2 + 40?"}]"#)).unwrap();
        assert_eq!(from, Some(SourceFormat::McpjamTestsJson));
        let broken = load(&text("version: 1\nid: x\ncasez: []\n")).unwrap_err();
        assert!(matches!(broken, PrepareError::Suite(_)), "{broken}");
    }

    #[test]
    fn mcpjam_files_are_recognized() {
        assert!(is_mcpjam("[{\"title\": \"x\"}]"));
        assert!(is_mcpjam("schemaVersion: \"1\"\nname: x\n"));
        assert!(!is_mcpjam("version: 1\nid: x\ncases: []\n"));
        assert!(!is_mcpjam("not: [valid"));
    }

    #[test]
    fn hosts_name_the_persons_own_profiles() {
        let store = Store::open_in_memory().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("mine.json"),
            r#"{"name": "mine", "approval": {"mode": "always"}, "toolResults": {"structuredContent": "never"}}"#,
        )
        .unwrap();
        let suite = "version: 1\nid: s\nmcpServers:\n  local: { command: mcplab, args: [demo-server] }\nmodels: [openai::m]\nhosts: [mine, claude]\ncases: [{id: a, turns: [hi]}]\n";
        let own = Overrides {
            hosts_dir: Some(dir.path().to_owned()),
            ..Overrides::default()
        };
        let p = prepare(&text(suite), &store, &own).unwrap();
        let mine = &p.hosts["mine"];
        assert_eq!(
            mine.approval.mode,
            mcplab_protocol::host::ApprovalMode::Always
        );
        assert_eq!(
            mine.tool_results.structured_content,
            mcplab_protocol::host::StructuredContentMode::Never
        );
        assert!(p.hosts.contains_key("claude"), "built-in ones still there");
        // Without the data directory the name is unknown, and the error lists the names.
        let e = prepare(&text(suite), &store, &Overrides::default()).unwrap_err();
        assert!(e.to_string().contains("mine"), "{e}");
    }
}
