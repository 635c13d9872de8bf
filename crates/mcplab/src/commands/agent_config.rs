//! `mcplab servers export --for AGENT`: the config entry that makes a coding agent (Claude
//! Code, Codex, Cursor, VS Code, goose) start `mcplab mcp`, in that agent's own format, with
//! the `--allow-*` patterns given. This is the one source of the README's snippets: a test
//! runs the command and finds each snippet verbatim in README.md.

use clap::ValueEnum;

/// The coding agents whose config format mcplab knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CodingAgent {
    /// Claude Code (`claude mcp add`).
    #[value(name = "claude-code", alias = "claude")]
    ClaudeCode,
    /// Codex (`~/.codex/config.toml`).
    Codex,
    /// Cursor (`.cursor/mcp.json`).
    Cursor,
    /// VS Code (`.vscode/mcp.json`).
    Vscode,
    /// goose (`~/.config/goose/config.yaml`).
    Goose,
}

impl CodingAgent {
    /// Where the snippet goes, for a person reading it.
    pub fn place(self) -> &'static str {
        match self {
            CodingAgent::ClaudeCode => "Claude Code: run this command",
            CodingAgent::Codex => "Codex: add this to ~/.codex/config.toml",
            CodingAgent::Cursor => "Cursor: merge this into .cursor/mcp.json",
            CodingAgent::Vscode => "VS Code: merge this into .vscode/mcp.json",
            CodingAgent::Goose => "goose: merge this into ~/.config/goose/config.yaml",
        }
    }
}

/// `mcplab mcp`'s arguments: the allow patterns, commands first.
pub fn mcp_args(allow_commands: &[String], allow_urls: &[String]) -> Vec<String> {
    let mut args = vec!["mcp".to_owned()];
    for c in allow_commands {
        args.extend(["--allow-command".to_owned(), c.clone()]);
    }
    for u in allow_urls {
        args.extend(["--allow-url".to_owned(), u.clone()]);
    }
    args
}

/// The entry for `agent`, ending in a newline.
pub fn snippet(agent: CodingAgent, args: &[String]) -> String {
    let list = quoted_list(args);
    match agent {
        CodingAgent::ClaudeCode => {
            format!(
                "claude mcp add mcplab -- mcplab {}\n",
                shell_words::join(args)
            )
        }
        CodingAgent::Codex => {
            format!("[mcp_servers.mcplab]\ncommand = \"mcplab\"\nargs = {list}\n")
        }
        CodingAgent::Cursor => format!(
            "{{ \"mcpServers\": {{ \"mcplab\": {{ \"command\": \"mcplab\", \"args\": {list} }} }} }}\n"
        ),
        CodingAgent::Vscode => format!(
            "{{ \"servers\": {{ \"mcplab\": {{ \"type\": \"stdio\", \"command\": \"mcplab\", \
             \"args\": {list} }} }} }}\n"
        ),
        CodingAgent::Goose => format!(
            "extensions:\n  mcplab:\n    enabled: true\n    type: stdio\n    name: mcplab\n    \
             cmd: mcplab\n    args: {list}\n    timeout: 300\n"
        ),
    }
}

/// `["a", "b"]`: JSON strings, which are also TOML basic strings and YAML double-quoted ones.
fn quoted_list(args: &[String]) -> String {
    let items: Vec<String> = args
        .iter()
        .map(|a| serde_json::Value::String(a.clone()).to_string())
        .collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> Vec<String> {
        mcp_args(&["node dist/*".into()], &["http://127.0.0.1:*".into()])
    }

    #[test]
    fn every_format_parses_and_holds_the_arguments() {
        let want = serde_json::json!(args());
        let cursor: serde_json::Value =
            serde_json::from_str(&snippet(CodingAgent::Cursor, &args())).unwrap();
        assert_eq!(cursor["mcpServers"]["mcplab"]["args"], want);
        let vscode: serde_json::Value =
            serde_json::from_str(&snippet(CodingAgent::Vscode, &args())).unwrap();
        assert_eq!(vscode["servers"]["mcplab"]["args"], want);
        let limits = mcplab_yaml::Limits {
            max_depth: 8,
            max_nodes: 100,
        };
        let goose: serde_json::Value =
            mcplab_yaml::from_str(&snippet(CodingAgent::Goose, &args()), limits).unwrap();
        assert_eq!(goose["extensions"]["mcplab"]["args"], want);
        let claude = snippet(CodingAgent::ClaudeCode, &args());
        let words = shell_words::split(claude.trim()).unwrap();
        assert_eq!(words[..5], ["claude", "mcp", "add", "mcplab", "--"]);
        assert_eq!(words[5], "mcplab");
        assert_eq!(serde_json::json!(words[6..]), want);
    }

    #[test]
    fn quotes_and_backslashes_survive() {
        let args = mcp_args(&[r#"say "hi" \ *"#.into()], &[]);
        let cursor: serde_json::Value =
            serde_json::from_str(&snippet(CodingAgent::Cursor, &args)).unwrap();
        assert_eq!(cursor["mcpServers"]["mcplab"]["args"][2], r#"say "hi" \ *"#);
    }
}
