//! Host profiles: the built-in ones (data files in `crates/mcplab-core/hosts/`, embedded) and a
//! person's own (`<data dir>/hosts/*.json`), parsed, checked and compared field by field. A
//! profile file is a HostConfig file plus `name`, `title`, `description`, `profileVersion`
//! and `sources` (field path → `{url, read, note}` or `"unknown"`). A built-in profile must
//! name a documented source for every field that differs from mcplab's default, and may only
//! call a field "unknown" while that field keeps the default: a value is never a guess shown as
//! a fact. This module reads only the directory it is handed and never writes.

use std::collections::BTreeMap;
use std::path::Path;

use mcplab_protocol::host::{
    AppHostCapabilities, ClientDeclaration, HostConfig, ToolCatalogPolicy, ToolResultPolicy,
};
use mcplab_protocol::host_profile::{FieldSource, HostFieldDiff, HostProfile};
use serde_json::{Map, Value};

use super::host::{HostConfigError, MAX_HOST_CONFIG_BYTES, check, hash, normalized};

/// The built-in profiles' files, in the order they are listed.
const BUILTIN: [(&str, &str); 6] = [
    ("mcplab", include_str!("../../hosts/mcplab.json")),
    ("claude", include_str!("../../hosts/claude.json")),
    ("chatgpt", include_str!("../../hosts/chatgpt.json")),
    ("vscode", include_str!("../../hosts/vscode.json")),
    ("cursor", include_str!("../../hosts/cursor.json")),
    ("goose", include_str!("../../hosts/goose.json")),
];

/// The keys a profile file has besides the HostConfig's.
const PROFILE_KEYS: [&str; 5] = ["name", "title", "description", "profileVersion", "sources"];

/// Why a profile cannot be used; says which file and, where known, which line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ProfileError {
    pub origin: String,
    pub line: Option<usize>,
    pub message: String,
}

/// Every profile known: the built-in ones, then the person's own by name.
#[derive(Debug, Clone, Default)]
pub struct HostProfiles {
    profiles: Vec<HostProfile>,
    /// The person's files that could not be used, each with why (they are left out).
    skipped: Vec<ProfileError>,
}

impl HostProfiles {
    /// The built-in profiles only.
    pub fn builtin() -> Result<Self, ProfileError> {
        let profiles = BUILTIN
            .iter()
            .map(|(name, text)| parse_profile(text, &format!("built-in profile {name}"), true))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            profiles,
            skipped: Vec::new(),
        })
    }

    /// The built-in profiles plus every usable `*.json` in `dir` (a missing directory is
    /// none). An unusable file (or directory) is left out and listed in [`Self::skipped`] with
    /// its name and line: one bad file must not hide every other profile (security review 3,
    /// N9). Only a broken built-in profile is an error.
    pub fn load(dir: Option<&Path>) -> Result<Self, ProfileError> {
        let mut all = Self::builtin()?;
        let Some(dir) = dir else { return Ok(all) };
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(all),
            Err(e) => {
                all.skipped.push(io_error(dir, &e));
                return Ok(all);
            }
        };
        let mut paths: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        for path in paths {
            if let Err(e) = all.add_file(&path) {
                all.skipped.push(e);
            }
        }
        Ok(all)
    }

    /// Reads, checks and adds the profile in `path`.
    fn add_file(&mut self, path: &Path) -> Result<(), ProfileError> {
        let text = read_bounded(path)?;
        let profile = parse_profile(&text, &path.display().to_string(), false)?;
        if let Some(other) = self.get(&profile.name) {
            return Err(ProfileError {
                origin: path.display().to_string(),
                line: line_of(&text, "name"),
                message: format!(
                    "the name `{}` is already taken by {}; give this profile another name",
                    profile.name,
                    other.origin.as_deref().unwrap_or("a built-in profile")
                ),
            });
        }
        self.profiles.push(profile);
        Ok(())
    }

    pub fn list(&self) -> &[HostProfile] {
        &self.profiles
    }

    /// The person's profile files that were left out, and why.
    pub fn skipped(&self) -> &[ProfileError] {
        &self.skipped
    }

    pub fn get(&self, name: &str) -> Option<&HostProfile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    /// The profile named `name`, or an error listing the names there are.
    pub fn require(&self, name: &str) -> Result<&HostProfile, String> {
        self.get(name).ok_or_else(|| {
            let names: Vec<_> = self.profiles.iter().map(|p| p.name.as_str()).collect();
            format!(
                "no host profile `{name}`; there are: {} (see `mcplab hosts list`)",
                names.join(", ")
            )
        })
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> ProfileError {
    ProfileError {
        origin: path.display().to_string(),
        line: None,
        message: format!("cannot read it: {e}"),
    }
}

fn read_bounded(path: &Path) -> Result<String, ProfileError> {
    let size = std::fs::metadata(path)
        .map_err(|e| io_error(path, &e))?
        .len();
    if size > MAX_HOST_CONFIG_BYTES as u64 {
        return Err(ProfileError {
            origin: path.display().to_string(),
            line: None,
            message: format!(
                "the file is {size} bytes; a profile may have {MAX_HOST_CONFIG_BYTES}"
            ),
        });
    }
    std::fs::read_to_string(path).map_err(|e| io_error(path, &e))
}

/// Parses one profile file (JSON). `strict`: every field differing from the default must have a
/// documented source (the rule for built-in profiles).
pub fn parse_profile(text: &str, origin: &str, strict: bool) -> Result<HostProfile, ProfileError> {
    let err = |line: Option<usize>, message: String| ProfileError {
        origin: origin.to_owned(),
        line,
        message,
    };
    let value: Value = serde_json::from_str(text)
        .map_err(|e| err(Some(e.line()), format!("not valid JSON: {e}")))?;
    let Value::Object(mut map) = value else {
        return Err(err(Some(1), "a profile is a JSON object".into()));
    };
    let mut take_str = |key: &str, required: bool| -> Result<String, ProfileError> {
        match map.remove(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
            None if !required => Ok(String::new()),
            _ => Err(err(
                line_of(text, key),
                format!("`{key}` must be a non-empty string"),
            )),
        }
    };
    let name = take_str("name", true)?;
    let title = take_str("title", false)?;
    let description = take_str("description", false)?;
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(err(
            line_of(text, "name"),
            format!("name `{name}` may only hold letters, digits, `-` and `_`"),
        ));
    }
    let profile_version = match map.remove("profileVersion") {
        None => 1,
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                err(
                    line_of(text, "profileVersion"),
                    "`profileVersion` must be a whole number from 1".into(),
                )
            })?,
    };
    let sources: BTreeMap<String, FieldSource> = match map.remove("sources") {
        None => BTreeMap::new(),
        Some(v) => serde_json::from_value(v).map_err(|e| {
            err(
                line_of(text, "sources"),
                format!(
                    "`sources` maps field paths to {{\"url\", \"read\", \"note\"}} or \"unknown\": {e}"
                ),
            )
        })?,
    };
    let host_config: HostConfig = serde_json::from_value(Value::Object(map)).map_err(|e| {
        let message = e.to_string();
        let line = backticked(&message).and_then(|key| line_of(text, key));
        err(line, format!("host config: {message}"))
    })?;
    check(&host_config).map_err(|e: HostConfigError| err(None, e.to_string()))?;
    check_sources(&host_config, &sources, strict)
        .map_err(|(field, m)| err(line_of(text, &field), m))?;
    let host_config = normalized(&host_config);
    Ok(HostProfile {
        hash: hash(&host_config),
        name,
        title,
        description,
        profile_version,
        builtin: strict,
        origin: (!strict).then(|| origin.to_owned()),
        host_config,
        sources,
    })
}

/// Sources name real fields; a built-in profile documents every value it changes and calls
/// only default values "unknown".
fn check_sources(
    c: &HostConfig,
    sources: &BTreeMap<String, FieldSource>,
    strict: bool,
) -> Result<(), (String, String)> {
    let fields = fields(c);
    let defaults = fields_of_default(c);
    for (path, source) in sources {
        let Some(value) = fields.get(path) else {
            return Err((
                path.clone(),
                format!("`sources` names `{path}`, which is not a field (e.g. `client.sampling`)"),
            ));
        };
        if let FieldSource::Documented(s) = source
            && (s.url.trim().is_empty() || !is_date(&s.read))
        {
            return Err((
                path.clone(),
                format!("the source of `{path}` needs a url and the date it was read (YYYY-MM-DD)"),
            ));
        }
        if matches!(source, FieldSource::Unknown(_)) && defaults.get(path) != Some(value) {
            return Err((
                path.clone(),
                format!(
                    "`{path}` is \"unknown\" but not mcplab's default: an unsourced value is a guess"
                ),
            ));
        }
    }
    if strict {
        for (path, value) in &fields {
            let documented = matches!(sources.get(path), Some(FieldSource::Documented(_)));
            if defaults.get(path) != Some(value) && !documented {
                return Err((
                    path.clone(),
                    format!("`{path}` differs from mcplab's default but names no source"),
                ));
            }
        }
    }
    Ok(())
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// The default config's fields, with the same servers as `c` (their defaults: every tool).
fn fields_of_default(c: &HostConfig) -> BTreeMap<String, Value> {
    let base = HostConfig {
        servers: c
            .servers
            .keys()
            .map(|k| (k.clone(), Default::default()))
            .collect(),
        ..HostConfig::default()
    };
    fields(&base)
}

/// Every leaf of the config (arrays are leaves) by dotted path, the sections left out of the
/// written form at their defaults included.
pub fn fields(c: &HostConfig) -> BTreeMap<String, Value> {
    let c = normalized(c);
    let mut value = serde_json::to_value(&c).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        let sections: [(&str, Value); 3] = [
            ("client", to_value::<ClientDeclaration>(&c.client)),
            (
                "toolCatalog",
                to_value::<ToolCatalogPolicy>(&c.tool_catalog),
            ),
            ("toolResults", to_value::<ToolResultPolicy>(&c.tool_results)),
        ];
        for (key, v) in sections {
            map.insert(key.to_owned(), v);
        }
        if let Some(Value::Object(app)) = map.get_mut("appHost") {
            let caps = to_value::<AppHostCapabilities>(&c.app_host.host_capabilities);
            app.insert("hostCapabilities".to_owned(), caps);
        }
    }
    let mut out = BTreeMap::new();
    flatten("", &value, &mut out);
    out
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn flatten(prefix: &str, v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&path, v, out);
            }
        }
        other => {
            out.insert(prefix.to_owned(), other.clone());
        }
    }
}

/// Field by field, where `a` and `b` differ, with each side's source.
pub fn diff(a: &HostProfile, b: &HostProfile) -> Vec<HostFieldDiff> {
    let (fa, fb) = (fields(&a.host_config), fields(&b.host_config));
    let keys: std::collections::BTreeSet<&String> = fa.keys().chain(fb.keys()).collect();
    keys.into_iter()
        .filter_map(|k| {
            let (va, vb) = (
                fa.get(k).cloned().unwrap_or(Value::Null),
                fb.get(k).cloned().unwrap_or(Value::Null),
            );
            (va != vb).then(|| HostFieldDiff {
                field: k.clone(),
                a: va,
                b: vb,
                source_a: a.sources.get(k).cloned(),
                source_b: b.sources.get(k).cloned(),
            })
        })
        .collect()
}

/// The profile as a file (what `mcplab hosts export` writes and `<data dir>/hosts/` reads):
/// the HostConfig's keys, then the profile's own.
pub fn export(p: &HostProfile) -> Value {
    let mut map = match serde_json::to_value(&p.host_config) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    map.insert("name".into(), Value::String(p.name.clone()));
    map.insert("title".into(), Value::String(p.title.clone()));
    map.insert("description".into(), Value::String(p.description.clone()));
    map.insert("profileVersion".into(), Value::from(p.profile_version));
    map.insert("sources".into(), to_value(&p.sources));
    Value::Object(map)
}

/// `base` run as the host `profile` describes: the profile's host sections (client, tool
/// catalog, tool results, approval, app host) over `base`'s model, prompt, limits, servers and
/// elicitation policy. How an eval suite's `hosts:` runs each host.
pub fn apply_profile(base: &HostConfig, profile: &HostConfig) -> HostConfig {
    HostConfig {
        client: profile.client.clone(),
        tool_catalog: profile.tool_catalog.clone(),
        tool_results: profile.tool_results.clone(),
        approval: profile.approval.clone(),
        app_host: profile.app_host.clone(),
        ..base.clone()
    }
}

/// Whether a file's JSON object is a profile rather than a bare HostConfig.
pub fn is_profile_text(text: &str) -> bool {
    serde_json::from_str::<Map<String, Value>>(text)
        .is_ok_and(|m| PROFILE_KEYS.iter().any(|k| m.contains_key(*k)))
}

/// The first `` `name` `` in a serde message (the unknown or bad key).
fn backticked(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len])
}

/// The 1-based line where the key `"<key>"` (a field path as written in `sources`, else its
/// last segment) first appears.
fn line_of(text: &str, key: &str) -> Option<usize> {
    let last = key.rsplit('.').next().unwrap_or(key);
    [key, last].iter().find_map(|k| {
        let needle = format!("\"{k}\"");
        text.lines()
            .position(|l| l.contains(&needle))
            .map(|i| i + 1)
    })
}

#[cfg(test)]
#[path = "profiles_tests.rs"]
mod tests;
