//! The host conditions an app renders under (theme, locale, device, display modes, CSP mode…),
//! as the web's app host applies them, and the one rule that turns a HostConfig's app host
//! profile into them. The chat, the playground, `mcplab apps render` and eval renders all
//! start from [`HostConditions::for_app_host`]; the web's copy of the rule is pinned to it by
//! the shared vectors in `tests/vectors/host_conditions.json`, and the device presets reach the
//! web as the generated `DEVICE_PRESETS` table.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::host::{AppHostCapabilities, AppHostProfile, CspMode, DeviceKind, DisplayMode};

/// The theme an app is told of (a profile's `system` is resolved by the viewer first).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

/// `hostContext.platform` (MCP Apps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Platform {
    Web,
    Desktop,
    Mobile,
}

/// Safe-area insets in CSS pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SafeArea {
    pub top: u32,
    pub right: u32,
    pub bottom: u32,
    pub left: u32,
}

/// The host an app is shown in: mcplab's own defaults or an emulated one. The render page
/// and the web's app host read it; `ui/initialize`'s `hostContext` is built from it. Keys left
/// out of an input take [`Default`]'s values (mcplab's own host, headless, on a desktop).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct HostConditions {
    pub theme: Theme,
    /// BCP 47, e.g. `de-DE`.
    pub locale: String,
    /// IANA, e.g. `Europe/Berlin`.
    pub time_zone: String,
    pub platform: Platform,
    pub device_type: DeviceKind,
    pub hover: bool,
    pub touch: bool,
    pub safe_area: SafeArea,
    /// Inline frame height limit in px; absent: unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_height: Option<u32>,
    /// Fixed frame width in px (an emulated device); absent: the available width.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub width: Option<u32>,
    /// The modes the host offers.
    pub available_display_modes: Vec<DisplayMode>,
    /// The mode the host puts the app in (the app may ask for another); absent: inline.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub display_mode: Option<DisplayMode>,
    pub csp_mode: CspMode,
    /// Give MCP Apps the `window.openai` shim too.
    pub openai_shim: bool,
    /// Host style variables sent instead of mcplab's own (`--color-background-primary`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub style_overrides: Option<BTreeMap<String, String>>,
    /// What the host advertises in `ui/initialize`; absent: mcplab's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub host_capabilities: Option<AppHostCapabilities>,
}

impl Default for HostConditions {
    fn default() -> Self {
        Self::for_app_host(&AppHostProfile::default(), &Viewer::headless())
    }
}

/// An emulated device: its viewport and input capabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DevicePreset {
    pub kind: DeviceKind,
    pub platform: Platform,
    pub width: u32,
    pub height: u32,
    pub hover: bool,
    pub touch: bool,
}

/// Every device preset, in the order the UI offers them (the web reads this table as the
/// generated `DEVICE_PRESETS`).
pub const DEVICE_PRESETS: [DevicePreset; 3] = [
    DeviceKind::Mobile.preset(),
    DeviceKind::Tablet.preset(),
    DeviceKind::Desktop.preset(),
];

impl DeviceKind {
    /// The device's viewport and input capabilities (a common phone, tablet and laptop).
    pub const fn preset(self) -> DevicePreset {
        let (platform, width, height, touch) = match self {
            DeviceKind::Mobile => (Platform::Mobile, 430, 932, true),
            DeviceKind::Tablet => (Platform::Mobile, 820, 1180, true),
            DeviceKind::Desktop => (Platform::Web, 1280, 800, false),
        };
        DevicePreset {
            kind: self,
            platform,
            width,
            height,
            hover: !touch,
            touch,
        }
    }

    /// The name flags and files use (`mobile`, `tablet`, `desktop`).
    pub const fn as_str(self) -> &'static str {
        match self {
            DeviceKind::Mobile => "mobile",
            DeviceKind::Tablet => "tablet",
            DeviceKind::Desktop => "desktop",
        }
    }
}

impl DevicePreset {
    /// A named device (`mobile`, `tablet`, `desktop`, any case) or a desktop-like custom size
    /// `WIDTHxHEIGHT` (each 1…8192).
    pub fn parse(text: &str) -> Result<Self, DeviceParseError> {
        let text = text.trim().to_ascii_lowercase();
        let named = [DeviceKind::Mobile, DeviceKind::Tablet, DeviceKind::Desktop]
            .into_iter()
            .find(|k| k.as_str() == text);
        if let Some(kind) = named {
            return Ok(kind.preset());
        }
        let size = text.split_once('x').and_then(|(w, h)| {
            Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?))
        });
        match size {
            Some((width, height))
                if (1..=8192).contains(&width) && (1..=8192).contains(&height) =>
            {
                Ok(DevicePreset {
                    width,
                    height,
                    ..DeviceKind::Desktop.preset()
                })
            }
            _ => Err(DeviceParseError(text)),
        }
    }

    /// Portrait ↔ landscape.
    pub fn rotated(self) -> Self {
        Self {
            width: self.height,
            height: self.width,
            ..self
        }
    }
}

/// A device name [`DevicePreset::parse`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceParseError(String);

impl std::fmt::Display for DeviceParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "expected mobile, tablet, desktop or WIDTHxHEIGHT (each 1…8192), got `{}`",
            self.0
        )
    }
}

impl std::error::Error for DeviceParseError {}

/// What a profile leaves to the person looking: their theme, locale and time zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Viewer {
    pub theme: Theme,
    pub locale: String,
    pub time_zone: String,
}

impl Viewer {
    /// Nobody looking (headless renders): light, `en-US`, UTC.
    pub fn headless() -> Self {
        Self {
            theme: Theme::Light,
            locale: "en-US".into(),
            time_zone: "UTC".into(),
        }
    }
}

impl HostConditions {
    /// The conditions apps render under as `profile` describes, in its device's viewport;
    /// `viewer` supplies what the profile leaves open (`system` theme, no locale or zone).
    pub fn for_app_host(profile: &AppHostProfile, viewer: &Viewer) -> Self {
        use crate::host::ThemeChoice;
        let device = profile.device.preset();
        Self {
            theme: match profile.theme {
                ThemeChoice::Light => Theme::Light,
                ThemeChoice::Dark => Theme::Dark,
                ThemeChoice::System => viewer.theme,
            },
            locale: profile.locale.clone().unwrap_or(viewer.locale.clone()),
            time_zone: profile
                .time_zone
                .clone()
                .unwrap_or(viewer.time_zone.clone()),
            platform: device.platform,
            device_type: device.kind,
            hover: device.hover,
            touch: device.touch,
            safe_area: SafeArea::default(),
            max_height: Some(device.height),
            width: Some(device.width),
            available_display_modes: profile.display_modes.clone(),
            display_mode: None,
            csp_mode: profile.csp_mode,
            openai_shim: profile.window_openai,
            style_overrides: None,
            // Absent is mcplab's own, the default.
            host_capabilities: (!profile.host_capabilities.is_default())
                .then(|| profile.host_capabilities.clone()),
        }
    }

    /// The viewport of `device` (width and height limit, platform and input capabilities).
    pub fn with_device(self, device: DevicePreset) -> Self {
        Self {
            platform: device.platform,
            device_type: device.kind,
            hover: device.hover,
            touch: device.touch,
            max_height: Some(device.height),
            width: Some(device.width),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case of the vectors the web's tests read too.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Case {
        name: String,
        profile: AppHostProfile,
        viewer: Viewer,
        conditions: HostConditions,
    }

    #[test]
    fn the_shared_vectors_hold() {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../tests/vectors/host_conditions.json")).unwrap();
        assert!(cases.len() >= 3);
        for c in cases {
            let got = HostConditions::for_app_host(&c.profile, &c.viewer);
            assert_eq!(got, c.conditions, "{}", c.name);
        }
    }

    #[test]
    fn devices_parse_by_name_or_size() {
        let m = DevicePreset::parse("mobile").unwrap();
        assert_eq!(
            (m.width, m.height, m.touch, m.hover),
            (430, 932, true, false)
        );
        assert_eq!((m.kind, m.platform), (DeviceKind::Mobile, Platform::Mobile));
        let t = DevicePreset::parse("Tablet").unwrap().rotated();
        assert_eq!((t.width, t.height, t.kind), (1180, 820, DeviceKind::Tablet));
        let d = DevicePreset::parse("desktop").unwrap();
        assert_eq!(
            (d.width, d.height, d.hover, d.platform),
            (1280, 800, true, Platform::Web)
        );
        let c = DevicePreset::parse("640x480").unwrap();
        assert_eq!((c.width, c.height, c.kind), (640, 480, DeviceKind::Desktop));
        for bad in ["watch", "0x10", "10x", "x", "9000x10"] {
            let e = DevicePreset::parse(bad).unwrap_err();
            assert!(e.to_string().contains("WIDTHxHEIGHT"), "{bad}: {e}");
        }
    }

    #[test]
    fn keys_left_out_take_the_defaults() {
        let c: HostConditions = serde_json::from_str(r#"{"theme": "dark"}"#).unwrap();
        assert_eq!(c.theme, Theme::Dark);
        assert_eq!((c.width, c.locale.as_str()), (Some(1280), "en-US"));
    }

    #[test]
    fn presets_are_listed_once_each() {
        let kinds: Vec<_> = DEVICE_PRESETS.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [DeviceKind::Mobile, DeviceKind::Tablet, DeviceKind::Desktop]
        );
        assert!(DEVICE_PRESETS.iter().all(|p| p.hover != p.touch));
    }
}
