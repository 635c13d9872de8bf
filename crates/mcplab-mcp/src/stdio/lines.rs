//! Newline-delimited reading with a byte bound, for a stdio server's stdout (frames) and stderr
//! (diagnostics), and the bounded stderr tail. A line is never held beyond its bound: a frame
//! over the message limit is reported as soon as it crosses it (so the request it answers fails
//! at once, not at its timeout) and the rest of it is skipped; a stderr line over its limit
//! keeps its start and says how much was dropped.

use std::collections::VecDeque;

use parking_lot::Mutex;
use tokio::io::AsyncBufReadExt;

use crate::limits::Size;

/// What reading one line produced.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A whole line (without its line ending); empty at the end of the stream.
    Whole(Vec<u8>),
    /// A line that crossed `max` bytes: its first `max` bytes, and how many bytes were read
    /// so far. The rest of it is skipped by the next read.
    Over { start: Vec<u8>, read: usize },
    /// The end of the stream.
    End,
}

/// Reads lines of at most `max` bytes from `reader`.
pub(crate) struct LineReader<R> {
    reader: R,
    max: usize,
    /// The previous line was over the limit: discard up to its newline first.
    skipping: bool,
}

impl<R: AsyncBufReadExt + Unpin> LineReader<R> {
    pub(crate) fn new(reader: R, max: usize) -> Self {
        Self {
            reader,
            max: max.max(1),
            skipping: false,
        }
    }

    /// The next line, or [`Line::Over`] as soon as a line crosses the limit.
    pub(crate) async fn next(&mut self) -> std::io::Result<Line> {
        if self.skipping && !self.skip_line().await? {
            return Ok(Line::End);
        }
        self.skipping = false;
        let mut buf = Vec::new();
        // Bytes of this line consumed so far, kept or not.
        let mut total = 0;
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(match buf.is_empty() {
                    true => Line::End,
                    false => Line::Whole(trim_newline(buf)),
                });
            }
            let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..=i], true),
                None => (available, false),
            };
            let n = chunk.len();
            let room = (self.max + 2).saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..n.min(room)]);
            total += n;
            self.reader.consume(n);
            if done {
                let ending = buf.len() - trim_newline_len(&buf);
                let line = trim_newline(buf);
                if line.len() <= self.max {
                    return Ok(Line::Whole(line));
                }
                return Ok(Line::Over {
                    start: cut(line, self.max),
                    read: total - ending,
                });
            }
            if buf.len() > self.max + 1 {
                // Over even if the next byte were the newline (the +1 leaves room for a CR).
                self.skipping = true;
                return Ok(Line::Over {
                    start: cut(buf, self.max),
                    read: total,
                });
            }
        }
    }

    /// Discards through the next newline; false at the end of the stream.
    async fn skip_line(&mut self) -> std::io::Result<bool> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(false);
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.reader.consume(i + 1);
                    return Ok(true);
                }
                None => {
                    let n = available.len();
                    self.reader.consume(n);
                }
            }
        }
    }

    /// Reads a line for display: at most `max` bytes kept, the rest of a longer line dropped
    /// and counted. `None` at the end of the stream.
    pub(crate) async fn next_shown(&mut self) -> std::io::Result<Option<(Vec<u8>, usize)>> {
        match self.next().await? {
            Line::End => Ok(None),
            Line::Whole(line) => Ok(Some((line, 0))),
            Line::Over { start, read } => {
                let mut total = read;
                if self.skipping {
                    total += self.skip_counting().await?;
                    self.skipping = false;
                }
                Ok(Some((start, total - self.max.min(total))))
            }
        }
    }

    /// Like [`Self::skip_line`], counting the bytes discarded (line ending excluded).
    async fn skip_counting(&mut self) -> std::io::Result<usize> {
        let mut skipped = 0;
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(skipped);
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let cr = usize::from(i > 0 && available[i - 1] == b'\r');
                    self.reader.consume(i + 1);
                    return Ok(skipped + i - cr);
                }
                None => {
                    let n = available.len();
                    skipped += n;
                    self.reader.consume(n);
                }
            }
        }
    }
}

fn cut(mut bytes: Vec<u8>, max: usize) -> Vec<u8> {
    bytes.truncate(max);
    bytes
}

fn trim_newline_len(buf: &[u8]) -> usize {
    let mut end = buf.len();
    while end > 0 && matches!(buf[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    end
}

fn trim_newline(mut buf: Vec<u8>) -> Vec<u8> {
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    buf
}

/// The last lines a server wrote to stderr, bounded in lines and in bytes.
pub struct StderrTail {
    lines: Mutex<(VecDeque<String>, usize)>,
    max_lines: usize,
    max_bytes: usize,
}

impl StderrTail {
    pub fn new(max_lines: usize, max_bytes: usize) -> Self {
        Self {
            lines: Mutex::new((VecDeque::new(), 0)),
            max_lines: max_lines.max(1),
            max_bytes,
        }
    }

    pub(crate) fn push(&self, line: String) {
        let mut guard = self.lines.lock();
        let (lines, bytes) = &mut *guard;
        *bytes += line.len();
        lines.push_back(line);
        while lines.len() > self.max_lines || (*bytes > self.max_bytes && lines.len() > 1) {
            if let Some(old) = lines.pop_front() {
                *bytes -= old.len();
            }
        }
    }

    /// The kept lines, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let guard = self.lines.lock();
        guard.0.iter().cloned().collect()
    }

    /// Bytes of text kept.
    pub fn bytes_held(&self) -> usize {
        self.lines.lock().1
    }
}

/// A stderr line as shown: its text, and a note of what was dropped from a long one.
pub(crate) fn shown_line(bytes: &[u8], dropped: usize, limit: usize) -> String {
    let mut text = String::from_utf8_lossy(bytes).into_owned();
    if dropped > 0 {
        text.push_str(&format!(
            " … [{dropped} more bytes dropped: stderr lines are kept up to {}, --limit stderr-line=SIZE]",
            Size(limit)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::BufReader;

    async fn all(data: &[u8], max: usize) -> Vec<Line> {
        let mut r = LineReader::new(BufReader::with_capacity(4, data), max);
        let mut out = Vec::new();
        loop {
            let line = r.next().await.unwrap();
            if line == Line::End {
                return out;
            }
            out.push(line);
        }
    }

    #[tokio::test]
    async fn splits_lines_and_keeps_last_unterminated() {
        let lines = all(b"{\"a\":1}\r\nnot json\n{\"b\":2}", 100).await;
        let texts: Vec<_> = lines
            .into_iter()
            .map(|l| match l {
                Line::Whole(b) => String::from_utf8(b).unwrap(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["{\"a\":1}", "not json", "{\"b\":2}"]);
    }

    #[tokio::test]
    async fn an_over_long_line_is_reported_early_and_skipped() {
        let lines = all(b"ok\n0123456789abcdef\nnext\n", 8).await;
        assert_eq!(lines[0], Line::Whole(b"ok".to_vec()));
        let Line::Over { start, read } = &lines[1] else {
            panic!("{:?}", lines[1]);
        };
        assert_eq!(start, b"01234567");
        assert!(
            *read > 8 && *read < 16,
            "reported before the line ended: {read}"
        );
        assert_eq!(lines[2], Line::Whole(b"next".to_vec()));
        assert_eq!(lines.len(), 3);
    }

    #[tokio::test]
    async fn an_endless_line_is_reported_without_its_end() {
        let endless = vec![b'x'; 10_000];
        let mut r = LineReader::new(BufReader::with_capacity(64, &endless[..]), 100);
        assert!(matches!(r.next().await.unwrap(), Line::Over { .. }));
        assert_eq!(r.next().await.unwrap(), Line::End);
    }

    #[tokio::test]
    async fn shown_lines_count_what_they_dropped() {
        let data = b"short\n0123456789\r\nlast";
        let mut r = LineReader::new(BufReader::with_capacity(3, &data[..]), 4);
        assert_eq!(r.next_shown().await.unwrap(), Some((b"shor".to_vec(), 1)));
        assert_eq!(r.next_shown().await.unwrap(), Some((b"0123".to_vec(), 6)));
        assert_eq!(r.next_shown().await.unwrap(), Some((b"last".to_vec(), 0)));
        assert_eq!(r.next_shown().await.unwrap(), None);
    }

    #[test]
    fn the_tail_is_bounded_in_bytes() {
        let tail = StderrTail::new(200, 100);
        for i in 0..50 {
            tail.push(format!("line {i:02} ........."));
        }
        assert!(tail.bytes_held() <= 100, "{}", tail.bytes_held());
        assert_eq!(tail.lines().last().unwrap(), "line 49 .........");
    }
}
