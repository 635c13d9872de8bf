//! Invisible characters made visible, for excerpts people read: control characters,
//! zero-width and joiner characters, bidirectional controls, Unicode tag characters
//! (U+E0000–U+E007F, which can spell out hidden ASCII), variation selectors and the like
//! become `<U+XXXX>`. The security rules use [`is_invisible`] to find them.

/// Whether a character renders as nothing (or reorders text) in the places people read tool
/// metadata, but a model still reads it.
pub(crate) fn is_invisible(c: char) -> bool {
    let u = c as u32;
    matches!(u,
        0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1F | 0x7F..=0x9F // control characters
        | 0x00AD // soft hyphen
        | 0x034F // combining grapheme joiner
        | 0x061C // Arabic letter mark
        | 0x115F | 0x1160 | 0x3164 | 0xFFA0 // Hangul fillers
        | 0x17B4 | 0x17B5
        | 0x180B..=0x180F // Mongolian variation selectors and vowel separator
        | 0x200B..=0x200F // zero-width space, joiners, LRM, RLM
        | 0x202A..=0x202E // bidi embeddings and overrides
        | 0x2060..=0x206F // word joiner, invisible operators, bidi isolates, deprecated formats
        | 0xFE00..=0xFE0F // variation selectors
        | 0xFEFF // zero-width no-break space (BOM)
        | 0xFFF9..=0xFFFB // interlinear annotation
        | 0x1D173..=0x1D17A // musical formatting
        | 0xE0000..=0xE007F // tag characters
        | 0xE0100..=0xE01EF // variation selectors supplement
    )
}

/// Bidirectional controls (they reorder what people see).
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c as u32, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// Tag characters: invisible, and each one maps to an ASCII character (U+E0041 is `A`).
pub(crate) fn is_tag(c: char) -> bool {
    matches!(c as u32, 0xE0000..=0xE007F)
}

/// `text` with every invisible character written as `<U+XXXX>` (newlines and tabs kept).
pub(crate) fn visible(text: &str) -> String {
    if !text
        .chars()
        .any(|c| c != '\n' && c != '\t' && is_invisible(c))
    {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c != '\n' && c != '\t' && is_invisible(c) {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The ASCII text hidden in tag characters (`U+E0041 U+E0042` → `AB`), if any.
pub(crate) fn tag_text(text: &str) -> Option<String> {
    let hidden: String = text
        .chars()
        .filter(|c| is_tag(*c))
        .filter_map(|c| char::from_u32(c as u32 - 0xE0000))
        .filter(|c| c.is_ascii_graphic() || *c == ' ')
        .collect();
    (!hidden.is_empty()).then_some(hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_named() {
        assert_eq!(visible("a\u{200B}b"), "a<U+200B>b");
        assert_eq!(visible("x\u{202E}y\u{E0041}"), "x<U+202E>y<U+E0041>");
        assert_eq!(visible("line\nnext\tcol"), "line\nnext\tcol");
        assert_eq!(visible("naïve — ok"), "naïve — ok");
        assert_eq!(
            tag_text("hi\u{E0049}\u{E0020}\u{E0061}"),
            Some("I a".into())
        );
        assert_eq!(tag_text("plain"), None);
    }
}
