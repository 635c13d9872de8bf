//! What a render report says about the app: that it worked, or the first reason it did not
//! (the tool call failed, the app never initialized, it threw, the render page failed). Shared
//! by `mcplab apps render`'s exit code and anyone else that renders; it reads the report only.

use serde_json::Value;

/// Why the render counts as failed, or `None` when the app worked.
pub fn verdict(report: &Value) -> Option<String> {
    if let Some(e) = report["toolError"].as_str() {
        return Some(format!("the tool call failed: {e}"));
    }
    if report["toolResult"]["isError"] == true {
        return Some("the tool returned isError".into());
    }
    if report["initialized"] != true {
        let why = report["error"]
            .as_str()
            .unwrap_or("it never completed ui/initialize");
        return Some(format!("the app did not initialize: {why}"));
    }
    let errors = report["appErrors"].as_array().map_or(0, Vec::len);
    if errors > 0 {
        let first = report["appErrors"][0]["message"].as_str().unwrap_or("");
        let first = first.lines().next().unwrap_or("");
        return Some(format!("the app threw {errors} error(s); first: {first}"));
    }
    if let Some(e) = report["error"].as_str() {
        return Some(format!("the render failed: {e}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_verdict_fails_on_no_initialize_throws_and_tool_errors() {
        let ok = json!({"initialized": true, "error": null, "appErrors": [], "toolError": null,
                        "toolResult": {"content": []}});
        assert_eq!(verdict(&ok), None);
        let not_init = json!({"initialized": false, "error": "timed out after 5 s"});
        assert!(verdict(&not_init).unwrap().contains("timed out"));
        let threw =
            json!({"initialized": true, "appErrors": [{"kind": "error", "message": "boom"}]});
        assert!(verdict(&threw).unwrap().contains("boom"));
        let tool = json!({"initialized": true, "toolError": "nope"});
        assert!(verdict(&tool).unwrap().contains("nope"));
        let is_error = json!({"initialized": true, "toolResult": {"isError": true}});
        assert!(verdict(&is_error).is_some());
    }
}
