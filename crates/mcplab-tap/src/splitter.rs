//! Cuts a copy of the bytes the stdio tap forwards into the frames it records: one frame per
//! newline-delimited line (the MCP stdio framing), without its `\n`. It sees the bytes only
//! after they were forwarded and never changes them. A line longer than the bound keeps its
//! first `max` bytes and its full length, so one endless line cannot grow memory; blank lines
//! are not frames.

/// A cut frame: its bytes, and its whole length when only its start was kept.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub bytes: Vec<u8>,
    pub full: Option<u64>,
}

/// Push-based line splitter with a byte bound per line.
pub(crate) struct Splitter {
    buf: Vec<u8>,
    max: usize,
    /// Bytes of the current line beyond the kept start.
    over: u64,
}

impl Splitter {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            buf: Vec::new(),
            max: max.max(1),
            over: 0,
        }
    }

    /// Feeds forwarded bytes; `out` gets every line they complete.
    pub(crate) fn feed(&mut self, mut chunk: &[u8], out: &mut impl FnMut(Piece)) {
        while let Some(at) = chunk.iter().position(|&b| b == b'\n') {
            self.keep(&chunk[..at]);
            self.cut(out);
            chunk = &chunk[at + 1..];
        }
        self.keep(chunk);
    }

    /// The end of the stream: a last line without its newline is a frame too.
    pub(crate) fn finish(&mut self, out: &mut impl FnMut(Piece)) {
        self.cut(out);
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = self.max.saturating_sub(self.buf.len()).min(bytes.len());
        self.buf.extend_from_slice(&bytes[..room]);
        self.over += (bytes.len() - room) as u64;
    }

    fn cut(&mut self, out: &mut impl FnMut(Piece)) {
        let over = std::mem::take(&mut self.over);
        let bytes = std::mem::take(&mut self.buf);
        if over == 0 && bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let full = (over > 0).then(|| bytes.len() as u64 + over);
        out(Piece { bytes, full });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(max: usize, chunks: &[&[u8]]) -> Vec<Piece> {
        let mut s = Splitter::new(max);
        let mut got = Vec::new();
        for c in chunks {
            s.feed(c, &mut |p| got.push(p));
        }
        s.finish(&mut |p| got.push(p));
        got
    }

    #[test]
    fn lines_across_chunks_and_a_last_line_without_newline() {
        let got = split(100, &[b"{\"a\":", b"1}\n{\"b\"", b":2}\n\n  \n{\"c\":3}"]);
        let texts: Vec<_> = got.iter().map(|p| p.bytes.as_slice()).collect();
        assert_eq!(
            texts,
            [&b"{\"a\":1}"[..], b"{\"b\":2}", b"{\"c\":3}"],
            "blank lines are not frames"
        );
        assert!(got.iter().all(|p| p.full.is_none()));
    }

    #[test]
    fn a_long_line_keeps_its_start_and_its_length() {
        let long = vec![b'x'; 1000];
        let got = split(10, &[&long[..400], &long[400..], b"\n{}\n"]);
        assert_eq!(got[0].bytes, vec![b'x'; 10]);
        assert_eq!(got[0].full, Some(1000));
        assert_eq!(
            got[1],
            Piece {
                bytes: b"{}".to_vec(),
                full: None
            }
        );
    }

    #[test]
    fn carriage_returns_are_kept_as_sent() {
        let got = split(100, &[b"{}\r\n"]);
        assert_eq!(got[0].bytes, b"{}\r");
    }
}
