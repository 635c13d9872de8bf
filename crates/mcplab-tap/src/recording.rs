//! Reading a recording back: the JSON Lines a tap writes (`start`, `frame`…, `end`; several
//! files of a rotation put together read as one), or the JSON array of frames the traffic
//! panel exports. A line that does not read is an error naming its line, except a cut last
//! line (a tap stopped mid-write), which is left out with a warning. Frames are grouped into
//! host sessions by their `server` field. It reads; replaying and ingesting are elsewhere.

use mcplab_protocol::TrafficFrame;
use mcplab_protocol::tap::{TapEnd, TapLine, TapStart};

/// A recording as read.
#[derive(Debug, Default)]
pub struct Recording {
    pub start: Option<TapStart>,
    pub frames: Vec<TrafficFrame>,
    pub end: Option<TapEnd>,
    /// What was left out, one line each.
    pub warnings: Vec<String>,
}

/// What is wrong with a recording.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("{source_name}:{line}: {message}")]
    Invalid {
        source_name: String,
        line: usize,
        message: String,
    },
    #[error(
        "{0} holds no frames (a recording is what `mcplab tap --record FILE` writes, or the \
         traffic panel's export)"
    )]
    Empty(String),
}

/// Reads `text` (the contents of `source_name`).
pub fn parse(text: &str, source_name: &str) -> Result<Recording, RecordingError> {
    let mut recording = match text.trim_start().starts_with('[') {
        true => exported(text, source_name)?,
        false => lines(text, source_name)?,
    };
    if recording.frames.is_empty() {
        return Err(RecordingError::Empty(source_name.to_owned()));
    }
    recording.frames.sort_by_key(|f| f.seq);
    Ok(recording)
}

fn lines(text: &str, source_name: &str) -> Result<Recording, RecordingError> {
    let mut out = Recording::default();
    let all: Vec<&str> = text.lines().collect();
    for (i, line) in all.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<TapLine>(line) {
            Ok(TapLine::Start(s)) => {
                out.start.get_or_insert(s);
            }
            Ok(TapLine::Frame(f)) => out.frames.push(*f),
            Ok(TapLine::End(e)) => out.end = Some(e),
            Err(e) if i + 1 == all.len() && e.is_eof() => out.warnings.push(format!(
                "{source_name}:{}: the last line is cut short (the tap stopped while writing \
                 it); left out",
                i + 1
            )),
            Err(e) => {
                return Err(RecordingError::Invalid {
                    source_name: source_name.to_owned(),
                    line: i + 1,
                    message: e.to_string(),
                });
            }
        }
    }
    Ok(out)
}

fn exported(text: &str, source_name: &str) -> Result<Recording, RecordingError> {
    let frames: Vec<TrafficFrame> =
        serde_json::from_str(text).map_err(|e| RecordingError::Invalid {
            source_name: source_name.to_owned(),
            line: e.line(),
            message: e.to_string(),
        })?;
    Ok(Recording {
        frames,
        ..Recording::default()
    })
}

impl Recording {
    /// The host sessions, in the order they first appear, each with its frames in order.
    pub fn sessions(&self) -> Vec<(&str, Vec<&TrafficFrame>)> {
        let mut out: Vec<(&str, Vec<&TrafficFrame>)> = Vec::new();
        for frame in &self.frames {
            match out.iter_mut().find(|(s, _)| *s == frame.server) {
                Some((_, frames)) => frames.push(frame),
                None => out.push((&frame.server, vec![frame])),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REC: &str = r#"{"type":"start","format":1,"transport":"http","target":"http://x/mcp","pid":1,"startedMs":5}
{"type":"frame","seq":1,"server":"s1","tsMs":6,"direction":"outbound","kind":"message","text":"{}"}
{"type":"frame","seq":2,"server":"s2","tsMs":7,"direction":"outbound","kind":"message","text":"{}"}
{"type":"frame","seq":3,"server":"s1","tsMs":8,"direction":"inbound","kind":"message","text":"{}"}
{"type":"end","endedMs":9,"how":"stopped","dropped":0}
{"type":"frame","seq":4,"server":"s1","#;

    #[test]
    fn sessions_in_order_and_a_cut_last_line_is_left_out() {
        let r = parse(REC, "rec.jsonl").unwrap();
        assert_eq!(r.start.as_ref().unwrap().target, "http://x/mcp");
        assert_eq!(r.frames.len(), 3);
        assert!(r.warnings[0].contains("rec.jsonl:6"), "{:?}", r.warnings);
        let sessions = r.sessions();
        let names: Vec<_> = sessions.iter().map(|(s, f)| (*s, f.len())).collect();
        assert_eq!(names, [("s1", 2), ("s2", 1)]);
    }

    #[test]
    fn a_bad_line_is_named_and_an_empty_file_says_what_a_recording_is() {
        let bad = "{\"type\":\"start\"}\nnot json\n";
        let err = parse(bad, "r.jsonl").unwrap_err().to_string();
        assert!(err.starts_with("r.jsonl:1:"), "{err}");
        let err = parse("", "r.jsonl").unwrap_err().to_string();
        assert!(err.contains("holds no frames"), "{err}");
    }

    #[test]
    fn the_traffic_panels_export_reads_too() {
        let text = r#"[{"seq":3,"server":"demo","tsMs":1,"direction":"inbound","kind":"message","text":"{}"},
{"seq":2,"server":"demo","tsMs":1,"direction":"outbound","kind":"message","text":"{}"}]"#;
        let r = parse(text, "export.json").unwrap();
        assert_eq!(r.frames[0].seq, 2);
    }
}
