//! Flags for what a server may make mcplab hold and how long connecting may take: `--limit
//! NAME=SIZE` (the byte budget, see `mcplab_core::mcp::Limits`), `--connect-timeout`, and
//! `--oauth-allow-private`. It turns them into `ManagerOptions`; it does not connect anything.

use std::time::Duration;

use clap::Args;
use mcplab_core::mcp::{Limits, ManagerOptions};

use crate::failure::Failure;

#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Raise or lower a limit on what a server can make mcplab hold, NAME=VALUE (repeatable):
    /// message (64MiB), traffic (64MiB), preview (16KiB), replay (32MiB), stderr-line (8KiB),
    /// stderr-tail (64KiB), events (100 per second), pending-human (16).
    #[arg(
        long = "limit",
        global = true,
        value_name = "NAME=VALUE",
        env = "MCPLAB_LIMITS",
        value_delimiter = ','
    )]
    pub limits: Vec<String>,
    /// Deadline for starting a server and its `initialize`, in seconds (default: --timeout
    /// when given, else 30).
    #[arg(long, global = true, value_name = "SECS")]
    pub connect_timeout: Option<f64>,
    /// Let OAuth for a remote server reach loopback, private or link-local addresses and
    /// plain-http endpoints (refused by default: a server could aim it at your network).
    #[arg(long, global = true, env = "MCPLAB_OAUTH_ALLOW_PRIVATE")]
    pub oauth_allow_private: bool,
}

impl LimitArgs {
    /// Applies the flags (and `--timeout`, which also bounds connecting unless
    /// `--connect-timeout` says otherwise) to `opts`.
    pub fn apply(&self, timeout: Option<f64>, opts: &mut ManagerOptions) -> Result<(), Failure> {
        let mut limits = Limits::default();
        for assignment in &self.limits {
            limits
                .set(assignment)
                .map_err(|e| Failure::usage(format!("--limit: {e}")))?;
        }
        opts.limits = limits;
        if let Some(secs) = timeout {
            opts.request_timeout = seconds(secs, "--timeout")?;
            opts.connect_timeout = opts.request_timeout;
        }
        if let Some(secs) = self.connect_timeout {
            opts.connect_timeout = seconds(secs, "--connect-timeout")?;
        }
        opts.oauth_allow_private = self.oauth_allow_private;
        Ok(())
    }
}

fn seconds(secs: f64, flag: &str) -> Result<Duration, Failure> {
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(Failure::usage(format!(
            "{flag} must be a positive number of seconds"
        )));
    }
    Ok(Duration::from_secs_f64(secs))
}
