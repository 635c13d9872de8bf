//! The settings of one run, resolved once from the parsed command line (ripgrep's LowArgs →
//! HiArgs): the flags typed before the subcommand merged with the ones after it, checked
//! (timeouts, limits, conflicting targets, flags the command does not take), into the
//! [`Settings`] every command receives. Precedence: flag, then environment (clap merges the
//! `MCPLAB_*` variables into the flags), then the platform default. This is the only place
//! that looks at the home directory; the Chromium lookup (flag, `MCPLAB_CHROMIUM`, then PATH)
//! lives here too. It decides nothing about what a command does.

use std::mem::take;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mcplab_mcp::ManagerOptions;
use mcplab_store::Store;

use crate::cli::limits::{Budget, seconds};
use crate::cli::oauth::OAuthMode;
use crate::cli::{
    ChromiumArg, Cli, Command, ConnectArgs, ElicitationMode, LogLevel, OtlpArg, ServeArgs,
    TargetArgs,
};
use crate::commands::eval::EvalCmd;
use crate::failure::Failure;

/// Everything the command line and environment decided for this run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub data: DataDir,
    /// `--json`: exact protocol results, errors as JSON.
    pub json: bool,
    /// `--raw`: server text byte for byte.
    pub raw: bool,
    /// Which server(s), merged from both sides of the subcommand and free of conflicts.
    pub target: TargetArgs,
    pub trace: bool,
    pub quiet_stderr: bool,
    /// `--timeout`, checked positive.
    pub timeout: Option<Duration>,
    pub elicitation: Option<ElicitationMode>,
    pub oauth: Option<OAuthMode>,
    pub roots: Vec<PathBuf>,
    pub log_level: Option<LogLevel>,
    /// `--limit`, `--connect-timeout`, `--oauth-allow-private`.
    pub budget: Budget,
    /// The inspector's flags (`serve` and no command).
    pub serve: ServeArgs,
    /// `--chromium` or `MCPLAB_CHROMIUM` (see [`chromium`] for the PATH lookup).
    pub chromium: Option<PathBuf>,
}

impl Settings {
    /// Resolves a parsed command line. `typed_before` names the connection and inspector flags
    /// typed before the subcommand (`--demo` in `mcplab --demo tools list`): a command that
    /// does not take them refuses them instead of ignoring them.
    pub fn resolve(mut cli: Cli, typed_before: &[String]) -> Result<(Self, Command), Failure> {
        let mut command = cli
            .command
            .take()
            .unwrap_or(Command::Serve(crate::cli::ServeCmd {
                connect: ConnectArgs::default(),
                serve: ServeArgs::default(),
            }));
        let otlp_before = cli.serve.otlp.clone();
        let scope = Scope::of(&mut command, &otlp_before);
        if let Some(flag) = typed_before.iter().find(|f| !scope.takes(f)) {
            return Err(Failure::usage(format!(
                "{flag} does not apply to `mcplab {}`; see `mcplab {} --help` for its flags",
                scope.name, scope.name
            )));
        }
        // In a group (`tools`, …) clap itself shares the connection flags' values between the
        // top level and the group (they are global within it): merging would count them twice.
        let shared = scope.shared_by_clap();
        let connect = match scope.connect {
            Some(connect) if shared => connect,
            Some(connect) => cli.connect.merged(connect),
            None => cli.connect,
        };
        let serve = cli.serve.merged(scope.serve.unwrap_or_default());
        let chromium = match scope.chromium {
            Some(chromium) if shared => chromium,
            Some(chromium) => serve.chromium.clone().merged(chromium),
            None => serve.chromium.clone(),
        };
        connect.target.check_conflicts()?;
        let timeout = connect
            .timeout
            .map(|secs| seconds(secs, "--timeout"))
            .transpose()?;
        let settings = Settings {
            data: DataDir::resolve(cli.global.data_dir.as_deref())?,
            json: cli.global.json,
            raw: cli.global.raw,
            budget: connect.limits.resolve(timeout)?,
            target: connect.target,
            trace: connect.trace,
            quiet_stderr: connect.quiet_stderr,
            timeout,
            elicitation: connect.elicitation,
            oauth: connect.oauth,
            roots: connect.roots,
            log_level: connect.log_level,
            serve,
            chromium: chromium.chromium,
        };
        Ok((settings, command))
    }

    /// Puts the request timeout, connect deadline and byte budget into `opts`.
    pub fn apply(&self, opts: &mut ManagerOptions) {
        self.budget.apply(self.timeout, opts);
    }
}

/// What one command takes of the shared flag groups, taken out of it for merging.
struct Scope {
    name: &'static str,
    connect: Option<ConnectArgs>,
    serve: Option<ServeArgs>,
    chromium: Option<ChromiumArg>,
    /// It exports spans (`chat`, `eval run`): `--otlp` typed before it is its own.
    otlp: bool,
}

impl Scope {
    fn of(command: &mut Command, otlp_before: &OtlpArg) -> Scope {
        // `mcplab --otlp URL chat`: the URL typed before the subcommand, unless one is after.
        let own_otlp = match command {
            Command::Chat(c) => Some(&mut c.otlp),
            Command::Eval(EvalCmd::Run(a)) => Some(&mut a.otlp),
            _ => None,
        };
        let otlp = own_otlp.is_some();
        if let Some(own) = own_otlp
            && own.otlp.is_none()
        {
            own.otlp.clone_from(&otlp_before.otlp);
        }
        let (name, connect, serve, chromium) = match command {
            Command::Serve(c) => (
                "serve",
                Some(take(&mut c.connect)),
                Some(take(&mut c.serve)),
                None,
            ),
            Command::Inspect(c) => {
                let (name, connect) = c.connect_mut();
                (name, Some(take(connect)), None, None)
            }
            Command::Check(c) => (
                "check",
                Some(take(&mut c.connect)),
                None,
                Some(take(&mut c.chromium)),
            ),
            Command::Chat(c) => ("chat", Some(take(&mut c.connect)), None, None),
            Command::Tasks(c) => ("tasks", Some(take(&mut c.connect)), None, None),
            Command::Skills(c) => ("skills", Some(take(&mut c.connect)), None, None),
            Command::Listen(c) => ("listen", Some(take(&mut c.connect)), None, None),
            Command::Oauth(c) => ("oauth", Some(take(&mut c.connect)), None, None),
            Command::Apps(c) => (
                "apps",
                Some(take(&mut c.connect)),
                None,
                Some(take(&mut c.chromium)),
            ),
            Command::Eval(EvalCmd::Run(a)) => (
                "eval run",
                Some(take(&mut a.connect)),
                None,
                Some(take(&mut a.chromium)),
            ),
            Command::Eval(EvalCmd::Init(a)) => {
                ("eval init", Some(take(&mut a.connect)), None, None)
            }
            Command::Eval(_) => ("eval", None, None, None),
            Command::Servers(crate::cli::ServersCmd::Add { target, .. }) => (
                "servers add",
                Some(ConnectArgs {
                    target: take(&mut **target),
                    ..ConnectArgs::default()
                }),
                None,
                None,
            ),
            Command::Servers(_) => ("servers", None, None, None),
            Command::Tap(crate::cli::tap::TapArgs {
                cmd: Some(crate::cli::tap::TapCmd::Replay(a)),
                ..
            }) => ("tap replay", Some(take(&mut a.connect)), None, None),
            Command::Tap(_) => ("tap", None, None, None),
            Command::Open { .. } => ("open", None, None, None),
            Command::Mcp(a) => ("mcp", None, None, Some(take(&mut a.chromium))),
            Command::Hosts(_) => ("hosts", None, None, None),
            Command::DemoServer { .. } => ("demo-server", None, None, None),
            Command::Completions { .. } => ("completions", None, None, None),
            Command::Man { .. } => ("man", None, None, None),
        };
        Scope {
            name,
            connect,
            serve,
            chromium,
            otlp,
        }
    }

    /// Whether the command is a group whose connection flags clap makes global within it.
    fn shared_by_clap(&self) -> bool {
        crate::cli::GLOBAL_WITHIN.contains(&self.name)
    }

    /// Whether a flag typed before the subcommand belongs to this command.
    fn takes(&self, flag: &str) -> bool {
        if flag == "--chromium" {
            return self.serve.is_some() || self.chromium.is_some();
        }
        if flag == "--otlp" {
            return self.serve.is_some() || self.otlp;
        }
        if crate::cli::flags_of::<ServeArgs>()
            .iter()
            .any(|f| f == flag)
        {
            return self.serve.is_some();
        }
        match (&self.connect, self.name) {
            // `servers add` stores a target: only the target's flags mean something there.
            (Some(_), "servers add") => crate::cli::flags_of::<TargetArgs>()
                .iter()
                .any(|f| f == flag),
            (Some(_), _) => true,
            (None, _) => false,
        }
    }
}

/// Where mcplab keeps its data.
#[derive(Debug, Clone)]
pub struct DataDir(PathBuf);

impl DataDir {
    /// Resolves the data directory: `flag` (already merged with the env var by clap) or the
    /// platform default.
    pub fn resolve(flag: Option<&Path>) -> Result<Self, Failure> {
        if let Some(p) = flag {
            return Ok(Self(p.to_owned()));
        }
        platform_default().map(Self).ok_or_else(|| {
            Failure::usage(
                "cannot find a data directory (no home directory); pass --data-dir DIR or set MCPLAB_DATA_DIR",
            )
        })
    }

    /// A data directory at `dir` (tests).
    #[cfg(test)]
    pub fn at(dir: PathBuf) -> Self {
        Self(dir)
    }

    /// The directory itself.
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// The SQLite file holding server configs, settings and UI preferences.
    pub fn store_path(&self) -> PathBuf {
        self.0.join("mcplab.db")
    }

    /// Opens (creating on first use) the store.
    pub fn store(&self) -> Result<Store, Failure> {
        Store::open(&self.store_path()).map_err(|e| Failure::usage(e.to_string()))
    }
}

/// `mcplab` in the platform's data directory (the `directories` crate): `$XDG_DATA_HOME` or
/// `~/.local/share` on Linux, `~/Library/Application Support` on macOS — where earlier versions
/// kept their data, so it is found —, the roaming AppData folder on Windows.
fn platform_default() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|dirs| dirs.data_dir().join("mcplab"))
}

/// The Chromium for headless rendering: `--chromium` (clap merges `MCPLAB_CHROMIUM` into the
/// flag), taken as given so a wrong path is reported as such; else the first of
/// `mcplab_render::CHROMIUM_NAMES` on PATH; else `None`.
pub fn chromium(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = flag {
        return Some(p.to_owned());
    }
    mcplab_render::find_chromium(&std::env::var_os("PATH")?)
}

/// [`chromium`], or the usage error that says how to get one.
pub fn require_chromium(flag: Option<&Path>) -> Result<PathBuf, Failure> {
    chromium(flag).ok_or_else(|| {
        Failure::usage(format!(
            "Chromium not found on PATH (looked for {}) — install the `chromium` package or \
             pass --chromium PATH (or set MCPLAB_CHROMIUM)",
            mcplab_render::CHROMIUM_NAMES.join(", ")
        ))
    })
}
