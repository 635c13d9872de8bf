//! What `mcplab mcp` may start or reach: the servers of the person's configuration (exactly as
//! configured), and the command lines and URLs matching the `--allow-command` / `--allow-url`
//! patterns the person gave when starting it. The agent decides nothing here. A pattern is a
//! glob over the whole text (`*` any run of characters, spaces included; `?` one character);
//! a stdio server's text is its environment assignments (`NAME=value`, sorted) followed by the
//! command and its arguments, each separated by one space, so an allowed `node *` does not
//! allow `LD_PRELOAD=… node …`. A refusal says how the person can allow it.

use mcplab_protocol::{ServerConfig, ServerTransport};
use regex::Regex;

/// A `--allow-command`/`--allow-url` pattern that is not usable.
#[derive(Debug, thiserror::Error)]
#[error("the pattern `{pattern}` cannot be used: {why}")]
pub struct PatternError {
    pub pattern: String,
    pub why: String,
}

#[derive(Debug, Clone)]
struct Glob {
    text: String,
    regex: Regex,
}

impl Glob {
    fn new(text: &str) -> Result<Self, PatternError> {
        if text.trim().is_empty() {
            return Err(PatternError {
                pattern: text.to_owned(),
                why: "it is empty (use `*` to allow everything)".into(),
            });
        }
        let mut re = String::from("^");
        for c in text.chars() {
            match c {
                '*' => re.push_str(".*"),
                '?' => re.push('.'),
                c => re.push_str(&regex::escape(&c.to_string())),
            }
        }
        re.push('$');
        let regex = Regex::new(&re).map_err(|e| PatternError {
            pattern: text.to_owned(),
            why: e.to_string(),
        })?;
        Ok(Self {
            text: text.to_owned(),
            regex,
        })
    }
}

/// The person's allow-list.
#[derive(Debug, Clone, Default)]
pub struct AllowList {
    commands: Vec<Glob>,
    urls: Vec<Glob>,
    configured: Vec<ServerConfig>,
}

/// Why a server may not be started or reached.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

impl AllowList {
    /// The configured servers and the patterns given at start.
    pub fn new(
        configured: Vec<ServerConfig>,
        commands: &[String],
        urls: &[String],
    ) -> Result<Self, PatternError> {
        Ok(Self {
            commands: commands
                .iter()
                .map(|p| Glob::new(p))
                .collect::<Result<_, _>>()?,
            urls: urls
                .iter()
                .map(|p| Glob::new(p))
                .collect::<Result<_, _>>()?,
            configured,
        })
    }

    /// The person's configured servers.
    pub fn configured(&self) -> &[ServerConfig] {
        &self.configured
    }

    pub fn configured_named(&self, name: &str) -> Option<&ServerConfig> {
        self.configured.iter().find(|c| c.name == name)
    }

    /// The command and URL patterns, as given.
    pub fn patterns(&self) -> (Vec<String>, Vec<String>) {
        let texts = |g: &[Glob]| g.iter().map(|g| g.text.clone()).collect();
        (texts(&self.commands), texts(&self.urls))
    }

    /// Whether `config` may be started or reached.
    pub fn check(&self, config: &ServerConfig) -> Result<(), Refusal> {
        let same = |c: &&ServerConfig| {
            c.transport == config.transport && c.inherit_env == config.inherit_env
        };
        if self.configured.iter().any(|c| same(&c)) {
            return Ok(());
        }
        if config.inherit_env {
            return Err(Refusal(
                "only a configured server may start with mcplab's whole environment".into(),
            ));
        }
        let text = matched_text(&config.transport);
        let (globs, flag, what) = match config.transport {
            ServerTransport::Stdio { .. } => (&self.commands, "--allow-command", "run"),
            _ => (&self.urls, "--allow-url", "reach"),
        };
        if globs.iter().any(|g| g.regex.is_match(&text)) {
            return Ok(());
        }
        Err(Refusal(format!(
            "not allowed to {what} `{text}`: mcplab mcp starts only the configured servers and \
             what matches the patterns the person gave it ({}). To allow it, the person restarts \
             `mcplab mcp {flag} '{}'` (a glob: * matches anything), or adds it with `mcplab \
             servers add NAME …` and you connect it by name.",
            self.describe_patterns(globs, flag),
            suggestion(&text)
        )))
    }

    fn describe_patterns(&self, globs: &[Glob], flag: &str) -> String {
        if globs.is_empty() {
            return format!("no {flag} was given");
        }
        let list: Vec<String> = globs.iter().map(|g| format!("`{}`", g.text)).collect();
        format!("{flag}: {}", list.join(", "))
    }
}

/// The text a pattern is matched against (see the module doc).
pub(crate) fn matched_text(transport: &ServerTransport) -> String {
    match transport {
        ServerTransport::Stdio {
            command, args, env, ..
        } => {
            let mut words: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
            words.push(command.clone());
            words.extend(args.iter().cloned());
            words.join(" ")
        }
        ServerTransport::Http { url, .. } | ServerTransport::Sse { url, .. } => url.clone(),
    }
}

/// A pattern the person could pass: the text itself, with quotes inside made harmless.
fn suggestion(text: &str) -> String {
    text.replace('\'', "?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn stdio(line: &str, env: &[(&str, &str)]) -> ServerConfig {
        let mut words = line.split(' ').map(str::to_owned);
        ServerConfig {
            name: "s".into(),
            transport: ServerTransport::Stdio {
                command: words.next().unwrap(),
                args: words.collect(),
                env: env
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<BTreeMap<_, _>>(),
                cwd: None,
            },
            timeout_ms: None,
            inherit_env: false,
            protocol: Default::default(),
        }
    }

    fn http(url: &str) -> ServerConfig {
        ServerConfig {
            transport: ServerTransport::Http {
                url: url.into(),
                headers: BTreeMap::new(),
                oauth: None,
            },
            ..stdio("x", &[])
        }
    }

    #[test]
    fn nothing_is_allowed_by_default_and_the_refusal_says_how() {
        let allow = AllowList::new(Vec::new(), &[], &[]).unwrap();
        let Refusal(why) = allow.check(&stdio("node server.js", &[])).unwrap_err();
        assert!(why.contains("--allow-command 'node server.js'"), "{why}");
        assert!(why.contains("no --allow-command was given"), "{why}");
        let Refusal(why) = allow.check(&http("http://127.0.0.1:3000/mcp")).unwrap_err();
        assert!(
            why.contains("--allow-url 'http://127.0.0.1:3000/mcp'"),
            "{why}"
        );
    }

    #[test]
    fn globs_match_the_whole_line_env_first() {
        let allow = AllowList::new(
            Vec::new(),
            &["node *".into(), "python3 server.py".into()],
            &["http://127.0.0.1:*/mcp".into()],
        )
        .unwrap();
        assert!(
            allow
                .check(&stdio("node dist/index.js --port 1", &[]))
                .is_ok()
        );
        assert!(allow.check(&stdio("python3 server.py", &[])).is_ok());
        assert!(
            allow
                .check(&stdio("python3 server.py --evil", &[]))
                .is_err()
        );
        assert!(allow.check(&stdio("nodejs x.js", &[])).is_err());
        // The environment comes first: a preloaded library is not `node *`.
        assert!(
            allow
                .check(&stdio("node x.js", &[("LD_PRELOAD", "/tmp/x.so")]))
                .is_err()
        );
        assert!(allow.check(&http("http://127.0.0.1:8080/mcp")).is_ok());
        assert!(allow.check(&http("http://evil.example/mcp")).is_err());
        // A URL pattern does not allow a command, nor the reverse.
        let urls_only = AllowList::new(Vec::new(), &[], &["*".into()]).unwrap();
        assert!(urls_only.check(&stdio("node x.js", &[])).is_err());
    }

    #[test]
    fn a_configured_server_is_allowed_exactly_as_configured() {
        let configured = stdio("node server.js", &[("TOKEN", "1")]);
        let allow = AllowList::new(vec![configured.clone()], &[], &[]).unwrap();
        let renamed = ServerConfig {
            name: "other".into(),
            ..configured.clone()
        };
        assert!(allow.check(&renamed).is_ok());
        assert!(allow.check(&stdio("node server.js", &[])).is_err());
        let whole_env = ServerConfig {
            inherit_env: true,
            ..configured
        };
        assert!(allow.check(&whole_env).is_err());
    }

    #[test]
    fn an_empty_pattern_is_refused() {
        assert!(AllowList::new(Vec::new(), &[" ".into()], &[]).is_err());
    }
}
