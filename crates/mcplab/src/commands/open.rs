//! `mcplab open`: opens the running inspector (found through the data directory's
//! `launch.json`) in the browser with a fresh one-time login code, minted by the server
//! (`POST /api/login-codes` with the launch secret). The code reaches the browser through the
//! 0600 redirect file, never a command line; `--print` only prints the URL.

use std::time::Duration;

use mcplab_protocol::api::LoginCode;

use crate::failure::Failure;
use crate::launch::{Launch, open_browser};
use crate::settings::DataDir;

pub async fn run(data: &DataDir, print_only: bool) -> Result<(), Failure> {
    let launch = Launch::read(data)?;
    let unreachable = |why: String| {
        Failure::connect(format!(
            "cannot reach mcplab at {} ({why}); is it still running? Start it with `mcplab serve`",
            launch.url
        ))
    };
    let response = launch
        .client(Duration::from_secs(10))?
        .post(format!("{}/api/login-codes", launch.url))
        .send()
        .await
        .map_err(|e| unreachable(e.to_string()))?;
    if response.status() == reqwest::StatusCode::UNAUTHORIZED {
        return Err(Failure::connect(format!(
            "the mcplab at {} did not accept the launch secret in launch.json (another \
             program took its port after it stopped?); restart mcplab",
            launch.url
        )));
    }
    if !response.status().is_success() {
        return Err(unreachable(format!("HTTP {}", response.status())));
    }
    let code: LoginCode = response
        .json()
        .await
        .map_err(|e| unreachable(format!("an unreadable answer: {e}")))?;
    crate::output::outln!("open {}", code.url);
    crate::output::outln!(
        "  (valid once, for {} minutes)",
        code.expires_in_secs.div_ceil(60)
    );
    if !print_only {
        open_browser(data, &code.url)?;
    }
    Ok(())
}
