//! Loopback ports for tests that hand a port to a server they start (or to a client that must
//! find nothing there). A port taken with `bind(":0")` and released comes from the kernel's
//! ephemeral range, which every other listener bound to port 0 and every outgoing connection
//! draws from too: while a slow server (Python, a cold Node) starts, another test's server can
//! be given the same port, and the test then talks to the wrong server (seen in CI: a check
//! meant for the Python SDK server found a 17-tool server instead). `spare_port` picks a free
//! port *below* that range, which nothing is handed by the kernel.

use std::hash::{BuildHasher, RandomState};
use std::net::TcpListener;

/// The lowest port the picks start at: above the registered ports most services use.
const LOWEST: u16 = 20_000;

/// A loopback port that is free now and outside the kernel's ephemeral range, so no port-0
/// listener or outgoing connection is given it while the caller's server starts. Random, so
/// concurrent tests do not pick the same one.
pub fn spare_port() -> u16 {
    let highest = ephemeral_start().saturating_sub(1).max(LOWEST + 1_000);
    let span = u64::from(highest - LOWEST);
    let seed = RandomState::new();
    for attempt in 0u64..1_000 {
        let port = LOWEST + (seed.hash_one(attempt) % span) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port between {LOWEST} and {highest}");
}

/// The first port of the kernel's ephemeral range (Linux's default when it cannot be read).
fn ephemeral_start() -> u16 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(32_768)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spare_port_is_free_and_below_the_ephemeral_range() {
        let port = spare_port();
        assert!(port >= LOWEST && port < ephemeral_start(), "{port}");
        TcpListener::bind(("127.0.0.1", port)).expect("free");
    }
}
