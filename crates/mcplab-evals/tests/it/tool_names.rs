//! The tools a suite names, found wherever they are written (expected and forbidden calls,
//! per-tool options, checks, on cases, turns and the defaults), checked against what each
//! host's servers list, and placed at their lines with the nearest listed name.

use std::collections::BTreeMap;

use mcplab_evals::suite::{Catalog, locate_problems, parse_suite, tool_refs, unknown_tools};

const SUITE: &str = "version: 1
id: names
defaults:
  toolCalls: { forbidden: [delete_all] }
  checks:
    - appRendered: { tool: show_chart }
cases:
  - id: a
    turns:
      - user: hi
        toolCalls:
          expected: [{ tool: serch, server: docs }]
        checks: [{ firstTool: search }]
    toolCalls:
      perTool: { fetch_page: { arguments: ignore } }
    checks:
      - toolResult: { tool: search, matches: {} }
";

fn catalog(host: Option<&str>, servers: &[(&str, &[&str])]) -> Catalog {
    Catalog {
        host: host.map(str::to_owned),
        servers: servers
            .iter()
            .map(|(s, tools)| (s.to_string(), tools.iter().map(|t| t.to_string()).collect()))
            .collect::<BTreeMap<_, _>>(),
    }
}

#[test]
fn every_place_a_tool_is_named_is_found() {
    let suite = parse_suite(SUITE).unwrap();
    let found: Vec<(String, Option<String>, String)> = tool_refs(&suite)
        .into_iter()
        .map(|r| (r.pointer, r.server, r.tool))
        .collect();
    let s = |p: &str, server: Option<&str>, t: &str| {
        (p.to_owned(), server.map(str::to_owned), t.to_owned())
    };
    assert_eq!(
        found,
        vec![
            s("/defaults/toolCalls/forbidden/0", None, "delete_all"),
            s("/defaults/checks/0/appRendered/tool", None, "show_chart"),
            s("/cases/0/toolCalls/perTool/fetch_page", None, "fetch_page"),
            s("/cases/0/checks/0/toolResult/tool", None, "search"),
            s(
                "/cases/0/turns/0/toolCalls/expected/0/tool",
                Some("docs"),
                "serch"
            ),
            s("/cases/0/turns/0/checks/0/firstTool", None, "search"),
        ]
    );
}

#[test]
fn unknown_names_get_their_line_and_the_nearest_listed_name() {
    let suite = parse_suite(SUITE).unwrap();
    let refs = tool_refs(&suite);
    let docs: &[&str] = &["search", "fetch_page", "delete_all"];
    let ui: &[&str] = &["show_chart"];
    let everything = catalog(None, &[("docs", docs), ("ui", ui)]);
    let errors = locate_problems(
        Some(SUITE),
        unknown_tools(&refs, std::slice::from_ref(&everything)),
    );
    let lines: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        vec![
            "12:24: cases[0].turns[0].toolCalls.expected[0].tool: tool `serch` is not on server `docs`: did you mean `search`?"
        ]
    );
    // Another host's declaration is listed fewer tools: the name is on the server, not for it.
    let fewer = catalog(
        Some("vscode"),
        &[("docs", &["search", "fetch_page"]), ("ui", ui)],
    );
    let problems = unknown_tools(&refs, &[everything, fewer]);
    assert!(
        problems.iter().any(|(p, m)| p == "/defaults/toolCalls/forbidden/0"
            && m == "tool `delete_all` is not listed to host `vscode` (the servers list it to other hosts: a server may list tools per client)"),
        "{problems:?}"
    );
}

#[test]
fn a_server_the_suite_does_not_have_is_named_as_such() {
    let suite = parse_suite(SUITE).unwrap();
    let refs = tool_refs(&suite);
    let only = catalog(
        None,
        &[(
            "dcs",
            &["search", "serch", "fetch_page", "delete_all", "show_chart"],
        )],
    );
    let problems = unknown_tools(&refs, &[only]);
    assert_eq!(
        problems,
        vec![(
            "/cases/0/turns/0/toolCalls/expected/0/server".to_owned(),
            "server `docs` is not one of the suite's servers (dcs): did you mean `dcs`?".to_owned()
        )]
    );
}
