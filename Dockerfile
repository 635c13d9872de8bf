# mcplab in a container, for CI systems without a ready-made integration and for app renders
# (Debian's Chromium is included: `mcplab apps render`, `check --host`, eval app checks).
#
#   docker build -t mcplab .
#   docker run --rm -v "$PWD:/work" -w /work mcplab check --stdio "node server.js"
#   docker run --rm -p 127.0.0.1:6274:6274 mcplab serve --host 0.0.0.0 --no-open
#
# The first stage builds the web UI and the release binary from this checkout; the image holds
# only the binary, Chromium, Node and Python (to start the stdio servers being tested).

FROM rust:1-bookworm AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN npm ci --prefix web --no-audit --no-fund && (cd web && npm exec -- vite build)
RUN cargo build --release --locked -p mcplab --bin mcplab

FROM debian:bookworm-slim
RUN apt-get update -qq \
  && apt-get install -y -qq --no-install-recommends chromium nodejs npm python3 ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 mcplab
COPY --from=build /src/target/release/mcplab /usr/local/bin/mcplab
ENV MCPLAB_CHROMIUM=/usr/bin/chromium
USER mcplab
WORKDIR /home/mcplab
ENTRYPOINT ["/usr/bin/tini", "--", "mcplab"]
CMD ["--help"]
