//! Merges the flags typed before a subcommand with the ones typed after it, so `mcplab --demo
//! tools list` and `mcplab tools list --demo` mean the same: a value given after the
//! subcommand wins, repeatable flags add up, switches are on when either side set them. Then
//! the conflicts clap checks within one side are checked across both. Every struct is
//! destructured whole, so a new flag cannot be forgotten here.

use crate::cli::connect::{ChromiumArg, ConnectArgs, OtlpArg, ServeArgs, TargetArgs};
use crate::cli::limits::LimitArgs;
use crate::cli::oauth::OAuthTargetArgs;
use crate::failure::Failure;

fn joined<T>(mut before: Vec<T>, after: Vec<T>) -> Vec<T> {
    before.extend(after);
    before
}

impl ConnectArgs {
    /// These flags (typed before the subcommand) with `after`'s (typed after it) on top.
    pub fn merged(self, after: ConnectArgs) -> ConnectArgs {
        let ConnectArgs {
            target,
            trace,
            quiet_stderr,
            timeout,
            elicitation,
            oauth,
            roots,
            log_level,
            limits,
        } = self;
        ConnectArgs {
            target: target.merged(after.target),
            trace: trace || after.trace,
            quiet_stderr: quiet_stderr || after.quiet_stderr,
            timeout: after.timeout.or(timeout),
            elicitation: after.elicitation.or(elicitation),
            oauth: after.oauth.or(oauth),
            roots: joined(roots, after.roots),
            log_level: after.log_level.or(log_level),
            limits: limits.merged(after.limits),
        }
    }
}

impl TargetArgs {
    fn merged(self, after: TargetArgs) -> TargetArgs {
        let TargetArgs {
            config,
            servers,
            demo,
            stdio,
            env,
            cwd,
            url,
            headers,
            bearer,
            transport,
            protocol,
            oauth,
        } = self;
        TargetArgs {
            config: after.config.or(config),
            servers: joined(servers, after.servers),
            demo: demo || after.demo,
            stdio: after.stdio.or(stdio),
            env: joined(env, after.env),
            cwd: after.cwd.or(cwd),
            url: after.url.or(url),
            headers: joined(headers, after.headers),
            bearer: after.bearer.or(bearer),
            transport: after.transport.or(transport),
            protocol: after.protocol.or(protocol),
            oauth: oauth.merged(after.oauth),
        }
    }

    /// The conflicts clap checks on one side of the subcommand, checked on the merged flags.
    pub fn check_conflicts(&self) -> Result<(), Failure> {
        let picked: Vec<&str> = [
            (!self.servers.is_empty(), "--server"),
            (self.demo, "--demo"),
            (self.stdio.is_some(), "--stdio"),
            (self.url.is_some(), "--url"),
        ]
        .into_iter()
        .filter_map(|(given, flag)| given.then_some(flag))
        .collect();
        if picked.len() > 1 {
            return Err(Failure::usage(format!(
                "{} cannot be used together: pick one target",
                picked.join(" and ")
            )));
        }
        if self.oauth.assertion.is_some() && self.oauth.assertion_file.is_some() {
            return Err(Failure::usage(
                "--oauth-assertion and --oauth-assertion-file cannot be used together",
            ));
        }
        Ok(())
    }
}

impl OAuthTargetArgs {
    fn merged(self, after: OAuthTargetArgs) -> OAuthTargetArgs {
        let OAuthTargetArgs {
            client_id,
            client_secret,
            cimd_url,
            scope,
            registration,
            revision,
            grant,
            private_key,
            idp_token_endpoint,
            idp_client_id,
            id_token,
            assertion,
            assertion_file,
        } = self;
        OAuthTargetArgs {
            client_id: after.client_id.or(client_id),
            client_secret: after.client_secret.or(client_secret),
            cimd_url: after.cimd_url.or(cimd_url),
            scope: after.scope.or(scope),
            registration: after.registration.or(registration),
            revision: after.revision.or(revision),
            grant: after.grant.or(grant),
            private_key: after.private_key.or(private_key),
            idp_token_endpoint: after.idp_token_endpoint.or(idp_token_endpoint),
            idp_client_id: after.idp_client_id.or(idp_client_id),
            id_token: after.id_token.or(id_token),
            assertion: after.assertion.or(assertion),
            assertion_file: after.assertion_file.or(assertion_file),
        }
    }
}

impl LimitArgs {
    fn merged(self, after: LimitArgs) -> LimitArgs {
        let LimitArgs {
            limits,
            connect_timeout,
            oauth_allow_private,
        } = self;
        LimitArgs {
            // Applied in order, so a limit typed after the subcommand wins.
            limits: joined(limits, after.limits),
            connect_timeout: after.connect_timeout.or(connect_timeout),
            oauth_allow_private: oauth_allow_private || after.oauth_allow_private,
        }
    }
}

impl ServeArgs {
    /// `mcplab --port 1 serve --no-open`: both sides, the later one winning.
    pub fn merged(self, after: ServeArgs) -> ServeArgs {
        let ServeArgs {
            port,
            no_open,
            host,
            chromium,
            otlp,
        } = self;
        ServeArgs {
            port: after.port.or(port),
            no_open: no_open || after.no_open,
            host: after.host.or(host),
            chromium: chromium.merged(after.chromium),
            otlp: OtlpArg {
                otlp: after.otlp.otlp.or(otlp.otlp),
            },
        }
    }
}

impl ChromiumArg {
    pub fn merged(self, after: ChromiumArg) -> ChromiumArg {
        ChromiumArg {
            chromium: after.chromium.or(self.chromium),
        }
    }
}
