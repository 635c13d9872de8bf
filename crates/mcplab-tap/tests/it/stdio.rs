//! The stdio tap's recording keeps cause before effect: a request the host sent is numbered
//! before the answer it caused, however fast the server answers (here `cat`, which answers
//! each line with itself at once).

use std::io::{BufRead, BufReader, Write};

use mcplab_protocol::Direction;
use mcplab_protocol::tap::{TapLine, TapStart, TapTransport};
use mcplab_tap::recorder::{FileSink, Recorder, Rotation, Sinks};
use mcplab_tap::stdio::{StdioCommand, StdioOptions, run_stdio};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_request_is_recorded_before_the_answer_it_caused() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("rec.jsonl");
    let start = TapStart {
        format: 1,
        transport: TapTransport::Stdio,
        target: "cat".into(),
        pid: 1,
        started_ms: 1,
    };
    let sinks = Sinks {
        file: Some(FileSink::new(record.clone(), Rotation::default())),
        live: None,
        fallback: None,
        notice: std::sync::Arc::new(|_: &str| {}),
    };
    let recorder = Recorder::start(start, sinks);
    let (tap_in, mut to_tap) = std::io::pipe().unwrap();
    let (from_tap, tap_out) = std::io::pipe().unwrap();
    let command = StdioCommand {
        program: "cat".into(),
        args: vec![],
    };
    let options = StdioOptions {
        max_frame: 1 << 20,
        forward_signals: false,
        sole_parent: false,
    };
    let rec = recorder.clone();
    let tap =
        tokio::spawn(async move { run_stdio(&command, tap_in, tap_out, &rec, options).await });
    const ROUNDS: usize = 300;
    let host = std::thread::spawn(move || {
        let mut answers = BufReader::new(from_tap);
        for i in 0..ROUNDS {
            writeln!(to_tap, r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#).unwrap();
            let mut line = String::new();
            answers.read_line(&mut line).unwrap();
        }
    });
    tokio::task::spawn_blocking(move || host.join().unwrap())
        .await
        .unwrap();
    tap.await.unwrap().unwrap();
    recorder.finish("done".into()).await;

    let text = std::fs::read_to_string(&record).unwrap();
    let mut frames: Vec<_> = text
        .lines()
        .filter_map(|l| match serde_json::from_str::<TapLine>(l) {
            Ok(TapLine::Frame(frame)) => Some(frame),
            _ => None,
        })
        .collect();
    frames.sort_by_key(|f| f.seq);
    let mut seen: std::collections::HashMap<String, u64> = Default::default();
    let mut out_of_order = Vec::new();
    for frame in frames {
        match frame.direction {
            Direction::Outbound => {
                seen.insert(frame.text.clone(), frame.seq);
            }
            Direction::Inbound if !seen.contains_key(&frame.text) => {
                out_of_order.push(frame.text.clone())
            }
            Direction::Inbound => {}
        }
    }
    assert_eq!(seen.len(), ROUNDS, "every request recorded");
    assert!(
        out_of_order.is_empty(),
        "answers numbered before their request: {out_of_order:?}"
    );
}
