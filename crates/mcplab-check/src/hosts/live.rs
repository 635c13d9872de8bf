//! A host verdict's reasons from the live renders ([`crate::live`]): per app rendered under
//! the profile, blocked when it did not initialize, degraded for each request the host
//! refused, each error it threw and each CSP violation, works when none of these happened.
//! Renders that could not happen (no Chromium) are one info finding each, not a verdict:
//! the static scan's reasons stand.

use std::collections::BTreeSet;

use mcplab_protocol::check::{HostItemKind, Severity, Verdict};

use super::Profile;
use super::rules::LIVE;
use crate::findings::{At, Findings};
use crate::live::{LiveOutcome, LiveReport};
use crate::recording::Recording;

pub(super) fn judge(prof: &mut Profile, rec: &Recording) {
    let host = prof.p.name.clone();
    for run in rec.live.iter().filter(|r| r.host == host) {
        if let LiveOutcome::Rendered(report) = &run.outcome {
            one(prof, &run.uri, report);
        }
    }
}

fn one(prof: &mut Profile, uri: &str, r: &LiveReport) {
    let item = Some((HostItemKind::App, uri));
    let caps = prof.p.host_config.app_host.host_capabilities.clone();
    if !r.initialized {
        let why = r
            .error
            .as_deref()
            .unwrap_or("it never completed ui/initialize");
        let first = r
            .app_errors
            .first()
            .filter(|e| !why.contains(e.split_once(": ").map_or(e.as_str(), |(_, m)| m)))
            .map(|e| format!("; it threw {e}"));
        prof.add(
            &LIVE,
            item,
            Verdict::Blocked,
            "appHost",
            format!(
                "rendered live, the app did not initialize: {why}{}",
                first.unwrap_or_default()
            ),
        );
        return;
    }
    for (method, why) in &r.refused {
        let field = super::apps::bridge_capability(&caps, method)
            .map_or("appHost.hostCapabilities", |(f, _)| f);
        prof.add(
            &LIVE,
            item,
            Verdict::Degraded,
            field,
            format!("rendered live, the host refused `{method}`: {why}"),
        );
    }
    for e in &r.app_errors {
        prof.add(
            &LIVE,
            item,
            Verdict::Degraded,
            "appHost",
            format!("rendered live, the app reported {e}"),
        );
    }
    for v in &r.csp_violations {
        prof.add(
            &LIVE,
            item,
            Verdict::Degraded,
            "appHost.cspMode",
            format!("rendered live, the host's CSP blocked it: {v}"),
        );
    }
    if r.refused.is_empty() && r.app_errors.is_empty() && r.csp_violations.is_empty() {
        let ready = r
            .ready_ms
            .map(|ms| format!(" in {ms} ms"))
            .unwrap_or_default();
        prof.add(
            &LIVE,
            item,
            Verdict::Works,
            "appHost",
            format!(
                "rendered live: initialized{ready}, {} request(s) to the host, none refused, no errors",
                r.requests
            ),
        );
    }
}

/// One info finding per reason a render could not happen.
pub(super) fn unavailable(recs: &[&Recording], f: &mut Findings) {
    let reasons: BTreeSet<&str> = recs
        .iter()
        .flat_map(|r| &r.live)
        .filter_map(|run| match &run.outcome {
            LiveOutcome::Unavailable(why) => Some(why.as_str()),
            LiveOutcome::Rendered(_) => None,
        })
        .collect();
    for why in reasons {
        f.add_with(
            &LIVE,
            Severity::Info,
            format!(
                "not rendered: {why} (the host verdicts rest on the static scan of the apps' HTML)"
            ),
            At::default(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::host_profile::HostProfile;

    fn profile() -> HostProfile {
        HostProfile {
            name: "h".into(),
            title: "H".into(),
            description: String::new(),
            profile_version: 1,
            builtin: false,
            origin: None,
            host_config: Default::default(),
            sources: Default::default(),
            hash: String::new(),
        }
    }

    fn verdicts(r: &LiveReport) -> Vec<(Verdict, String)> {
        let p = profile();
        let mut prof = Profile::new(&p);
        one(&mut prof, "ui://a", r);
        prof.out
            .into_iter()
            .map(|j| (j.reason.verdict, j.reason.field))
            .collect()
    }

    #[test]
    fn what_the_widget_did_decides_the_live_verdict() {
        let clean = LiveReport {
            initialized: true,
            ready_ms: Some(40),
            requests: 2,
            ..LiveReport::default()
        };
        assert_eq!(verdicts(&clean), [(Verdict::Works, "appHost".into())]);
        let refused = LiveReport {
            refused: vec![("ui/message".into(), "not offered".into())],
            ..clean.clone()
        };
        assert_eq!(
            verdicts(&refused),
            [(Verdict::Degraded, "appHost.hostCapabilities.message".into())]
        );
        let threw = LiveReport {
            initialized: false,
            error: Some("timed out after 10 s".into()),
            ..LiveReport::default()
        };
        assert_eq!(verdicts(&threw), [(Verdict::Blocked, "appHost".into())]);
    }
}
