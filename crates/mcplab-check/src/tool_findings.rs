//! Findings about each tool a live connection listed, for the Tools page's marks: the spec and
//! security sets' judges — `mcplab check`'s own rules, unchanged — over a recording of that one
//! listing: a `tools/list` request and its answer made from the list the connection already
//! has; and, when the server is connected as a host profile (`opts.hosts`), that host's
//! verdicts on each tool (the hosts set's conclusion over the same recording; its apps are not
//! read). Nothing is sent to the server: no exercise runs, no tool is called. Only findings that
//! name their tool are kept (the list as a whole, the server's info and its URL are the Check
//! page's business), each rule's findings all kept, not the report's first twenty.

use mcplab_mcp::{CACHE_MARKER, Connection, Listing};
use mcplab_protocol::check::{Finding, RuleSet, ToolFindings, ToolMarks};
use mcplab_protocol::{Direction, TrafficFrame};
use serde_json::{Value, json};

use crate::findings::Findings;
use crate::options::CheckOptions;
use crate::recording::{Listed, ListingRun, Recording};
use crate::sets::definition;

/// The sets whose rules judge tool definitions whatever the host (the hosts set joins them
/// when a host profile is given).
pub const TOOL_RULE_SETS: [RuleSet; 2] = [RuleSet::Spec, RuleSet::Security];

/// The frame numbers of the made-up exchange (never shown: findings lose their frames).
const ASKED: u64 = 1;
const ANSWERED: u64 = 2;

/// Judges `listed` (`{tools: […]}` as [`Connection::list_all`] returns it) as the tools of
/// `conn`, in the revision it speaks. `opts.peers` names the other servers' tools (collisions);
/// `opts.hosts`, the host profile the server is connected as (its verdicts per tool).
pub fn tool_findings(conn: &Connection, listed: &Value, opts: &CheckOptions) -> ToolFindings {
    let tools: Vec<Value> = listed
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let rec = recording(conn, listed, &tools);
    let mut f = Findings::every(Some(&rec.revision));
    let mut sets = TOOL_RULE_SETS.to_vec();
    for set in TOOL_RULE_SETS {
        (definition(set).judge)(&rec, opts, &mut f);
    }
    let mut findings = f.finish();
    if let (false, Some(conclude)) = (opts.hosts.is_empty(), definition(RuleSet::Hosts).conclude) {
        let mut hosts = Findings::every(None);
        conclude(&[&rec], opts, &mut hosts);
        findings.extend(hosts.finish());
        sets.push(RuleSet::Hosts);
    }
    ToolFindings {
        server: conn.name().to_owned(),
        revision: rec.revision.clone(),
        rule_sets: sets,
        judged: u32::try_from(tools.len()).unwrap_or(u32::MAX),
        tools: by_tool(&tools, findings),
    }
}

/// A recording of the one exchange: the request, the answer with every page merged (the
/// cache marker is mcplab's, not the server's), and the listing as a probe would have run it.
fn recording(conn: &Connection, listed: &Value, tools: &[Value]) -> Recording {
    let view = conn.era();
    let revision = conn.protocol_version().unwrap_or(view.revision.as_str());
    let mut rec = Recording::new(
        conn.name(),
        conn.name(),
        conn.config().clone(),
        view.era,
        revision,
        conn.initialize_result().clone(),
    );
    let mut result = listed.clone();
    if let Some(m) = result.as_object_mut() {
        m.remove(CACHE_MARKER);
    }
    let asked = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": result});
    let frame = |seq, direction, v: &Value| {
        TrafficFrame::message(seq, conn.name(), 0, direction, v.to_string())
    };
    rec.frames = vec![
        frame(ASKED, Direction::Outbound, &asked),
        frame(ANSWERED, Direction::Inbound, &answer),
    ];
    rec.listings.push(ListingRun {
        listing: Listing::Tools,
        declared: true,
        outcome: Ok(Listed {
            items: tools.to_vec(),
            pages: 1,
            cursor_problem: None,
        }),
    });
    rec
}

/// The findings that name a tool, grouped by tool in list order, worst first; the made-up
/// frames are dropped (the excerpt still shows the part of the definition meant).
fn by_tool(tools: &[Value], findings: Vec<Finding>) -> Vec<ToolMarks> {
    let mut out: Vec<ToolMarks> = Vec::new();
    for name in tools.iter().filter_map(|t| t.get("name")?.as_str()) {
        if out.iter().any(|m| m.tool == name) {
            continue;
        }
        let mut mine: Vec<Finding> = findings
            .iter()
            .filter(|f| f.tool.as_deref() == Some(name))
            .cloned()
            .map(|mut f| {
                f.frames.clear();
                f
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        mine.sort_by_key(|f| f.severity);
        out.push(ToolMarks {
            tool: name.to_owned(),
            findings: mine,
        });
    }
    out
}
