//! Compare groups on the session hub: 2–4 sessions grouped as one compare (kept in the store,
//! so the session list shows one entry and a reload reopens every column), read back in column
//! order, and exported whole — JSON with every column's session view (each with its events and
//! x-rays), or Markdown with one section per column. It does not run turns: each column is an
//! ordinary session.

use mcplab_protocol::chat::{CompareExport, CompareGroup, NewCompare};

use super::export::{Export, export_format, markdown_at};
use super::hub::{SessionError, SessionHub, new_id};

/// The fewest and most columns a compare has.
pub const MIN_COLUMNS: usize = 2;
pub const MAX_COLUMNS: usize = 4;

impl SessionHub {
    /// Groups existing sessions (first column first) as a new compare.
    pub fn create_compare(&self, req: NewCompare) -> Result<CompareGroup, SessionError> {
        let ids = req.sessions;
        if !(MIN_COLUMNS..=MAX_COLUMNS).contains(&ids.len()) {
            return Err(SessionError::Invalid(format!(
                "a compare has {MIN_COLUMNS} to {MAX_COLUMNS} sessions, not {}",
                ids.len()
            )));
        }
        if ids.iter().enumerate().any(|(i, id)| ids[..i].contains(id)) {
            return Err(SessionError::Invalid(
                "a session can be only one column of a compare".into(),
            ));
        }
        for id in &ids {
            if let Some(m) = self.summary(id)?.compare {
                return Err(SessionError::Conflict(format!(
                    "chat session {id} is already column {} of compare {}; start a new chat to compare it again",
                    m.column, m.group
                )));
            }
        }
        let group = new_id();
        self.store.create_compare_group(&group, &ids)?;
        Ok(CompareGroup {
            id: group,
            sessions: ids,
        })
    }

    /// Compare `group`'s sessions in column order.
    pub fn compare_group(&self, group: &str) -> Result<CompareGroup, SessionError> {
        let sessions: Vec<String> = self
            .store
            .compare_group(group)?
            .into_iter()
            .map(|s| s.id)
            .collect();
        if sessions.is_empty() {
            return Err(SessionError::NotFound(format!("compare {group}")));
        }
        Ok(CompareGroup {
            id: group.to_owned(),
            sessions,
        })
    }

    /// The whole compare as `format` (`json` or `markdown`/`md`; `None` is JSON).
    pub fn export_compare(
        &self,
        group: &str,
        format: Option<&str>,
    ) -> Result<Export, SessionError> {
        let markdown = export_format(format)?;
        let g = self.compare_group(group)?;
        let columns = g
            .sessions
            .iter()
            .map(|id| self.view(id))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(if markdown {
            let mut md = format!("# Compare {} ({} columns)\n\n", g.id, columns.len());
            for (i, v) in columns.iter().enumerate() {
                md.push_str(&format!(
                    "## Column {}: `{}` · {}\n\n",
                    i + 1,
                    v.summary.host_config.model,
                    v.summary.title
                ));
                md.push_str(&markdown_at(&v.summary, &v.turns, 3));
            }
            Export {
                body: md,
                mime: "text/markdown; charset=utf-8",
                file_name: format!("compare-{}.md", g.id),
            }
        } else {
            let export = CompareExport {
                id: g.id.clone(),
                columns,
            };
            Export {
                body: serde_json::to_string_pretty(&export).map_err(|e| {
                    SessionError::Invalid(format!("cannot encode the compare: {e}"))
                })?,
                mime: "application/json",
                file_name: format!("compare-{}.json", g.id),
            }
        })
    }
}
