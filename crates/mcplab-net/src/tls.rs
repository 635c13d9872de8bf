//! The one TLS choice of the process: rustls with the `ring` crypto provider, the same library
//! OAuth's PKCE, DPoP and hashes use, so one crypto library is linked (no aws-lc). reqwest is
//! built with `rustls-no-provider`, which makes every client ask rustls for the process's
//! default provider and panic when none is installed; so every HTTP client of mcplab — MCP
//! wires, OAuth, providers, the CLI, the tests — is made here, and this installs ring first.
//! `scripts/test.sh` refuses `reqwest::Client::new()`/`builder()` anywhere else.

/// Makes ring rustls's process default provider. Idempotent: a provider installed earlier (ring
/// again, the only one compiled in) is kept.
pub fn install_crypto_provider() {
    // `Err` only says a default is already installed, which is the state this wants.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// A reqwest client builder whose TLS is rustls with ring.
pub fn client_builder() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
}

/// A reqwest client with the default settings, as `reqwest::Client::new()` would be.
pub fn client() -> reqwest::Client {
    // Building without custom settings fails only if TLS cannot initialise (no root store at
    // all); reqwest's own `Client::new()` panics there too, and nothing can be fetched anyway.
    client_builder()
        .build()
        .expect("the TLS backend (rustls with ring) could not initialise")
}

/// A reqwest error with its causes, which carry the useful part ("connection refused"), and
/// whether it timed out — the one spelling of a failed request for every client made here.
pub fn describe_error(err: &reqwest::Error) -> String {
    let mut message = mcplab_protocol::error_chain::error_chain(err);
    if err.is_timeout() {
        message.push_str(" (timed out)");
    }
    message
}
