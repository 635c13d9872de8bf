#!/usr/bin/env bash
# The layering rules of ARCHITECTURE.md that a crate edge alone does not state: which crate may
# depend on rmcp, genai, rusqlite, a YAML engine and aws-lc, and that every HTTP client is made by
# mcplab_net::tls (reqwest is built with `rustls-no-provider`; a client made elsewhere can
# run before ring is installed and panic). Prints each violation; exits 1 if there is one.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0

only_in() { # DEPENDENCY ALLOWED_CRATE...: the dependency may appear only in these crates' manifests
  local dep=$1; shift
  local manifest crate
  for manifest in crates/*/Cargo.toml; do
    crate=$(basename "$(dirname "$manifest")")
    if grep -qE "^$dep( |\.|=)" "$manifest" && [[ ! " $* " == *" $crate "* ]]; then
      echo "layering: $manifest depends on $dep; only $* may (see ARCHITECTURE.md, Dependency rules)"
      status=1
    fi
  done
}
only_in rmcp mcplab-mcp mcplab-testkit
only_in genai mcplab-llm
only_in rusqlite mcplab-store
only_in rustls mcplab-net
only_in yaml-rust2 mcplab-yaml
for yaml in serde-saphyr marked-yaml serde_yaml serde_yml saphyr; do only_in "$yaml"; done

if grep -q 'name = "aws-lc-rs"' Cargo.lock; then
  echo "layering: Cargo.lock has aws-lc-rs; TLS is rustls with ring only (a dependency turned on reqwest's or rustls' default TLS features: see \`cargo tree -i aws-lc-rs -e features\`)"
  status=1
fi

clients=$(grep -rnE 'reqwest::(Client::(new|builder|default)\(|get\()' --include=*.rs crates \
  | grep -v '^crates/mcplab-net/src/tls.rs:')
if [ -n "$clients" ]; then
  echo "layering: make HTTP clients with mcplab_net::tls::client()/client_builder() (ring installed first):"
  echo "$clients"
  status=1
fi
exit $status
