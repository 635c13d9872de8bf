//! A rule as data: its id, the set it belongs to, the requirement level its source states
//! (which decides the severity), where it comes from and the fix to suggest. The logic that
//! applies a rule lives in its set's module; nothing here looks at traffic.

use mcplab_protocol::check::{RuleSet, Severity};

/// The revision a spec link points into when no era is known (`--list-rules`).
pub(crate) const LISTING_REVISION: &str = "2025-11-25";

/// How strongly the source requires it (RFC 2119 words where the source uses them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// MUST / MUST NOT, or something a client cannot work with: an error.
    Must,
    /// SHOULD / SHOULD NOT, or likely trouble: a warning.
    Should,
    /// MAY, or worth knowing: information.
    Note,
}

impl Level {
    pub fn severity(self) -> Severity {
        match self {
            Level::Must => Severity::Error,
            Level::Should => Severity::Warning,
            Level::Note => Severity::Info,
        }
    }
}

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A section of the MCP specification, relative to a revision's root
    /// (`basic/lifecycle#initialization`); the link follows the negotiated revision.
    Spec(&'static str),
    /// A public page, with the date (YYYY-MM-DD) it was read.
    Page {
        url: &'static str,
        read: &'static str,
    },
}

/// One rule of a rule set.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Stable id, unique across every set (`tool-name`, `hidden-unicode`).
    pub id: &'static str,
    pub set: RuleSet,
    pub level: Level,
    /// What it checks, in one line (`--list-rules`, SARIF rule descriptions).
    pub summary: &'static str,
    pub source: Source,
    /// What the server's author should change (empty for pure information).
    pub fix: &'static str,
}

impl Rule {
    pub fn severity(&self) -> Severity {
        self.level.severity()
    }

    /// The source's URL, into `revision` for spec sections.
    pub fn url(&self, revision: Option<&str>) -> String {
        match self.source {
            Source::Spec(section) => format!(
                "https://modelcontextprotocol.io/specification/{}/{section}",
                revision.unwrap_or(LISTING_REVISION)
            ),
            Source::Page { url, .. } => url.to_owned(),
        }
    }

    /// The date a page source was read.
    pub fn read(&self) -> Option<&'static str> {
        match self.source {
            Source::Spec(_) => None,
            Source::Page { read, .. } => Some(read),
        }
    }
}

/// One set's rule table: its rules are written `TABLE.rule(id, level, summary, source, fix)`
/// and its page sources `TABLE.page(url)`, dated the day the set's pages were read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RuleTable {
    set: RuleSet,
    read: &'static str,
}

impl RuleTable {
    /// A table whose rules cite spec sections (or pages with their own date) only.
    pub(crate) const fn new(set: RuleSet) -> Self {
        RuleTable { set, read: "" }
    }

    /// The day (YYYY-MM-DD) the pages [`RuleTable::page`] cites were read.
    pub(crate) const fn read_on(self, read: &'static str) -> Self {
        RuleTable { read, ..self }
    }

    /// A public page read on the table's day (a compile error without [`RuleTable::read_on`]).
    pub(crate) const fn page(self, url: &'static str) -> Source {
        assert!(
            !self.read.is_empty(),
            "say when the pages were read: read_on"
        );
        Source::Page {
            url,
            read: self.read,
        }
    }

    /// A rule of this table's set.
    pub(crate) const fn rule(
        self,
        id: &'static str,
        level: Level,
        summary: &'static str,
        source: Source,
        fix: &'static str,
    ) -> Rule {
        Rule {
            id,
            set: self.set,
            level,
            summary,
            source,
            fix,
        }
    }
}
