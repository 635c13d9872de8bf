use super::*;
use crate::session::host::{canonical_json, parse};
use mcplab_protocol::ProtocolChoice;

#[test]
fn builtin_profiles_load_and_document_every_changed_field() {
    let all = HostProfiles::builtin().unwrap();
    let names: Vec<_> = all.list().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["mcplab", "claude", "chatgpt", "vscode", "cursor", "goose"]
    );
    for p in all.list() {
        assert!(p.builtin && p.origin.is_none());
        assert!(
            !p.title.is_empty() && !p.description.is_empty(),
            "{}",
            p.name
        );
        let defaults = fields(&HostConfig::default());
        for (field, value) in fields(&p.host_config) {
            if defaults.get(&field) != Some(&value) {
                assert!(
                    matches!(p.sources.get(&field), Some(FieldSource::Documented(_))),
                    "{}: {field} differs without a source",
                    p.name
                );
            }
        }
    }
    assert_eq!(
        all.get("mcplab").unwrap().host_config,
        HostConfig::default()
    );
    let vscode = &all.get("vscode").unwrap().host_config;
    assert_eq!(vscode.tool_catalog.max_tools, Some(128));
    assert_eq!(vscode.client.protocol, ProtocolChoice::V2025_06_18);
    assert!(all.require("nope").unwrap_err().contains("claude, chatgpt"));
}

/// Pinned: each built-in profile's canonical hash. A change to a profile's values must raise
/// its `profileVersion` and update the hash here; a change of the canonical form changes them
/// all (see `host::tests::golden_hashes`). Claude's was checked with
/// `printf '%s' '<canonical>' | sha256sum`.
#[test]
fn builtin_profiles_round_trip_with_pinned_hashes() {
    let pinned = [
        (
            "mcplab",
            "10736823bb802470dd03cd17e4ab2f88014e07745b16d8d1d1dbc5ef4ae50cbf",
        ),
        (
            "claude",
            "d41c60b8fa8f96775565fcd9602a7d4a26eff262824ac1a1dee0b799c71cc48b",
        ),
        (
            "chatgpt",
            "eae56cb2e8ae8d555eb702f3ea4da82aeb49edd8de6190252e1ec5763f38539c",
        ),
        (
            "vscode",
            "68475d4fdbe2a816eb447838c450742c88da8db2f88b5831b67ac28e2325bc0b",
        ),
        (
            "cursor",
            "1a00918e54326a5cf6d136633e67a010bca324fb8e3d6e4516bf854fc418b737",
        ),
        (
            "goose",
            "fa56f2bd4958fbadda95711ac7f5c5a0007cd0a3fc516f0a6db774b7389eb2ec",
        ),
    ];
    let all = HostProfiles::builtin().unwrap();
    let got: Vec<_> = pinned
        .iter()
        .map(|(n, _)| (*n, all.get(n).unwrap().hash.as_str()))
        .collect();
    assert_eq!(got, pinned);
    for (name, _) in pinned {
        let p = all.get(name).unwrap();
        let canonical = canonical_json(&p.host_config);
        let back = parse(&canonical).unwrap();
        assert_eq!(canonical_json(&back), canonical, "{name} round-trips");
        assert_eq!(hash(&back), p.hash);
        // The exported file reads back as the same profile.
        let text = serde_json::to_string_pretty(&export(p)).unwrap();
        let again = parse_profile(&text, "export", true).unwrap();
        assert_eq!(again.hash, p.hash);
        assert_eq!(again.sources, p.sources);
    }
}

#[test]
fn new_sections_at_their_defaults_stay_out_of_the_canonical_form() {
    let old = r#"{"model":"openai::m","servers":{"demo":{}}}"#;
    let with_defaults = r#"{"model":"openai::m","servers":{"demo":{}},
        "client":{"protocol":"auto","sampling":true},"toolCatalog":{"maxTools":null},
        "toolResults":{"structuredContent":"whenNoText"}}"#;
    let (a, b) = (parse(old).unwrap(), parse(with_defaults).unwrap());
    assert_eq!(canonical_json(&a), canonical_json(&b));
    assert!(!canonical_json(&a).contains("client"));
    let mut c = a.clone();
    c.client.sampling = false;
    assert!(canonical_json(&c).contains(r#""client":{"elicitationForm":true"#));
    assert_ne!(hash(&c), hash(&a));
    assert!(
        parse("toolCatalog: {maxTools: 0}")
            .unwrap_err()
            .to_string()
            .contains("at least 1")
    );
}

#[test]
fn diff_lists_each_differing_field_with_its_sources() {
    let all = HostProfiles::builtin().unwrap();
    let (claude, chatgpt) = (all.get("claude").unwrap(), all.get("chatgpt").unwrap());
    let d = diff(claude, chatgpt);
    let fields: Vec<_> = d.iter().map(|f| f.field.as_str()).collect();
    assert!(
        fields.contains(&"toolResults.structuredContent"),
        "{fields:?}"
    );
    assert!(fields.contains(&"appHost.windowOpenai"));
    assert!(fields.contains(&"approval.mode"));
    assert!(
        !fields.contains(&"client.protocol"),
        "both ask for 2025-06-18"
    );
    let sc = d
        .iter()
        .find(|f| f.field == "toolResults.structuredContent")
        .unwrap();
    assert_eq!(
        (sc.a.as_str(), sc.b.as_str()),
        (Some("whenNoText"), Some("always"))
    );
    assert!(matches!(sc.source_a, Some(FieldSource::Unknown(_))));
    assert!(matches!(sc.source_b, Some(FieldSource::Documented(_))));
    // The MCP Apps host capabilities are fields like any other, each with its source.
    let dl = d
        .iter()
        .find(|f| f.field == "appHost.hostCapabilities.downloadFile")
        .expect("Claude offers downloads, ChatGPT does not");
    assert_eq!((dl.a.as_bool(), dl.b.as_bool()), (Some(true), Some(false)));
    assert!(matches!(dl.source_b, Some(FieldSource::Documented(_))));
    let vscode = all.get("vscode").unwrap();
    let from_mcplab = diff(all.get("mcplab").unwrap(), vscode);
    let message = from_mcplab
        .iter()
        .find(|f| f.field == "appHost.hostCapabilities.message")
        .expect("VS Code advertises no ui/message");
    assert_eq!(
        (&message.a, &message.b),
        (&serde_json::json!(["text"]), &Value::Null)
    );
    assert!(diff(claude, claude).is_empty());
}

#[test]
fn bad_profiles_name_the_file_line_and_fix() {
    let cases = [
        ("{\"name\": \"x\",\n \"stepLimt\": 3}", Some(2), "stepLimt"),
        ("{\"name\": \"x\",\n", None, "not valid JSON"),
        ("{\"title\": \"no name\"}", None, "`name` must be"),
        ("{\"name\": \"a b\"}", Some(1), "letters, digits"),
        (
            "{\"name\": \"x\",\n\"client\": {\"sampling\": false},\n\"sources\": {\"client.sampling\": \"unknown\"}}",
            Some(3),
            "a guess",
        ),
        (
            "{\"name\": \"x\",\n\"sources\": {\"client.nope\": \"unknown\"}}",
            None,
            "not a field",
        ),
        (
            "{\"name\": \"x\",\n\"sources\": {\"approval.mode\": {\"url\": \"https://x\", \"read\": \"yesterday\"}}}",
            Some(2),
            "YYYY-MM-DD",
        ),
    ];
    for (text, line, needle) in cases {
        let e = parse_profile(text, "mine.json", false).unwrap_err();
        assert!(e.to_string().contains(needle), "{text:?} → {e}");
        assert!(e.to_string().starts_with("mine.json"), "{e}");
        if line.is_some() {
            assert_eq!(e.line, line, "{text:?} → {e}");
        }
    }
    // A built-in (strict) profile must source what it changes; a user's need not.
    let unsourced = "{\"name\": \"x\", \"client\": {\"sampling\": false}}";
    assert!(parse_profile(unsourced, "mine.json", false).is_ok());
    let e = parse_profile(unsourced, "built-in", true).unwrap_err();
    assert!(e.to_string().contains("names no source"), "{e}");
}

#[test]
fn user_profiles_load_from_a_directory_and_may_not_take_a_builtin_name() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    assert_eq!(
        HostProfiles::load(Some(&hosts)).unwrap().list().len(),
        6,
        "no dir: built-ins"
    );
    std::fs::create_dir(&hosts).unwrap();
    std::fs::write(hosts.join("notes.txt"), "ignored").unwrap();
    std::fs::write(
        hosts.join("mine.json"),
        r#"{"name": "mine", "toolResults": {"structuredContent": "never"}}"#,
    )
    .unwrap();
    let all = HostProfiles::load(Some(&hosts)).unwrap();
    let mine = all.get("mine").unwrap();
    assert!(!mine.builtin);
    assert!(mine.origin.as_deref().unwrap().ends_with("mine.json"));
    assert!(all.skipped().is_empty());
    // N9 (security review 3): an unusable file is left out with why, and hides nothing else.
    std::fs::write(hosts.join("taken.json"), "{\n\"name\": \"claude\"\n}").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", hosts.join("passwd.json")).unwrap();
    let all = HostProfiles::load(Some(&hosts)).unwrap();
    assert!(all.get("mine").is_some() && all.list().len() == 7);
    let why: Vec<String> = all.skipped().iter().map(ToString::to_string).collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(
        why[0].contains("passwd.json:1") && why[0].contains("not valid JSON"),
        "{why:?}"
    );
    assert!(
        why[1].contains("taken.json:2") && why[1].contains("already taken"),
        "{why:?}"
    );
    assert!(
        !why[0].contains("root:"),
        "no file content is quoted: {why:?}"
    );
}

/// `tests/vectors/host_profiles.json`, which the web's `hostProfiles.test.ts` reads too.
#[test]
fn applying_a_profile_follows_the_shared_vectors() {
    let vectors: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/vectors/host_profiles.json")).unwrap();
    let config = |v: &serde_json::Value| -> HostConfig {
        let c: HostConfig = serde_json::from_value(v.clone()).unwrap();
        // Each config is written as the API sends it, so the web reads the same shape.
        assert_eq!(
            &serde_json::to_value(&c).unwrap(),
            v,
            "not in the API's form"
        );
        c
    };
    for case in vectors["cases"].as_array().unwrap() {
        let applied = apply_profile(&config(&case["base"]), &config(&case["profile"]));
        assert_eq!(
            serde_json::to_value(&applied).unwrap(),
            case["applied"],
            "{}",
            case["name"]
        );
    }
}
