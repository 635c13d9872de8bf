//! What every network-facing crate of mcplab shares, and nothing else: [`tls`] makes every
//! HTTP client of the process (rustls with ring, installed first), and [`mask_secret`],
//! [`mask_header`] and [`mask_url`] are how a key, token, cookie or URL password is shown — enough to tell
//! two apart, never enough to use one. The MCP wires, the provider x-ray, the OAuth flow, the
//! tap and the HTTP edge all use these, so none of them depends on another for it.

mod mask;
pub mod tls;

pub use mask::{
    MASKED_PASSWORD, is_secret_param, mask_header, mask_secret, mask_url, mask_url_text,
    mask_userinfo, restore_password, url_secrets,
};
