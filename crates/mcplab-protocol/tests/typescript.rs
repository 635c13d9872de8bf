//! The web UI's API types are generated from this crate. This test renders them and fails
//! when `web/src/api/types.gen.ts` is stale; run with `UPDATE_TS=1` to rewrite it.

use mcplab_protocol::api::*;
use mcplab_protocol::chat::*;
use mcplab_protocol::check::*;
use mcplab_protocol::evals::*;
use mcplab_protocol::host::*;
use mcplab_protocol::host_conditions::*;
use mcplab_protocol::host_profile::*;
use mcplab_protocol::oauth::*;
use mcplab_protocol::tap::*;
use mcplab_protocol::xray::*;
use mcplab_protocol::*;
use serde_json::json;
use ts_rs::{Config, TS};

fn render() -> String {
    // u64 values (sequence numbers, times, ids) stay well below 2^53 and travel as JSON numbers.
    let cfg = Config::default().with_large_int("number");
    let decls = [
        <serde_json::Value as TS>::decl(&cfg),
        ServerConfig::decl(&cfg),
        ProtocolChoice::decl(&cfg),
        Era::decl(&cfg),
        EraView::decl(&cfg),
        ProtocolSwitch::decl(&cfg),
        ConnectRequest::decl(&cfg),
        DraftCasesRequest::decl(&cfg),
        DraftedCases::decl(&cfg),
        TaskFlavor::decl(&cfg),
        TaskMode::decl(&cfg),
        TaskStatusEntry::decl(&cfg),
        TaskView::decl(&cfg),
        SkillFileView::decl(&cfg),
        SkillLoadView::decl(&cfg),
        ServerTransport::decl(&cfg),
        OAuthConfig::decl(&cfg),
        EnterpriseIdp::decl(&cfg),
        OAuthRevision::decl(&cfg),
        RegistrationMethod::decl(&cfg),
        OAuthGrant::decl(&cfg),
        OAuthParty::decl(&cfg),
        OAuthStepKind::decl(&cfg),
        OAuthPhase::decl(&cfg),
        OAuthHttpExchange::decl(&cfg),
        OAuthStep::decl(&cfg),
        OAuthProbeTransport::decl(&cfg),
        OAuthDebugRequest::decl(&cfg),
        OAuthDebugStarted::decl(&cfg),
        OAuthRunState::decl(&cfg),
        OAuthTokenSummary::decl(&cfg),
        OAuthFailure::decl(&cfg),
        OAuthDebugRun::decl(&cfg),
        OAuthDebugEvent::decl(&cfg),
        OAuthStatusView::decl(&cfg),
        OAuthAuthorizeRequest::decl(&cfg),
        OAuthAuthorizeResult::decl(&cfg),
        ServerStatus::decl(&cfg),
        HumanRequestKind::decl(&cfg),
        HumanRequest::decl(&cfg),
        HumanAnswer::decl(&cfg),
        HumanOutcome::decl(&cfg),
        ServerEvent::decl(&cfg),
        Direction::decl(&cfg),
        FrameKind::decl(&cfg),
        TrafficFrame::decl(&cfg),
        TrafficHttpExchange::decl(&cfg),
        RequestRef::decl(&cfg),
        RuleSet::decl(&cfg),
        Severity::decl(&cfg),
        Finding::decl(&cfg),
        RuleRef::decl(&cfg),
        EraCheck::decl(&cfg),
        mcplab_protocol::check::Verdict::decl(&cfg),
        HostReason::decl(&cfg),
        HostItemKind::decl(&cfg),
        HostItem::decl(&cfg),
        HostVerdict::decl(&cfg),
        CheckReport::decl(&cfg),
        ToolMarks::decl(&cfg),
        ToolFindings::decl(&cfg),
        Baseline::decl(&cfg),
        Surface::decl(&cfg),
        CheckCall::decl(&cfg),
        CheckRequest::decl(&cfg),
        CheckFuzz::decl(&cfg),
        CheckExport::decl(&cfg),
        CheckExportFormat::decl(&cfg),
        CheckExported::decl(&cfg),
        ServerView::decl(&cfg),
        ImportRequest::decl(&cfg),
        ServerOrder::decl(&cfg),
        ImportResult::decl(&cfg),
        ToolCallRequest::decl(&cfg),
        UriRequest::decl(&cfg),
        PromptGetRequest::decl(&cfg),
        CompleteRequest::decl(&cfg),
        CompleteArgument::decl(&cfg),
        LogLevelRequest::decl(&cfg),
        CallOutcome::decl(&cfg),
        ToolCallView::decl(&cfg),
        CallProgressView::decl(&cfg),
        CallErrorKind::decl(&cfg),
        CallError::decl(&cfg),
        TrafficSnapshotView::decl(&cfg),
        RootView::decl(&cfg),
        OtlpSettings::decl(&cfg),
        OtlpSettingsInput::decl(&cfg),
        HostEvent::decl(&cfg),
        AppResourceRequest::decl(&cfg),
        AppResourceKind::decl(&cfg),
        HostInfo::decl(&cfg),
        AppScenario::decl(&cfg),
        AppScenarioInput::decl(&cfg),
        Theme::decl(&cfg),
        Platform::decl(&cfg),
        SafeArea::decl(&cfg),
        HostConditions::decl(&cfg),
        DevicePreset::decl(&cfg),
        Viewer::decl(&cfg),
        AppRenderSpec::decl(&cfg),
        AppRenderResult::decl(&cfg),
        SessionRequest::decl(&cfg),
        SessionGranted::decl(&cfg),
        LoginCode::decl(&cfg),
        AppResourceView::decl(&cfg),
        AppUiKind::decl(&cfg),
        AppToolCallRequest::decl(&cfg),
        ApiError::decl(&cfg),
        TokenUsage::decl(&cfg),
        StopReason::decl(&cfg),
        HttpExchange::decl(&cfg),
        StepTokens::decl(&cfg),
        StepCost::decl(&cfg),
        SummaryCall::decl(&cfg),
        TurnSummary::decl(&cfg),
        StepXray::decl(&cfg),
        TurnFailureKind::decl(&cfg),
        TurnEvent::decl(&cfg),
        HostConfig::decl(&cfg),
        ServerTools::decl(&cfg),
        ApprovalMode::decl(&cfg),
        ApprovalPolicy::decl(&cfg),
        ElicitationMode::decl(&cfg),
        ElicitationPolicy::decl(&cfg),
        DeviceKind::decl(&cfg),
        ThemeChoice::decl(&cfg),
        DisplayMode::decl(&cfg),
        CspMode::decl(&cfg),
        AppHostProfile::decl(&cfg),
        AppHostCapabilities::decl(&cfg),
        ServerProxy::decl(&cfg),
        ContentModality::decl(&cfg),
        HostConfigText::decl(&cfg),
        HostConfigView::decl(&cfg),
        ClientDeclaration::decl(&cfg),
        ToolNaming::decl(&cfg),
        ToolCatalogPolicy::decl(&cfg),
        StructuredContentMode::decl(&cfg),
        ToolResultPolicy::decl(&cfg),
        FieldSource::decl(&cfg),
        UnknownSource::decl(&cfg),
        SourceRef::decl(&cfg),
        HostProfile::decl(&cfg),
        HostFieldDiff::decl(&cfg),
        HostProfileView::decl(&cfg),
        ChatSettings::decl(&cfg),
        ApprovalDecision::decl(&cfg),
        SessionSummary::decl(&cfg),
        StoredTurn::decl(&cfg),
        AppContextSource::decl(&cfg),
        AppContextInput::decl(&cfg),
        AppContextEntry::decl(&cfg),
        SessionView::decl(&cfg),
        CompareMember::decl(&cfg),
        NewCompare::decl(&cfg),
        CompareGroup::decl(&cfg),
        CompareExport::decl(&cfg),
        NewSession::decl(&cfg),
        SessionPatch::decl(&cfg),
        TurnRequest::decl(&cfg),
        SessionEvent::decl(&cfg),
        mcplab_protocol::provider::ProviderKind::decl(&cfg),
        ProviderView::decl(&cfg),
        ProviderInput::decl(&cfg),
        Unit::decl(&cfg),
        CaseInfo::decl(&cfg),
        Metrics::decl(&cfg),
        SideUsage::decl(&cfg),
        Outcome::decl(&cfg),
        IterationRecord::decl(&cfg),
        Shard::decl(&cfg),
        RunRecord::decl(&cfg),
        RunHeader::decl(&cfg),
        RunKind::decl(&cfg),
        Trace::decl(&cfg),
        TurnTrace::decl(&cfg),
        ToolCallTrace::decl(&cfg),
        TurnEnd::decl(&cfg),
        AppRender::decl(&cfg),
        CallView::decl(&cfg),
        Mismatch::decl(&cfg),
        CallDiff::decl(&cfg),
        CallMatch::decl(&cfg),
        CheckResult::decl(&cfg),
        Scoped::decl(&cfg),
        ScopedMatch::decl(&cfg),
        ScopedCheck::decl(&cfg),
        JudgeVerdict::decl(&cfg),
        JudgeOutcome::decl(&cfg),
        mcplab_protocol::evals::Verdict::decl(&cfg),
        Interval::decl(&cfg),
        Latency::decl(&cfg),
        CellSummary::decl(&cfg),
        RunSummary::decl(&cfg),
        Change::decl(&cfg),
        Significance::decl(&cfg),
        CellComparison::decl(&cfg),
        Comparison::decl(&cfg),
        RegressionMethod::decl(&cfg),
        Correction::decl(&cfg),
        RunDifference::decl(&cfg),
        GateStatus::decl(&cfg),
        GateResult::decl(&cfg),
        GateReport::decl(&cfg),
        TraceDifference::decl(&cfg),
        Progress::decl(&cfg),
        RunEvent::decl(&cfg),
        EvalStreamEvent::decl(&cfg),
        EvalFolder::decl(&cfg),
        EvalFolderInput::decl(&cfg),
        EvalPruneRequest::decl(&cfg),
        EvalPruneResult::decl(&cfg),
        DirListing::decl(&cfg),
        SuiteEntry::decl(&cfg),
        SuiteFile::decl(&cfg),
        SuiteInput::decl(&cfg),
        SuiteSaved::decl(&cfg),
        CaseInput::decl(&cfg),
        CaseAdded::decl(&cfg),
        EvalRunRequest::decl(&cfg),
        LaunchList::decl(&cfg),
        LaunchCheck::decl(&cfg),
        LaunchItem::decl(&cfg),
        LaunchKind::decl(&cfg),
        EvalRunStarted::decl(&cfg),
        EvalRunItem::decl(&cfg),
        EvalRunView::decl(&cfg),
        IterationTurn::decl(&cfg),
        IterationView::decl(&cfg),
        EvalCompareView::decl(&cfg),
        ModelPoint::decl(&cfg),
        TrendPoint::decl(&cfg),
        RunResult::decl(&cfg),
        TapTransport::decl(&cfg),
        TapStart::decl(&cfg),
        TapEnd::decl(&cfg),
        TapLine::decl(&cfg),
        TapRegistered::decl(&cfg),
        TapHost::decl(&cfg),
        TapSessionView::decl(&cfg),
        TapOpen::decl(&cfg),
        TapOpened::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from crates/mcplab-protocol by its `typescript` test. Do not edit:\n\
         // change the Rust types and run `UPDATE_TS=1 cargo test -p mcplab-protocol`.\n\n",
    );
    for d in decls {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    // Tables of values, not only shapes: the web reads the rule's data from here.
    let tables = [
        ("DEVICE_PRESETS: DevicePreset[]", json!(DEVICE_PRESETS)),
        (
            "DEFAULT_APP_HOST: AppHostProfile",
            json!(AppHostProfile::default()),
        ),
        (
            "MCPLAB_HOST_CAPABILITIES: AppHostCapabilities",
            json!(AppHostCapabilities::default()),
        ),
    ];
    for (name, value) in tables {
        out.push_str(&format!("export const {name} = {value};\n\n"));
    }
    out.trim_end().to_owned() + "\n"
}

#[test]
fn typescript_types_are_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/api/types.gen.ts"
    );
    let fresh = render();
    if std::env::var_os("UPDATE_TS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, &fresh).unwrap();
        return;
    }
    let current = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        current == fresh,
        "web/src/api/types.gen.ts is stale: run `UPDATE_TS=1 cargo test -p mcplab-protocol`"
    );
}

/// Names of the types in `src/` (and its folders) that derive `TS`: each `#[derive(...)]` naming `TS`, then the
/// `pub struct`/`pub enum` it is on.
fn ts_types_in_source() -> Vec<(String, String)> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut paths: Vec<std::path::PathBuf> = vec![src];
    while let Some(path) = paths.pop() {
        if path.is_dir() {
            paths.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let (mut derives_ts, mut derive) = (false, None::<String>);
        for line in text.lines().map(str::trim) {
            if line.starts_with("#[derive(") {
                derive = Some(String::new());
            }
            if let Some(d) = derive.as_mut() {
                d.push_str(line);
                if line.ends_with(")]") {
                    derives_ts = d
                        .trim_start_matches("#[derive(")
                        .split([',', ')'])
                        .any(|d| d.trim() == "TS" || d.trim() == "ts_rs::TS");
                    derive = None;
                }
            }
            let item = ["pub struct ", "pub enum "]
                .iter()
                .find_map(|kw| line.strip_prefix(kw));
            if let Some(rest) = item {
                if derives_ts {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.push((file.clone(), name));
                }
                derives_ts = false;
            }
        }
    }
    found
}

/// A type that derives `TS` but is missing from `render`'s list would be silently absent from
/// the web's types (until some other type named it); this fails instead.
#[test]
fn every_type_deriving_ts_is_rendered() {
    let rendered = render();
    let found = ts_types_in_source();
    assert!(found.len() > 50, "the scan found only {found:?}");
    let missing: Vec<_> = found
        .iter()
        .filter(|(_, name)| {
            !rendered.contains(&format!("export type {name} "))
                && !rendered.contains(&format!("export type {name}<"))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "add these to render() in tests/typescript.rs, then run `UPDATE_TS=1 cargo test -p mcplab-protocol`: {missing:?}"
    );
}
