//! `mcplab tap`: picks where the recording goes (a running inspector found through
//! `launch.json`, `--record FILE`, else a file in `<data dir>/taps/`), runs the stdio tap on
//! this process's own stdin/stdout or the HTTP tap on `--listen`, and ends as the server
//! ended. `tap replay` plays a recording against a server; `tap eval` and `tap baseline`
//! write what a recording becomes. The work is `mcplab-tap`'s; this
//! module only wires flags to it. Nothing but the server's bytes may reach stdout here.

use std::path::PathBuf;
use std::sync::Arc;

use mcplab_protocol::tap::{TAP_FORMAT, TapStart, TapTransport};
use mcplab_tap::recorder::{FileSink, LiveSink, LiveTarget, Notice, Recorder, Rotation, Sinks};
use mcplab_tap::stdio::{StdioCommand, StdioOptions, run_stdio};

use crate::cli::tap::{TapArgs, TapCmd, TapRun};
use crate::failure::Failure;
use crate::launch::Launch;
use crate::settings::Settings;

mod export;
pub mod hosts;
mod replay;

pub async fn run(args: TapArgs, settings: &Settings) -> Result<(), Failure> {
    match args.cmd {
        Some(TapCmd::Replay(a)) => replay::run(*a, settings).await,
        Some(TapCmd::Eval(a)) => export::eval(a),
        Some(TapCmd::Baseline(a)) => export::baseline(a),
        None => tap(args.run, settings).await,
    }
}

async fn tap(run: TapRun, settings: &Settings) -> Result<(), Failure> {
    if let Some(url) = &run.url {
        return http(url, &run, settings).await;
    }
    let Some((program, args)) = run.command.split_first() else {
        return Err(Failure::usage(
            "give the server's command after `--`, e.g. `mcplab tap -- node server.js`, or \
             --url URL --listen ADDR for a server reached by URL",
        ));
    };
    let command = StdioCommand {
        program: program.clone(),
        args: args.to_vec(),
    };
    let start = start(TapTransport::Stdio, command.display());
    let recorder = Recorder::start(start.clone(), sinks(&run, settings, &start).await);
    let options = StdioOptions {
        max_frame: run.max_frame,
        forward_signals: true,
        // `main` made this process a child subreaper; the server is its only child.
        sole_parent: true,
    };
    let exit = run_stdio(&command, host_stdin()?, host_stdout()?, &recorder, options).await;
    match exit {
        Ok(exit) => {
            recorder.finish(exit.describe()).await;
            match exit.reraise() {
                0 => Ok(()),
                code => Err(Failure::silent(code.clamp(1, 255) as u8)),
            }
        }
        Err(e) => {
            recorder.finish(e.to_string()).await;
            // As a shell says a command it cannot run: 127.
            let mut failure = Failure::usage(e.to_string());
            failure.code = 127;
            Err(failure)
        }
    }
}

/// `--url URL --listen ADDR`: the reverse proxy until Ctrl-C or SIGTERM.
async fn http(url: &str, run: &TapRun, settings: &Settings) -> Result<(), Failure> {
    let upstream = url::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| Failure::usage(format!("--url {url}: not an http(s) URL")))?;
    let Some(listen) = run.listen else {
        return Err(Failure::usage(
            "--url needs --listen ADDR, e.g. 127.0.0.1:7000",
        ));
    };
    let listener = mcplab_tap::http::bind(listen)
        .await
        .map_err(|e| Failure::usage(e.to_string()))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::usage(e.to_string()))?;
    let target = mcplab_net::mask_url(&upstream);
    let start = start(TapTransport::Http, target);
    let recorder = Recorder::start(start.clone(), sinks(run, settings, &start).await);
    eprintln!(
        "mcplab tap: give the host {} (Ctrl-C to stop)",
        mcplab_tap::http::host_url(bound, &upstream)
    );
    let cancel = tokio_util::sync::CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        stopped().await;
        stop.cancel();
    });
    let config = mcplab_tap::http::HttpTapConfig {
        upstream,
        max_body: run.max_frame.max(64 * 1024 * 1024),
        max_frame: run.max_frame,
    };
    let served = mcplab_tap::http::serve(listener, config, recorder.clone(), cancel).await;
    recorder.finish("stopped".into()).await;
    served.map_err(|e| Failure::usage(e.to_string()))
}

/// Ctrl-C or SIGTERM.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    let terminated = async {
        match term.as_mut() {
            Some(t) => {
                t.recv().await;
            }
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminated => {}
    }
}

/// The first line of the recording.
pub(super) fn start(transport: TapTransport, target: String) -> TapStart {
    TapStart {
        format: TAP_FORMAT,
        transport,
        target,
        pid: std::process::id(),
        started_ms: mcplab_protocol::clock::now_ms(),
    }
}

/// Lines for the person running the tap go to stderr (a host keeps a server's stderr as its
/// log).
fn notice() -> Notice {
    Arc::new(|line: &str| eprintln!("mcplab tap: {line}"))
}

/// Where the recording goes: the inspector when one runs (and `--no-live` was not given),
/// `--record FILE` when given, else a file of its own in `<data dir>/taps/`, which is also
/// where frames go if the inspector stops taking them.
pub(super) async fn sinks(run: &TapRun, settings: &Settings, start: &TapStart) -> Sinks {
    let notice = notice();
    let rotation = Rotation {
        max_bytes: run.record_max as u64,
        keep: run.record_keep,
    };
    let mut file = run.record.clone().map(|p| FileSink::new(p, rotation));
    let live = match run.no_live {
        true => None,
        false => live(settings, start, &notice).await,
    };
    let own = own_file(settings, start);
    let mut fallback = file.is_none().then(|| (own.clone(), rotation));
    if live.is_none() && file.is_none() {
        notice(&format!(
            "no inspector running (`mcplab serve`): recording to {}",
            own.display()
        ));
        file = Some(FileSink::new(own, rotation));
        fallback = None;
    }
    Sinks {
        file,
        live,
        fallback,
        notice,
    }
}

/// `<data dir>/taps/tap-<started ms>-<pid>.jsonl`.
fn own_file(settings: &Settings, start: &TapStart) -> PathBuf {
    settings
        .data
        .dir()
        .join("taps")
        .join(format!("tap-{}-{}.jsonl", start.started_ms, start.pid))
}

async fn live(settings: &Settings, start: &TapStart, notice: &Notice) -> Option<LiveSink> {
    let launch = Launch::read(&settings.data).ok()?;
    let target = LiveTarget {
        url: launch.url.clone(),
        secret: launch.secret,
    };
    match LiveSink::connect(target, start.clone()).await {
        Ok(sink) => {
            notice(&format!(
                "recording live in the inspector at {} ({})",
                launch.url,
                sink.id()
            ));
            Some(sink)
        }
        Err(e) => {
            notice(&format!(
                "the inspector at {} is not usable: {e}",
                launch.url
            ));
            None
        }
    }
}

/// This process's stdin as a plain file: read as it comes, no buffer of std's in between.
fn host_stdin() -> Result<std::fs::File, Failure> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned();
    fd.map(std::fs::File::from)
        .map_err(|e| Failure::usage(format!("cannot use stdin: {e}")))
}

/// This process's stdout as a plain file: each write goes out whole, unbuffered.
fn host_stdout() -> Result<std::fs::File, Failure> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout().as_fd().try_clone_to_owned();
    fd.map(std::fs::File::from)
        .map_err(|e| Failure::usage(format!("cannot use stdout: {e}")))
}
