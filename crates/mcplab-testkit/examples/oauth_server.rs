//! The OAuth test setup as a standalone process, for the OAuth debugger's browser test and for
//! manual poking: an MCP server behind a loopback authorization server that approves at once.
//! Prints `listening <mcp url>` and `issuer <issuer>` on stdout and runs until killed.
//!
//! ```sh
//! cargo run -p mcplab-testkit --example oauth_server -- --preset dcr
//! ```
//!
//! Presets: `dcr` (default: dynamic registration, metadata named in the challenge), `pre`
//! (pre-registered client `mcplab-test` / secret `mcplab-secret`, no registration), `cimd`
//! (Client ID Metadata Documents), `openid` (OpenID configuration under an issuer path, PRM at
//! the well-known URL only), `legacy` (2025-03-26: no metadata, default endpoints at the
//! server's origin), `step-up` (`write_note` needs `mcp:write`), and the broken setups
//! `broken-resource` (the metadata's `resource` names another server), `no-pkce` (no
//! `code_challenge_methods_supported`), `no-registration` (no DCR, no client configured) and
//! `open` (no authorization asked for, no OAuth metadata: the debugger's "not required").

use std::io::Write;
use std::process::ExitCode;

use mcplab_testkit::oauth::{MetadataMode, OAuthTestConfig, OAuthTestServer, PrmMode};

fn preset(name: &str) -> Option<OAuthTestConfig> {
    let base = OAuthTestConfig::default();
    Some(match name {
        "dcr" => base,
        "pre" => OAuthTestConfig {
            dcr: false,
            clients: vec![("mcplab-test".into(), Some("mcplab-secret".into()))],
            token_auth_methods: vec!["client_secret_basic".into()],
            ..base
        },
        "cimd" => OAuthTestConfig { cimd: true, ..base },
        "openid" => OAuthTestConfig {
            prm: PrmMode::WellKnownPath,
            metadata: MetadataMode::OpenId,
            issuer_path: "/tenant1".into(),
            ..base
        },
        "legacy" => OAuthTestConfig {
            prm: PrmMode::None,
            metadata: MetadataMode::Missing,
            ..base
        },
        "step-up" => OAuthTestConfig {
            required_scopes: vec!["mcp:basic".into()],
            challenge_scope: true,
            tool_scopes: vec![("write_note".into(), vec!["mcp:write".into()])],
            ..base
        },
        "broken-resource" => OAuthTestConfig {
            prm_resource: Some("https://other.example.com/mcp".into()),
            ..base
        },
        "no-pkce" => OAuthTestConfig {
            pkce_methods: None,
            ..base
        },
        "no-registration" => OAuthTestConfig { dcr: false, ..base },
        "open" => OAuthTestConfig {
            prm: PrmMode::None,
            metadata: MetadataMode::Missing,
            open_methods: [
                "initialize",
                "notifications/initialized",
                "ping",
                "tools/list",
            ]
            .map(String::from)
            .to_vec(),
            ..base
        },
        _ => return None,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = match args.as_slice() {
        [] => "dcr".to_string(),
        [flag, value] if flag == "--preset" => value.clone(),
        _ => {
            eprintln!("usage: oauth_server [--preset NAME]");
            return ExitCode::from(2);
        }
    };
    let Some(config) = preset(&name) else {
        eprintln!("unknown preset `{name}`");
        return ExitCode::from(2);
    };
    let server = OAuthTestServer::start(config).await;
    let mut out = std::io::stdout();
    let _ = writeln!(out, "listening {}", server.mcp_url());
    let _ = writeln!(out, "issuer {}", server.issuer());
    let _ = out.flush();
    let _ = tokio::signal::ctrl_c().await;
    ExitCode::SUCCESS
}
