//! Flags for what a server may make mcplab hold and how long connecting may take: `--limit
//! NAME=SIZE` (the byte budget, see `mcplab_mcp::Limits`), `--connect-timeout`, and
//! `--oauth-allow-private`. It checks them into a [`Budget`] that goes into `ManagerOptions`; it
//! does not connect anything.

use std::time::Duration;

use clap::Args;
use mcplab_mcp::{Limits, ManagerOptions};

use crate::failure::Failure;

#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Raise or lower a limit on what a server can make mcplab hold, NAME=VALUE (repeatable):
    /// message (64MiB), traffic (64MiB), preview (16KiB), replay (32MiB), stderr-line (8KiB),
    /// stderr-tail (64KiB), events (100 per second), pending-human (16).
    #[arg(
        long = "limit",
        value_name = "NAME=VALUE",
        env = "MCPLAB_LIMITS",
        value_delimiter = ','
    )]
    pub limits: Vec<String>,
    /// Deadline for starting a server and its `initialize`, in seconds (default: --timeout
    /// when given, else 30).
    #[arg(long, value_name = "SECS")]
    pub connect_timeout: Option<f64>,
    /// Let OAuth for a remote server reach loopback, private or link-local addresses and
    /// plain-http endpoints (refused by default: a server could aim it at your network).
    #[arg(long, env = "MCPLAB_OAUTH_ALLOW_PRIVATE")]
    pub oauth_allow_private: bool,
}

/// The byte budget and connect deadline the flags asked for, checked once.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    pub limits: Limits,
    /// `--connect-timeout`, else `--timeout` (None: the manager's default).
    pub connect_timeout: Option<Duration>,
    pub oauth_allow_private: bool,
}

impl LimitArgs {
    /// Checks the flags; `timeout` (the checked `--timeout`) also bounds connecting unless
    /// `--connect-timeout` says otherwise.
    pub fn resolve(&self, timeout: Option<Duration>) -> Result<Budget, Failure> {
        let mut limits = Limits::default();
        for assignment in &self.limits {
            limits
                .set(assignment)
                .map_err(|e| Failure::usage(format!("--limit: {e}")))?;
        }
        let connect_timeout = match self.connect_timeout {
            Some(secs) => Some(seconds(secs, "--connect-timeout")?),
            None => timeout,
        };
        Ok(Budget {
            limits,
            connect_timeout,
            oauth_allow_private: self.oauth_allow_private,
        })
    }
}

impl Budget {
    /// Puts the budget (and the request timeout, when given) into `opts`.
    pub fn apply(&self, request_timeout: Option<Duration>, opts: &mut ManagerOptions) {
        opts.limits = self.limits;
        if let Some(t) = request_timeout {
            opts.request_timeout = t;
        }
        if let Some(t) = self.connect_timeout {
            opts.connect_timeout = t;
        }
        opts.oauth_allow_private = self.oauth_allow_private;
    }
}

/// A positive, finite number of seconds, or the usage error naming `flag`.
pub fn seconds(secs: f64, flag: &str) -> Result<Duration, Failure> {
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(Failure::usage(format!(
            "{flag} must be a positive number of seconds"
        )));
    }
    Ok(Duration::from_secs_f64(secs))
}
