//! The `hosts` tool: the host profiles (built in, and the person's own), one profile's fields
//! with their sources, or the field-by-field difference between two — read from core's
//! `session::profiles`, connecting nothing.

use mcplab_core::session::profiles;
use mcplab_mcp::tool_server::ToolReply;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Agent;
use crate::reply::{self, fail, ok};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HostsArgs {
    name: Option<String>,
    against: Option<String>,
}

impl Agent {
    pub(crate) fn hosts_tool(&self, arguments: Value) -> ToolReply {
        let args: HostsArgs = match reply::args("hosts", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let all = &self.inner.setup.hosts;
        let Some(name) = args.name else {
            let list: Vec<Value> = all
                .list()
                .iter()
                .map(|p| json!({ "name": p.name, "title": p.title, "description": p.description, "builtin": p.builtin }))
                .collect();
            let names: Vec<&str> = all.list().iter().map(|p| p.name.as_str()).collect();
            return ok(
                format!("{} host profiles: {}", list.len(), names.join(", ")),
                json!({ "profiles": list }),
            );
        };
        let profile = match all.require(&name) {
            Ok(p) => p,
            Err(why) => return fail(why),
        };
        match args.against {
            None => ok(
                format!("host profile `{name}`"),
                json!({ "profile": profiles::export(profile) }),
            ),
            Some(other) => {
                let b = match all.require(&other) {
                    Ok(p) => p,
                    Err(why) => return fail(why),
                };
                let diff = profiles::diff(profile, b);
                ok(
                    format!("`{name}` and `{other}` differ in {} field(s)", diff.len()),
                    json!({ "diff": diff }),
                )
            }
        }
    }
}
