//! The hosts set (`--host NAME`): for each host profile, a verdict — works, degraded,
//! blocked or unknown — overall and per tool and app, each reason naming the profile field it
//! rests on and that field's source. [`server`] judges the server as a whole (the revision
//! the host asks for, client capabilities the server uses, the tool limit), [`tools`] each
//! tool (name, description, structured results, tasks), [`apps`] each app (whether the host
//! renders its kind, the host requests and display modes its HTML uses, its CSP). Where the
//! profile marks a field unknown and the server depends on it, the reason is "unknown".
//! Its exercise reads the apps (no tool is called); the verdicts and findings are about the
//! server as a whole, so they come from `conclude` and [`verdicts`].

mod apps;
mod live;
mod rules;
mod server;
mod tools;

use mcplab_protocol::check::{
    HostItem, HostItemKind, HostReason, HostVerdict, RuleSet, Severity, Verdict,
};
use mcplab_protocol::host_profile::{FieldSource, HostProfile};

use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::rule::Rule;
use crate::sets::RuleSetDef;

pub(crate) use rules::RULES;

pub(crate) static SET: RuleSetDef = RuleSetDef {
    set: RuleSet::Hosts,
    title: "Hosts",
    rules: RULES,
    always: false,
    exercise: Some(&crate::apps::READ),
    judge,
    conclude: Some(conclude),
};

fn judge(_: &Recording, _: &CheckOptions, _: &mut Findings) {}

/// One reason, with the rule it falls under and the tool or app it is about.
pub(crate) struct Judged {
    pub rule: &'static Rule,
    pub item: Option<(HostItemKind, String)>,
    pub reason: HostReason,
}

/// A profile's fields and sources, for building reasons.
pub(crate) struct Profile<'a> {
    pub p: &'a HostProfile,
    pub out: Vec<Judged>,
}

impl<'a> Profile<'a> {
    fn new(p: &'a HostProfile) -> Self {
        Self { p, out: Vec::new() }
    }

    pub(crate) fn source(&self, field: &str) -> Option<FieldSource> {
        self.p.sources.get(field).cloned()
    }

    /// Whether the profile marks `field` unknown.
    pub(crate) fn unknown(&self, field: &str) -> bool {
        matches!(self.source(field), Some(FieldSource::Unknown(_)))
    }

    /// Adds a reason about the server as a whole (`item` None) or a tool or app.
    pub(crate) fn add(
        &mut self,
        rule: &'static Rule,
        item: Option<(HostItemKind, &str)>,
        verdict: Verdict,
        field: &str,
        message: String,
    ) {
        let source = self.source(field);
        self.out.push(Judged {
            rule,
            item: item.map(|(k, n)| (k, n.to_owned())),
            reason: HostReason {
                verdict,
                message,
                field: field.to_owned(),
                source,
            },
        });
    }

    /// The verdict and words for a yes/no field: "works" with `yes` when offered, `missing`
    /// with `no` when not, and "unknown" when the profile does not know the field.
    pub(crate) fn offered(
        &self,
        field: &str,
        offered: bool,
        yes: &str,
        no: &str,
        missing: Verdict,
    ) -> (Verdict, String) {
        if self.unknown(field) {
            (
                Verdict::Unknown,
                "may or may not support it (the profile marks this field unknown)".into(),
            )
        } else if offered {
            (Verdict::Works, yes.into())
        } else {
            (missing, no.into())
        }
    }

    /// `known` unless the field is unknown (then Unknown).
    pub(crate) fn or_unknown(&self, field: &str, known: Verdict) -> Verdict {
        if self.unknown(field) {
            Verdict::Unknown
        } else {
            known
        }
    }
}

/// The recording of the era `p`'s host speaks with the server, of those that connected.
pub(crate) fn chosen<'a>(p: &HostProfile, recs: &[&'a Recording]) -> Option<&'a Recording> {
    server::chosen(p.host_config.client.protocol, &connected(recs))
}

/// The recordings that connected.
fn connected<'a>(recs: &[&'a Recording]) -> Vec<&'a Recording> {
    recs.iter()
        .copied()
        .filter(|r| r.connect_error.is_none())
        .collect()
}

/// Judges one host profile.
fn judge_host(
    p: &HostProfile,
    recs: &[&Recording],
    opts: &CheckOptions,
) -> (HostVerdict, Vec<Judged>) {
    let mut prof = Profile::new(p);
    let era = server::era(&mut prof, &connected(recs));
    if let Some(rec) = era {
        server::judge(&mut prof, rec);
        tools::judge(&mut prof, rec, opts);
        apps::judge(&mut prof, rec);
        live::judge(&mut prof, rec);
    }
    let judged = prof.out;
    let verdict = assemble(p, era.map(|r| r.revision.clone()), &judged);
    (verdict, judged)
}

/// The verdict from the reasons: items in first-seen order, each the worst of its reasons;
/// overall the worst of everything.
fn assemble(p: &HostProfile, revision: Option<String>, judged: &[Judged]) -> HostVerdict {
    let mut items: Vec<HostItem> = Vec::new();
    let mut reasons = Vec::new();
    let mut overall = Verdict::Works;
    for j in judged {
        overall = overall.worst(j.reason.verdict);
        let Some((kind, name)) = &j.item else {
            reasons.push(j.reason.clone());
            continue;
        };
        let i = match items
            .iter()
            .position(|i| i.kind == *kind && &i.name == name)
        {
            Some(i) => i,
            None => {
                items.push(HostItem {
                    kind: *kind,
                    name: name.clone(),
                    verdict: Verdict::Works,
                    reasons: Vec::new(),
                });
                items.len() - 1
            }
        };
        items[i].verdict = items[i].verdict.worst(j.reason.verdict);
        items[i].reasons.push(j.reason.clone());
    }
    HostVerdict {
        host: p.name.clone(),
        title: p.title.clone(),
        profile_version: p.profile_version,
        revision,
        verdict: overall,
        reasons,
        items,
    }
}

/// One verdict per host profile asked for.
pub(crate) fn verdicts(recs: &[&Recording], opts: &CheckOptions) -> Vec<HostVerdict> {
    opts.hosts
        .iter()
        .map(|p| judge_host(p, recs, opts).0)
        .collect()
}

/// Every reason that is not "works" as a finding (blocked → error, degraded → warning,
/// unknown → info), sourced from the profile field when it names a page.
fn conclude(recs: &[&Recording], opts: &CheckOptions, f: &mut Findings) {
    live::unavailable(recs, f);
    for p in &opts.hosts {
        let (_, judged) = judge_host(p, recs, opts);
        for j in judged {
            let severity = match j.reason.verdict {
                Verdict::Works => continue,
                Verdict::Blocked => Severity::Error,
                Verdict::Degraded => Severity::Warning,
                Verdict::Unknown => Severity::Info,
            };
            let about = match &j.item {
                Some((HostItemKind::Tool, n)) => format!("tool `{n}`: "),
                Some((HostItemKind::App, n)) => format!("app {n}: "),
                None => String::new(),
            };
            let message = format!(
                "{}: {} — {about}{} [{}]",
                p.name,
                j.reason.verdict.as_str(),
                j.reason.message,
                j.reason.field
            );
            let source = match &j.reason.source {
                Some(FieldSource::Documented(s)) => Some((s.url.clone(), s.read.clone())),
                _ => None,
            };
            let at = match &j.item {
                Some((HostItemKind::Tool, n)) => At::default().tool(n),
                _ => At::default(),
            };
            f.add_sourced(j.rule, severity, message, at, source);
        }
    }
}
