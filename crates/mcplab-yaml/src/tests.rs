use serde_json::json;

use super::*;

const LIMITS: Limits = Limits {
    max_depth: 32,
    max_nodes: 1000,
};

#[test]
fn core_schema_scalars() {
    let (v, _) = parse(
        "a: 1\nb: -2\nc: 2.5\nd: 1e3\ne: true\nf: ~\ng: '1'\nh: \"true\"\ni: hello\nj: 0x1f\nk:\n",
        LIMITS,
    )
    .unwrap();
    assert_eq!(
        v,
        json!({"a": 1, "b": -2, "c": 2.5, "d": 1000.0, "e": true, "f": null, "g": "1",
               "h": "true", "i": "hello", "j": 31, "k": null})
    );
}

#[test]
fn json_text_and_any_top_level_are_accepted() {
    let (v, _) = parse(r#"{"a": [1, "x", {"b": false}]}"#, LIMITS).unwrap();
    assert_eq!(v, json!({"a": [1, "x", {"b": false}]}));
    assert_eq!(parse("- 1\n- [2]\n", LIMITS).unwrap().0, json!([1, [2]]));
    assert_eq!(parse("plain\n", LIMITS).unwrap().0, json!("plain"));
}

#[test]
fn positions_of_keys_and_values() {
    let (_, pos) = parse("a:\n  b: [1, 2]\n  c: x\n", LIMITS).unwrap();
    assert_eq!(pos.key("/a/c"), Some(Position { line: 3, column: 3 }));
    assert_eq!(pos.value("/a/c"), Some(Position { line: 3, column: 6 }));
    assert_eq!(
        pos.value("/a/b/1"),
        Some(Position {
            line: 2,
            column: 10
        })
    );
    // A mapping is where its first key is; a missing child falls back to its parent.
    assert_eq!(pos.value("/a"), Some(Position { line: 2, column: 3 }));
    assert_eq!(pos.value("/a/zzz"), pos.value("/a"));
}

#[test]
fn refusals_name_the_line() {
    let dup = parse("a: 1\nb: 2\na: 3\n", LIMITS).unwrap_err();
    assert_eq!(dup.position.map(|p| p.line), Some(3));
    assert!(
        dup.message.contains("duplicate key `a` (first at line 1)"),
        "{dup}"
    );
    let nested = parse("x:\n  a: {b: 1, b: 2}\n", LIMITS).unwrap_err();
    assert!(nested.message.contains("duplicate key `b`"), "{nested}");
    for text in ["a: &x 1\nb: *x\n", "a: &x [1]\n"] {
        let e = parse(text, LIMITS).unwrap_err();
        assert!(e.message.contains("anchors"), "{text:?}: {e}");
    }
    let tag = parse("a: !!str 1\n", LIMITS).unwrap_err();
    assert!(tag.message.contains("tags"), "{tag}");
    let key = parse("? [a]\n: 1\n", LIMITS).unwrap_err();
    assert!(key.message.contains("plain strings"), "{key}");
    let bad = parse("a: [1,\n", LIMITS).unwrap_err();
    assert!(bad.message.starts_with("not valid YAML"), "{bad}");
    assert_eq!(bad.kind, ErrorKind::Syntax);
    let inf = parse("a: .inf\n", LIMITS).unwrap_err();
    assert_eq!(inf.position.map(|p| p.line), Some(1));
}

#[test]
fn exactly_one_document() {
    let two = parse("a: 1\n---\nb: 2\n---\nc: 3\n", LIMITS).unwrap_err();
    assert_eq!(two.kind, ErrorKind::SeveralDocuments(3));
    assert_eq!(two.position.map(|p| p.line), Some(2));
    // A broken second document is a syntax error, not a silently ignored tail.
    let broken = parse("a: 1\n---\nb: [\n", LIMITS).unwrap_err();
    assert_eq!(broken.kind, ErrorKind::Syntax);
    for empty in ["", "# nothing\n", "  \n"] {
        assert_eq!(parse(empty, LIMITS).unwrap_err().kind, ErrorKind::Empty);
    }
}

#[test]
fn depth_and_size_are_bounded_while_parsing() {
    let deep = format!("a: {}1{}\n", "[".repeat(40), "]".repeat(40));
    assert!(
        parse(&deep, LIMITS)
            .unwrap_err()
            .message
            .contains("deeper than 32")
    );
    let wide = format!("a: [{}]\n", vec!["1"; 2000].join(","));
    assert!(
        parse(&wide, LIMITS)
            .unwrap_err()
            .message
            .contains("more than 1000")
    );
    // Flow nesting is stopped by the scanner's own recursion guard (it looks ahead past our
    // limit before the parser emits the events).
    let bomb = format!("a: {}\n", "[".repeat(200_000));
    let e = parse(&bomb, LIMITS).unwrap_err();
    assert_eq!(e.position.map(|p| p.line), Some(1), "{e}");
    let block = format!(
        "a:\n{}",
        (1..40)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect::<String>()
    );
    assert!(
        parse(&block, LIMITS)
            .unwrap_err()
            .message
            .contains("deeper")
    );
}

#[test]
fn typed_errors_name_the_key() {
    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        n: u32,
    }
    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        name: String,
        inner: Vec<Inner>,
    }
    let ok: Outer = from_str("name: x\ninner: [{n: 1}]\n", LIMITS).unwrap();
    assert_eq!(ok.inner.len(), 1);
    let e = from_str::<Outer>("name: x\ninner:\n  - n: 1\n  - n: -4\n", LIMITS).unwrap_err();
    assert_eq!(
        (e.kind, e.position.map(|p| p.line)),
        (ErrorKind::Shape, Some(4))
    );
    let e = from_str::<Outer>("name: x\ninner: []\nnmae: y\n", LIMITS).unwrap_err();
    assert!(e.message.contains("nmae"), "{e}");
    assert_eq!(e.position.map(|p| p.line), Some(3), "{e}");
    assert!(e.to_string().starts_with("line 3, column 1: "), "{e}");
}

#[test]
fn what_is_written_reads_back() {
    let v = json!({"id": "s", "n": 2, "x": 1.5, "t": true, "none": null,
                   "text": "two\nlines", "list": [{"a": "1"}, "yes"]});
    let (back, _) = parse(&to_yaml(&v), LIMITS).unwrap();
    assert_eq!(back, v);
}
