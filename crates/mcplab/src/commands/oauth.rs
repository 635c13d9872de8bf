//! `mcplab oauth debug|login|logout|status`. `debug` runs the flow for a URL step by step and
//! prints each step as it happens (a readable sequence, or JSON lines with `--json`); `login`
//! signs in to a configured server (or `--url`) and stores the tokens; `logout` forgets them;
//! `status` lists what is stored, tokens masked. A failed flow exits 3 with the fix.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Arc;

use mcplab_net::mask_secret;
use mcplab_oauth::{
    CredentialStore, DebugOptions, DebugOutcome, FlowOptions, NonInteractiveAgent, OAuthError,
    OAuthHttp, StepLog, UserAgent, debug_run,
};
use mcplab_protocol::ServerTransport;
use mcplab_protocol::oauth::{
    OAuthConfig, OAuthDebugEvent, OAuthDebugRequest, OAuthDebugRun, OAuthProbeTransport,
    OAuthRunState, OAuthStatusView, OAuthStep, OAuthStepKind,
};

use crate::cli::RemoteTransport;
use crate::cli::oauth::{OAuthMode, OauthCmd, OauthDebugArgs};
use crate::failure::{EXIT_CONNECT, EXIT_INTERRUPTED, Failure};
use crate::output;
use crate::output::outln;
use crate::session::oauth::{LoopbackAgent, USER_AGENT};
use crate::settings::{DataDir, Settings};
use crate::target;

pub async fn run(cmd: OauthCmd, settings: &Settings) -> Result<(), Failure> {
    let data = &settings.data;
    match cmd {
        OauthCmd::Debug(args) => debug(args, settings).await,
        OauthCmd::Login => login(settings, data).await,
        OauthCmd::Logout => logout(settings, data),
        OauthCmd::Status => status(settings, data),
    }
}

fn transport(settings: &Settings) -> OAuthProbeTransport {
    match settings.target.transport.unwrap_or_default() {
        RemoteTransport::Http => OAuthProbeTransport::Http,
        RemoteTransport::Sse => OAuthProbeTransport::Sse,
    }
}

/// Prints each step as it is recorded: human text, or one JSON line per step.
fn printer(json: bool) -> StepLog {
    // A document just shown as a response body is not shown again as what was discovered.
    let body_shown = parking_lot::Mutex::new(false);
    StepLog::with_sink(Arc::new(move |step: &OAuthStep| {
        let mut out = std::io::stdout().lock();
        let line = if json {
            let event = OAuthDebugEvent::Step { step: step.clone() };
            serde_json::to_string(&event).unwrap_or_default() + "\n"
        } else {
            let mut shown = body_shown.lock();
            let repeat = *shown && step.kind == OAuthStepKind::Discovered;
            *shown = step
                .http
                .as_ref()
                .is_some_and(|h| h.response_body.is_some());
            human(step, repeat)
        };
        let _ = out.write_all(line.as_bytes());
        let _ = out.flush();
    }))
}

/// Headers worth showing in the human sequence (all are in `--json`).
const SHOWN_HEADERS: &[&str] = &[
    "authorization",
    "www-authenticate",
    "location",
    "mcp-protocol-version",
];

fn indented(out: &mut String, prefix: &str, text: &str, max_lines: usize) {
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(max_lines) {
        let _ = writeln!(out, "      {prefix}{line}");
    }
    if lines.len() > max_lines {
        let _ = writeln!(
            out,
            "      {prefix}… {} more lines (see --json)",
            lines.len() - max_lines
        );
    }
}

/// One step as readable text (`repeat`: its data was just shown as a response body).
fn human(step: &OAuthStep, repeat: bool) -> String {
    let mark = match step.kind {
        OAuthStepKind::Http => "→",
        OAuthStepKind::Discovered => "•",
        OAuthStepKind::Chose => "»",
        OAuthStepKind::Browser => "⇢",
        OAuthStepKind::Warning => "!",
        OAuthStepKind::Failed => "✗",
        OAuthStepKind::Done => "✓",
    };
    let mut out = format!("{:>2}. {mark} {}\n", step.seq, step.title);
    if let Some(h) = &step.http {
        let result = match (h.status, &h.error) {
            (Some(status), _) => status.to_string(),
            (None, Some(error)) => format!("no response: {error}"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "      {} {} → {result} ({} ms)",
            h.method, h.url, h.duration_ms
        );
        let shown = |k: &str| SHOWN_HEADERS.contains(&k.to_ascii_lowercase().as_str());
        for (k, v) in h.request_headers.iter().filter(|(k, _)| shown(k)) {
            let _ = writeln!(out, "      > {k}: {v}");
        }
        if let Some(body) = &h.request_body {
            indented(&mut out, "> ", body, 12);
        }
        for (k, v) in h.response_headers.iter().filter(|(k, _)| shown(k)) {
            let _ = writeln!(out, "      < {k}: {v}");
        }
        if let Some(body) = &h.response_body {
            indented(&mut out, "< ", body, 16);
        }
    }
    if let Some(detail) = &step.detail {
        let label = if step.kind == OAuthStepKind::Chose {
            "why: "
        } else {
            ""
        };
        let _ = writeln!(out, "      {label}{detail}");
    }
    let show_data = !repeat && step.kind != OAuthStepKind::Done;
    if let Some(data) = step.data.as_ref().filter(|_| show_data) {
        let text = serde_json::to_string_pretty(data).unwrap_or_default();
        indented(&mut out, "", &text, 16);
    }
    if let Some(fix) = &step.fix {
        let _ = writeln!(out, "      fix: {fix}");
    }
    out
}

async fn debug(args: OauthDebugArgs, settings: &Settings) -> Result<(), Failure> {
    let url = url::Url::parse(args.url.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| Failure::usage(format!("`{}` is not an http(s) URL", args.url)))?;
    let request = OAuthDebugRequest {
        url: url.to_string(),
        transport: Some(transport(settings)),
        revision: args.revision,
        registration: args
            .registration
            .map(crate::cli::oauth::Registration::method),
        client_id: args.client_id,
        client_secret: args.client_secret,
        client_metadata_url: args.cimd_url,
        scope: args.scope,
        interactive: !(args.non_interactive || settings.oauth == Some(OAuthMode::NonInteractive)),
    };
    let config = request.oauth_config();
    let opts = DebugOptions {
        url,
        transport: transport(settings),
        flow: FlowOptions::from_config(&config, "mcplab"),
    };
    let agent: Box<dyn UserAgent> = if request.interactive {
        Box::new(LoopbackAgent)
    } else {
        Box::new(NonInteractiveAgent::new())
    };
    let http = OAuthHttp::new(USER_AGENT).map_err(|e| Failure::usage(e.to_string()))?;
    http.allow_private(settings.budget.oauth_allow_private);
    let log = printer(settings.json);
    let started_ms = mcplab_protocol::clock::now_ms();
    let outcome = tokio::select! {
        outcome = debug_run(&http, agent.as_ref(), &opts, &log) => outcome,
        _ = crate::session::wait_for_stop_signal() => return Err(Failure::silent(EXIT_INTERRUPTED)),
    };
    let mut shown = request;
    shown.client_secret = shown.client_secret.as_deref().map(mask_secret);
    let run = OAuthDebugRun {
        id: "cli".into(),
        request: shown,
        state: match &outcome {
            Ok(DebugOutcome::Authorized { .. }) => OAuthRunState::Succeeded,
            Ok(DebugOutcome::NotRequired) => OAuthRunState::NotRequired,
            Err(_) => OAuthRunState::Failed,
        },
        steps: log.steps(),
        result: match &outcome {
            Ok(DebugOutcome::Authorized { summary, .. }) => Some(summary.clone()),
            _ => None,
        },
        failure: outcome.as_ref().err().map(OAuthError::failure),
        started_ms,
        finished_ms: Some(mcplab_protocol::clock::now_ms()),
    };
    if settings.json {
        let event = OAuthDebugEvent::Finished { run };
        crate::output::outln!("{}", serde_json::to_string(&event).unwrap_or_default());
    } else if let Some(summary) = &run.result {
        crate::output::outln!(
            "\nauthorized: {} token {}, scope {}, expires in {}, refresh token: {}",
            summary.token_type,
            summary.access_token,
            summary.scope.as_deref().unwrap_or("(none)"),
            summary
                .expires_in_secs
                .map(|s| format!("{s} s"))
                .unwrap_or_else(|| "(not said)".into()),
            if summary.has_refresh_token {
                "yes"
            } else {
                "no"
            },
        );
    } else if run.state == OAuthRunState::NotRequired {
        outln!("\nno authorization required: the server answered without asking for it");
    }
    outcome.map(|_| ()).map_err(flow_failure)
}

fn flow_failure(e: OAuthError) -> Failure {
    let code = match e {
        OAuthError::Cancelled => EXIT_INTERRUPTED,
        _ => EXIT_CONNECT,
    };
    match code {
        EXIT_INTERRUPTED => Failure {
            code,
            kind: "interrupted",
            ..Failure::connect(e.to_string())
        },
        _ => Failure::connect(e.to_string()),
    }
}

/// The remote target of login/logout: its name, URL, OAuth settings and transport.
fn remote_target(
    settings: &Settings,
    data: &DataDir,
) -> Result<(String, url::Url, Option<OAuthConfig>, OAuthProbeTransport), Failure> {
    let config = target::resolve(&settings.target, data)?;
    let (url, oauth, transport) = match &config.transport {
        ServerTransport::Http { url, oauth, .. } => (url, oauth, OAuthProbeTransport::Http),
        ServerTransport::Sse { url, oauth, .. } => (url, oauth, OAuthProbeTransport::Sse),
        ServerTransport::Stdio { .. } => {
            return Err(Failure::usage(format!(
                "`{}` is a stdio server; OAuth is for http/sse servers",
                config.name
            )));
        }
    };
    let url = url::Url::parse(url).map_err(|e| Failure::usage(format!("bad URL `{url}`: {e}")))?;
    Ok((config.name, url, oauth.clone(), transport))
}

async fn login(settings: &Settings, data: &DataDir) -> Result<(), Failure> {
    let (name, url, oauth, transport) = remote_target(settings, data)?;
    let Some(host) = crate::session::oauth::host(settings)? else {
        return Err(Failure::usage(
            "--oauth off: there is nothing to sign in with",
        ));
    };
    let log = printer(settings.json);
    let login = mcplab_oauth::login(&host, &name, &url, oauth.as_ref(), transport, &log);
    let creds = tokio::select! {
        creds = login => creds.map_err(flow_failure)?,
        _ = crate::session::wait_for_stop_signal() => return Err(Failure::silent(EXIT_INTERRUPTED)),
    };
    if !settings.json {
        let scope = creds.tokens.as_ref().and_then(|t| t.scope.clone());
        crate::output::outln!(
            "\nsigned in to {name} as client {} (scope {})",
            creds.client.client_id,
            scope.as_deref().unwrap_or("(none)")
        );
    }
    Ok(())
}

fn logout(settings: &Settings, data: &DataDir) -> Result<(), Failure> {
    let config = target::resolve(&settings.target, data)?;
    let removed = data
        .store()?
        .clear_oauth_credentials(&config.name)
        .map_err(|e| Failure::usage(e.to_string()))?;
    match removed {
        0 => crate::output::outln!("nothing was stored for {}", config.name),
        _ => crate::output::outln!(
            "signed out of {}: its tokens and client registration are forgotten",
            config.name
        ),
    }
    Ok(())
}

fn status(settings: &Settings, data: &DataDir) -> Result<(), Failure> {
    let store = data.store()?;
    let all = store
        .all_credentials()
        .map_err(|e| Failure::usage(e.to_string()))?;
    let views: Vec<OAuthStatusView> = all
        .into_iter()
        .map(|(server, c)| {
            let tokens = c.tokens.as_ref();
            OAuthStatusView {
                server,
                applicable: true,
                url: Some(c.server_url.clone()),
                signed_in: tokens.is_some(),
                access_token: tokens.map(|t| mask_secret(&t.access_token)),
                expires_at_ms: tokens.and_then(|t| t.expires_at_ms),
                has_refresh_token: tokens.is_some_and(|t| t.refresh_token.is_some()),
                scope: tokens.and_then(|t| t.scope.clone()),
                client_id: Some(c.client.client_id.clone()),
                registration: Some(c.client.method),
                issuer: c.issuer.clone(),
                pending_authorization_url: None,
                last_steps: Vec::new(),
            }
        })
        .collect();
    if settings.json {
        crate::output::outln!(
            "{}",
            serde_json::to_string_pretty(&views).unwrap_or_default()
        );
        return Ok(());
    }
    if views.is_empty() {
        crate::output::outln!("no sign-ins stored");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = views
        .iter()
        .map(|v| {
            let expires = match v.expires_at_ms {
                Some(at) if at <= mcplab_protocol::clock::now_ms() => "expired".to_string(),
                Some(at) => format!("in {} s", (at - mcplab_protocol::clock::now_ms()) / 1000),
                None => "-".into(),
            };
            vec![
                v.server.clone(),
                v.url.clone().unwrap_or_default(),
                v.client_id.clone().unwrap_or_default(),
                v.registration
                    .map(|r| r.as_str().to_string())
                    .unwrap_or_default(),
                v.access_token
                    .clone()
                    .unwrap_or_else(|| "(signed out)".into()),
                v.scope.clone().unwrap_or_default(),
                expires,
                if v.has_refresh_token { "yes" } else { "no" }.into(),
            ]
        })
        .collect();
    crate::output::out!(
        "{}",
        output::table(
            &[
                "server", "url", "client", "reg", "token", "scope", "expires", "refresh"
            ],
            &rows
        )
    );
    Ok(())
}
