//! Where OAuth may go for a remote server. A server that is not on loopback names its metadata
//! and endpoints itself, so without a guard it could make mcplab fetch (and POST to) addresses
//! inside the user's network: loopback services, the LAN, a cloud metadata endpoint (blind
//! SSRF). For such a server every URL the flow fetches or opens must be `https` and must not
//! resolve to a loopback, private, link-local or otherwise internal address, unless the user
//! allows it (`--oauth-allow-private`). Names are checked before the request and again by the
//! resolver the request uses, so a name cannot resolve one way for the check and another for
//! the connection. Servers on loopback (local development, tests) are not restricted.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

/// The fix every refusal names.
pub(crate) const HOW_TO_ALLOW: &str = "if this authorization server really is on your network, allow it with \
     --oauth-allow-private (or the `oauthAllowPrivate` setting) and reconnect";

/// The process's choices, shared by every clone of the OAuth HTTP client.
#[derive(Debug, Default)]
pub(crate) struct Policy {
    allow_private: AtomicBool,
    /// Test hook: treat servers on loopback as remote (every test server is on loopback).
    loopback_is_remote: AtomicBool,
}

impl Policy {
    pub(crate) fn set_allow_private(&self, allow: bool) {
        self.allow_private.store(allow, Ordering::Relaxed);
    }

    pub(crate) fn set_loopback_is_remote(&self, yes: bool) {
        self.loopback_is_remote.store(yes, Ordering::Relaxed);
    }

    /// Whether a flow for `server` is restricted.
    pub(crate) fn restricts(&self, server: &Url) -> bool {
        if self.allow_private.load(Ordering::Relaxed) {
            return false;
        }
        self.loopback_is_remote.load(Ordering::Relaxed) || !is_loopback_url(server)
    }
}

fn is_loopback_url(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        None => false,
    }
}

/// True for addresses on the public internet.
pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => public_v4(v4),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    let shared = a == 100 && (64..128).contains(&b); // 100.64.0.0/10, carrier-grade NAT
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || shared
        || a == 0)
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    let unique_local = first & 0xfe00 == 0xfc00; // fc00::/7
    let link_local = first & 0xffc0 == 0xfe80; // fe80::/10
    !(ip.is_loopback() || ip.is_unspecified() || ip.is_multicast() || unique_local || link_local)
}

/// Why `url` may not be fetched for a remote server, or `None` when it may.
pub(crate) async fn refusal(url: &Url) -> Option<String> {
    if url.scheme() != "https" {
        return Some(format!(
            "refused {url}: a remote server's OAuth endpoints must use https (this one is plain \
             {}, which anyone on the path can read)",
            url.scheme()
        ));
    }
    let port = url.port_or_known_default().unwrap_or(443);
    let addrs: Vec<IpAddr> = match url.host()? {
        Host::Ipv4(ip) => vec![IpAddr::V4(ip)],
        Host::Ipv6(ip) => vec![IpAddr::V6(ip)],
        Host::Domain(name) => match tokio::net::lookup_host((name, port)).await {
            Ok(found) => found.map(|a| a.ip()).collect(),
            // Not resolvable: the request fails on its own with the resolver's words.
            Err(_) => return None,
        },
    };
    let internal = addrs.into_iter().find(|ip| !is_public(*ip))?;
    Some(internal_refusal(
        url.host_str().unwrap_or_default(),
        internal,
    ))
}

fn internal_refusal(host: &str, ip: IpAddr) -> String {
    format!(
        "refused to contact {host} ({ip}): a remote server named an OAuth URL on a loopback, \
         private or link-local address, which could reach services inside your network"
    )
}

/// The resolver of restricted requests: names resolving to an internal address fail.
pub(crate) struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if let Some(internal) = found.iter().find(|a| !is_public(a.ip())) {
                let why = format!("{}; {HOW_TO_ALLOW}", internal_refusal(&host, internal.ip()));
                return Err(why.into());
            }
            let addrs: Addrs = Box::new(found.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_not_public() {
        for internal in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(!is_public(internal.parse().unwrap()), "{internal}");
        }
        for public in ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[tokio::test]
    async fn plain_http_and_internal_literals_are_refused() {
        let http = refusal(&Url::parse("http://auth.example.com/token").unwrap()).await;
        assert!(http.unwrap().contains("must use https"));
        let metadata = Url::parse("https://169.254.169.254/latest/meta-data/").unwrap();
        assert!(
            refusal(&metadata)
                .await
                .unwrap()
                .contains("169.254.169.254")
        );
        let public = Url::parse("https://93.184.216.34/.well-known/x").unwrap();
        assert_eq!(refusal(&public).await, None);
    }

    #[test]
    fn loopback_servers_are_not_restricted_unless_told() {
        let policy = Policy::default();
        let local = Url::parse("http://localhost:3000/mcp").unwrap();
        let remote = Url::parse("https://mcp.example.com/mcp").unwrap();
        assert!(!policy.restricts(&local));
        assert!(policy.restricts(&remote));
        policy.set_loopback_is_remote(true);
        assert!(policy.restricts(&local));
        policy.set_allow_private(true);
        assert!(!policy.restricts(&remote));
    }
}
