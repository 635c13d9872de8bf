//! `mcplab hosts list|show|diff|export`: the host profiles (built in, and the person's own in
//! `<data dir>/hosts/*.json`) as tables or JSON. Reads profiles, connects to nothing. The
//! profiles themselves, their checks and the field-by-field diff live in
//! `mcplab_core::session::profiles`.

use mcplab_core::session::profiles::{self, HostProfiles};
use mcplab_protocol::host::HostConfig;
use mcplab_protocol::host_profile::{FieldSource, HostProfile};
use serde_json::Value;

use crate::cli::HostsCmd;
use crate::failure::Failure;
use crate::output::{outln, table};
use crate::settings::{DataDir, Settings};

pub fn run(cmd: HostsCmd, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    let all = load(data)?;
    match cmd {
        HostsCmd::List => list(&all, global.json),
        HostsCmd::Show { name } => show(require(&all, &name)?, global.json),
        HostsCmd::Diff { a, b } => diff(require(&all, &a)?, require(&all, &b)?, global.json),
        HostsCmd::Export { name } => {
            let text = serde_json::to_string_pretty(&profiles::export(require(&all, &name)?))
                .map_err(|e| Failure::usage(e.to_string()))?;
            outln!("{text}");
            Ok(())
        }
    }
}

/// The built-in profiles and the data directory's `hosts/*.json`.
pub fn load(data: &DataDir) -> Result<HostProfiles, Failure> {
    let all = HostProfiles::load(Some(&data.dir().join("hosts")))
        .map_err(|e| Failure::usage(e.to_string()))?;
    for why in all.skipped() {
        eprintln!(
            "warning: host profile left out: {}",
            crate::output::safe(&why.to_string())
        );
    }
    Ok(all)
}

pub fn require<'a>(all: &'a HostProfiles, name: &str) -> Result<&'a HostProfile, Failure> {
    all.require(name).map_err(Failure::usage)
}

fn json_line(v: &impl serde::Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string(v).map_err(|e| Failure::usage(e.to_string()))?;
    outln!("{text}");
    Ok(())
}

/// The fields where `p` differs from mcplab's defaults.
fn changed(p: &HostProfile) -> usize {
    let defaults = profiles::fields(&HostConfig::default());
    profiles::fields(&p.host_config)
        .into_iter()
        .filter(|(k, v)| defaults.get(k) != Some(v))
        .count()
}

fn list(all: &HostProfiles, json: bool) -> Result<(), Failure> {
    if json {
        return json_line(&all.list());
    }
    let rows: Vec<Vec<String>> = all
        .list()
        .iter()
        .map(|p| {
            vec![
                p.name.clone(),
                p.title.clone(),
                format!("v{}", p.profile_version),
                changed(p).to_string(),
                p.hash[..12].to_owned(),
                p.origin.clone().unwrap_or_else(|| "built-in".into()),
            ]
        })
        .collect();
    let headers = ["NAME", "TITLE", "VERSION", "CHANGED", "HASH", "FROM"];
    outln!("{}", table(&headers, &rows).trim_end());
    Ok(())
}

fn source_text(s: Option<&FieldSource>) -> String {
    match s {
        Some(FieldSource::Documented(r)) => {
            let note = r
                .note
                .as_deref()
                .map(|n| format!(" — {n}"))
                .unwrap_or_default();
            format!("{} (read {}){note}", r.url, r.read)
        }
        Some(FieldSource::Unknown(_)) => "unknown (mcplab's default)".into(),
        None => "no source given".into(),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn show(p: &HostProfile, json: bool) -> Result<(), Failure> {
    if json {
        return json_line(p);
    }
    outln!("{} — {} (profile v{})", p.name, p.title, p.profile_version);
    if !p.description.is_empty() {
        outln!("{}", p.description);
    }
    outln!("host config sha256 {}", p.hash);
    if let Some(origin) = &p.origin {
        outln!("from {origin}");
    }
    let defaults = profiles::fields(&HostConfig::default());
    let fields = profiles::fields(&p.host_config);
    let differing: Vec<_> = fields
        .iter()
        .filter(|(k, v)| defaults.get(*k) != Some(*v))
        .collect();
    outln!("");
    if differing.is_empty() {
        outln!("Every field is mcplab's default.");
    } else {
        outln!("Differs from mcplab's defaults:");
    }
    for (field, value) in &differing {
        outln!("  {field} = {}", value_text(value));
        outln!("      source: {}", source_text(p.sources.get(*field)));
    }
    let documented_defaults: Vec<_> = p
        .sources
        .iter()
        .filter(|(k, s)| {
            matches!(s, FieldSource::Documented(_)) && !differing.iter().any(|(f, _)| f == k)
        })
        .collect();
    if !documented_defaults.is_empty() {
        outln!("Same as mcplab's default, with a source:");
        for (field, s) in documented_defaults {
            let value = fields.get(field).map(value_text).unwrap_or_default();
            outln!("  {field} = {value}");
            outln!("      source: {}", source_text(Some(s)));
        }
    }
    let unknown: Vec<_> = p
        .sources
        .iter()
        .filter(|(_, s)| matches!(s, FieldSource::Unknown(_)))
        .map(|(k, _)| k.as_str())
        .collect();
    if !unknown.is_empty() {
        outln!("Unknown (no public source found; mcplab's default used):");
        outln!("  {}", unknown.join(", "));
    }
    Ok(())
}

fn diff(a: &HostProfile, b: &HostProfile, json: bool) -> Result<(), Failure> {
    let d = profiles::diff(a, b);
    if json {
        return json_line(&d);
    }
    if d.is_empty() {
        outln!(
            "{} and {} run under the same host ({}).",
            a.name,
            b.name,
            &a.hash[..12]
        );
        return Ok(());
    }
    outln!(
        "{} fields differ between {} and {}:",
        d.len(),
        a.name,
        b.name
    );
    for f in &d {
        outln!("");
        outln!("  {}", f.field);
        outln!("    {:<10} {}", a.name, value_text(&f.a));
        outln!(
            "    {:<10} source: {}",
            "",
            source_text(f.source_a.as_ref())
        );
        outln!("    {:<10} {}", b.name, value_text(&f.b));
        outln!(
            "    {:<10} source: {}",
            "",
            source_text(f.source_b.as_ref())
        );
    }
    Ok(())
}
