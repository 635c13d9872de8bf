//! Deflate for stored eval payloads (migration 10): an iteration's detail and each shared
//! payload (`eval_blobs`) are JSON text that deflates several times smaller, which also keeps a
//! typical iteration's row inside one SQLite page. They are written deflated into BLOB columns
//! beside the old TEXT ones; a row whose BLOB column is NULL is plain text, as every row written
//! before was. Inflating is bounded: a damaged file gives an error, never an unbounded allocation.
//! It must not interpret the text: JSON encoding and content addressing happen around it.

use std::io::{Read, Write};

use flate2::{Compression, read::DeflateDecoder, write::DeflateEncoder};

/// No stored payload inflates to more than this; anything larger is treated as damage.
const MAX_TEXT: u64 = 256 << 20;

/// `text` deflated; `None` if the encoder failed (the caller then keeps the text plain).
pub(crate) fn deflate(text: &str) -> Option<Vec<u8>> {
    let mut encoder =
        DeflateEncoder::new(Vec::with_capacity(text.len() / 3), Compression::default());
    encoder.write_all(text.as_bytes()).ok()?;
    encoder.finish().ok()
}

/// The text `bytes` deflates, or why it cannot be read back.
pub(crate) fn inflate(bytes: &[u8]) -> Result<String, String> {
    inflate_at_most(bytes, MAX_TEXT)
}

fn inflate_at_most(bytes: &[u8], limit: u64) -> Result<String, String> {
    let mut text = String::new();
    DeflateDecoder::new(bytes)
        .take(limit + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("its deflated data is damaged ({e})"))?;
    if text.len() as u64 > limit {
        return Err(format!("it inflates past {limit} bytes"));
    }
    Ok(text)
}

/// The stored text of a row: the BLOB column when set (deflated), else the plain TEXT one.
pub(crate) fn stored_text(
    what: &str,
    plain: Option<String>,
    deflated: Option<Vec<u8>>,
) -> Result<Option<String>, super::StoreError> {
    match deflated {
        Some(bytes) => inflate(&bytes)
            .map(Some)
            .map_err(|why| super::StoreError::Corrupt(format!("{what}: {why}"))),
        None => Ok(plain),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_comes_back_exactly_and_smaller() {
        let text = serde_json::json!({"turns": vec!["the same words again"; 200]}).to_string();
        let z = deflate(&text).unwrap();
        assert!(z.len() * 5 < text.len(), "{} of {}", z.len(), text.len());
        assert_eq!(inflate(&z).unwrap(), text);
    }

    #[test]
    fn damage_and_bombs_are_errors_not_allocations() {
        assert!(inflate(b"not deflate at all").is_err());
        let zeros = deflate(&"0".repeat(10_000)).unwrap();
        let err = inflate_at_most(&zeros, 1_000).unwrap_err();
        assert!(err.contains("past 1000 bytes"), "{err}");
        assert_eq!(inflate_at_most(&zeros, 10_000).unwrap().len(), 10_000);
    }

    #[test]
    fn a_row_without_deflated_data_is_its_plain_text() {
        assert_eq!(
            stored_text("x", Some("t".into()), None).unwrap().as_deref(),
            Some("t")
        );
        let z = deflate("u").unwrap();
        assert_eq!(
            stored_text("x", None, Some(z)).unwrap().as_deref(),
            Some("u")
        );
        assert!(
            stored_text("row 1", None, Some(vec![1, 2, 3]))
                .unwrap_err()
                .to_string()
                .contains("row 1")
        );
    }
}
