//! The other configured servers' tools, for the security set's shadowing and name-collision
//! rules: when the checked server is a configured one (not an ad-hoc `--stdio`/`--url`),
//! every other server of the `--config` file (or, without one, of the stored servers) is
//! connected quietly — no stderr, no OAuth sign-in, no browser — its tools listed, and
//! closed. One that does not connect in time is left out.

use std::time::Duration;

use futures::future::join_all;
use mcplab_check::Peer;
use mcplab_protocol::ServerConfig;
use serde_json::Value;

use crate::cli::oauth::OAuthMode;
use crate::session::Session;
use crate::settings::Settings;
use crate::target;

/// Longest a peer may take to connect and list its tools.
const PEER_TIMEOUT: Duration = Duration::from_secs(15);
/// Most peers compared (a config of many servers should not make a check slow).
const MAX_PEERS: usize = 20;

pub async fn tools(settings: &Settings, checked: &ServerConfig) -> Vec<Peer> {
    if checked.name == target::AD_HOC_NAME {
        return Vec::new();
    }
    let Ok(all) = target::configured(&settings.target, &settings.data) else {
        return Vec::new();
    };
    let quiet = Settings {
        quiet_stderr: true,
        trace: false,
        oauth: Some(OAuthMode::Off),
        log_level: None,
        ..settings.clone()
    };
    let others = all
        .into_iter()
        .filter(|c| c.name != checked.name)
        .take(MAX_PEERS);
    let listed = others.map(|config| {
        let quiet = &quiet;
        async move {
            let name = config.name.clone();
            let tools = tokio::time::timeout(PEER_TIMEOUT, list(quiet, config))
                .await
                .ok()
                .flatten()?;
            Some(Peer {
                server: name,
                tools,
            })
        }
    });
    join_all(listed).await.into_iter().flatten().collect()
}

async fn list(settings: &Settings, config: ServerConfig) -> Option<Vec<String>> {
    let session = Session::open_all(settings, vec![config]).await.ok()?;
    let listed = session
        .request_with("tools/list", None, None, Some(PEER_TIMEOUT))
        .await;
    session.close().await;
    let names = listed
        .ok()?
        .get("tools")?
        .as_array()?
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect();
    Some(names)
}
