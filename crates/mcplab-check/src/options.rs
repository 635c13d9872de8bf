//! What a check is asked to do: tools to call, the token budget of the tool list, a request
//! timeout, optional rule sets, a baseline to compare with, the other configured servers'
//! tools (for shadowing), the host profiles to judge against and what to fuzz. Plain data,
//! built by the CLI and the web API.

use std::time::Duration;

use mcplab_protocol::check::{Baseline, RuleSet};
use mcplab_protocol::host_profile::HostProfile;
use serde_json::Value;

use crate::live::LiveRenderer;
use crate::sets::registry;

/// Another server configured beside the one checked, with the tool names it lists.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Peer {
    pub server: String,
    pub tools: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Tools to call, with their arguments (none by default: tools may have side effects).
    pub calls: Vec<(String, Value)>,
    /// Estimated tokens of the tool list per turn above which it warns.
    pub token_budget: usize,
    /// Per-request timeout (None: the connection's).
    pub timeout: Option<Duration>,
    /// Rule sets to run besides those always on.
    pub sets: Vec<RuleSet>,
    /// The surface to compare with (runs the baseline set).
    pub baseline: Option<Baseline>,
    /// The other configured servers (the security set reports tool names that collide).
    pub peers: Vec<Peer>,
    /// Host profiles to give a verdict for (runs the hosts set).
    pub hosts: Vec<HostProfile>,
    /// What to fuzz (runs the fuzz set).
    pub fuzz: Option<FuzzOptions>,
    /// Renders apps live under the host profiles (None: the hosts set scans their HTML only).
    pub live: Option<LiveRenderer>,
}

/// `--fuzz N --seed S --fuzz-tool NAME`: inputs per tool, the seed that makes them, and the
/// tools besides the `readOnlyHint: true` ones that may be called.
#[derive(Debug, Clone, PartialEq)]
pub struct FuzzOptions {
    pub per_tool: usize,
    pub seed: u64,
    pub tools: Vec<String>,
    /// How long one input may take (None: 10 s).
    pub timeout: Option<Duration>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            calls: Vec::new(),
            token_budget: 10_000,
            timeout: None,
            sets: Vec::new(),
            baseline: None,
            peers: Vec::new(),
            hosts: Vec::new(),
            fuzz: None,
            live: None,
        }
    }
}

impl CheckOptions {
    /// The rule sets this check runs, in registry order: those always on, the baseline set
    /// when a baseline is given, the hosts set when profiles are, the fuzz set when asked to
    /// fuzz, and those asked for.
    pub fn selected(&self) -> Vec<RuleSet> {
        registry()
            .into_iter()
            .filter(|d| {
                d.always
                    || self.sets.contains(&d.set)
                    || (d.set == RuleSet::Baseline && self.baseline.is_some())
                    || (d.set == RuleSet::Hosts && !self.hosts.is_empty())
                    || (d.set == RuleSet::Fuzz && self.fuzz.is_some())
            })
            .map(|d| d.set)
            .collect()
    }
}
