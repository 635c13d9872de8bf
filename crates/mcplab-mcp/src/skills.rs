//! Loading a server's skill (SEP-2640): `skills/list` gives each skill's entry (the uri of its
//! `SKILL.md`, the frontmatter, and a manifest of files with digest and size). Nothing is read
//! until a skill is loaded; then `SKILL.md` is read first, its size and digest checked against
//! the manifest, its YAML frontmatter parsed and compared field by field with the entry, and
//! only if everything matches the other files are read, each checked the same way. The first
//! mismatch stops loading: unverified content is never used.

use base64::Engine as _;
use mcplab_protocol::{SkillFileView, SkillLoadView};
use serde_json::{Value, json};

use super::connection::{Connection, RequestOptions};
use super::error::McpError;
use super::listing::Listing;

/// `sha256:` and 64 lowercase hex digits.
pub(crate) fn digest_of(bytes: &[u8]) -> String {
    format!(
        "sha256:{}",
        hex::encode(ring::digest::digest(&ring::digest::SHA256, bytes))
    )
}

/// Bounds on a frontmatter (a server's text: the same rules as every YAML mcplab reads, so no
/// alias expansion).
const FRONTMATTER_LIMITS: mcplab_yaml::Limits = mcplab_yaml::Limits {
    max_depth: 16,
    max_nodes: 10_000,
};

/// The YAML frontmatter of a `SKILL.md` (between the leading `---` lines) as JSON.
pub(crate) fn frontmatter(text: &str) -> Result<Value, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return Err("SKILL.md does not start with a `---` frontmatter block".into());
    }
    let body: Vec<&str> = lines.take_while(|l| l.trim_end() != "---").collect();
    match mcplab_yaml::parse(&body.join("\n"), FRONTMATTER_LIMITS) {
        Ok((Value::Object(map), _)) => Ok(Value::Object(map)),
        Ok(_) => Err("the frontmatter is not a YAML mapping".into()),
        Err(e) => Err(format!("the frontmatter is not valid YAML: {e}")),
    }
}

/// The first field in which the parsed frontmatter and the entry's frontmatter differ.
pub(crate) fn frontmatter_mismatch(parsed: &Value, entry: &Value) -> Option<String> {
    let (Some(a), Some(b)) = (parsed.as_object(), entry.as_object()) else {
        return Some("the entry has no frontmatter object".into());
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter().find_map(|k| {
        (a.get(k) != b.get(k)).then(|| {
            format!(
                "frontmatter field `{k}` is {} in SKILL.md but {} in the skills/list entry",
                a.get(k).map_or("absent".into(), Value::to_string),
                b.get(k).map_or("absent".into(), Value::to_string)
            )
        })
    })
}

/// The bytes of the first content of a `resources/read` result.
fn content_bytes(result: &Value) -> Option<(Vec<u8>, Option<String>, Option<String>)> {
    let content = result.get("contents")?.as_array()?.first()?;
    let mime = content
        .get("mimeType")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(text) = content.get("text").and_then(Value::as_str) {
        return Some((text.as_bytes().to_vec(), mime, Some(text.to_owned())));
    }
    let blob = content.get("blob")?.as_str()?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(blob)
        .ok()?;
    Some((bytes, mime, None))
}

impl Connection {
    /// The skill entry for `skill` (a `skill://…/SKILL.md` uri or a skill name).
    pub async fn skill_entry(&self, skill: &str) -> Result<Value, McpError> {
        let listed = self
            .list_all(Listing::Skills, RequestOptions::default())
            .await?;
        let skills = listed["skills"].as_array().cloned().unwrap_or_default();
        skills
            .into_iter()
            .find(|s| s["uri"] == skill || s["frontmatter"]["name"] == skill)
            .ok_or_else(|| {
                McpError::InvalidParams(format!(
                    "the server lists no skill `{skill}` (see `skills list`)"
                ))
            })
    }

    /// Loads a skill: reads and verifies `SKILL.md`, then every other file of its manifest.
    pub async fn load_skill(&self, skill: &str) -> Result<SkillLoadView, McpError> {
        let entry = self.skill_entry(skill).await?;
        let uri = entry["uri"].as_str().unwrap_or_default().to_owned();
        let manifest: Vec<Value> = entry["resources"].as_array().cloned().unwrap_or_default();
        let dynamic = entry["resources"] == "dynamic";
        let mut view = SkillLoadView {
            entry: entry.clone(),
            frontmatter: None,
            files: Vec::new(),
            problem: None,
        };
        let mut order = vec![uri.clone()];
        order.extend(
            manifest
                .iter()
                .filter_map(|f| f["uri"].as_str())
                .filter(|u| *u != uri)
                .map(str::to_owned),
        );
        for file_uri in order {
            let expected = manifest.iter().find(|f| f["uri"] == file_uri.as_str());
            if let Err(problem) = self
                .load_file(&mut view, &file_uri, expected, dynamic)
                .await?
            {
                view.problem = Some(problem);
                return Ok(view);
            }
            if file_uri == uri {
                let text = view
                    .files
                    .last()
                    .and_then(|f| f.text.clone())
                    .unwrap_or_default();
                match frontmatter(&text) {
                    Ok(parsed) => {
                        let mismatch = frontmatter_mismatch(&parsed, &entry["frontmatter"]);
                        view.frontmatter = Some(parsed);
                        if let Some(why) = mismatch {
                            view.problem = Some(format!("{why}; the skill must not be loaded"));
                            return Ok(view);
                        }
                    }
                    Err(why) => {
                        view.problem = Some(why);
                        return Ok(view);
                    }
                }
            }
        }
        Ok(view)
    }

    /// Reads one file and checks it against its manifest entry; `Ok(Err(why))` on a mismatch.
    async fn load_file(
        &self,
        view: &mut SkillLoadView,
        uri: &str,
        expected: Option<&Value>,
        dynamic: bool,
    ) -> Result<Result<(), String>, McpError> {
        let result = self
            .request(
                "resources/read",
                Some(json!({ "uri": uri })),
                RequestOptions::default(),
            )
            .await?;
        let Some((bytes, mime_type, text)) = content_bytes(&result) else {
            return Ok(Err(format!(
                "{uri}: the server returned no readable content"
            )));
        };
        let digest = digest_of(&bytes);
        let size = bytes.len() as u64;
        let check = match (expected, dynamic) {
            (_, true) => Ok(false),
            (None, false) => Err(format!("{uri} is not in the skill's manifest")),
            (Some(e), false) => {
                let want_size = e["size"].as_u64();
                let want_digest = e["digest"].as_str();
                if want_size != Some(size) {
                    Err(format!(
                        "{uri} is {size} bytes but the manifest says {}; a size mismatch is a \
                         verification failure",
                        want_size.map_or("nothing".into(), |s| s.to_string())
                    ))
                } else if want_digest != Some(digest.as_str()) {
                    Err(format!(
                        "{uri} has digest {digest} but the manifest says {}",
                        want_digest.unwrap_or("nothing")
                    ))
                } else {
                    Ok(true)
                }
            }
        };
        let verified = *check.as_ref().unwrap_or(&false);
        view.files.push(SkillFileView {
            uri: uri.to_owned(),
            mime_type,
            size,
            digest,
            verified,
            // Content that failed verification is not handed on.
            text: text.filter(|_| check.is_ok()),
        });
        Ok(check.map(|_| ()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_is_parsed_and_compared_field_by_field() {
        let md = "---\nname: pdf-processing\ndescription: Extract, fill\nversion: 2\n---\n\nbody\n";
        let parsed = frontmatter(md).unwrap();
        assert_eq!(parsed["name"], "pdf-processing");
        assert_eq!(parsed["version"], 2);
        let entry = json!({"name": "pdf-processing", "description": "Extract, fill", "version": 2});
        assert_eq!(frontmatter_mismatch(&parsed, &entry), None);
        let changed = json!({"name": "pdf-processing", "description": "Exfiltrate", "version": 2});
        assert!(
            frontmatter_mismatch(&parsed, &changed)
                .unwrap()
                .contains("description")
        );
        assert!(frontmatter("no frontmatter").is_err());
        // A server's text gets the rules of every YAML mcplab reads: no alias expansion.
        let bomb = "---\na: &a [x, x]\nb: [*a, *a]\n---\n";
        assert!(frontmatter(bomb).unwrap_err().contains("anchors"));
        assert!(
            frontmatter("---\n- a\n---\n")
                .unwrap_err()
                .contains("mapping")
        );
        assert_eq!(
            digest_of(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
