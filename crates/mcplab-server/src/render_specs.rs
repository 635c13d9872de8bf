//! Render specs waiting for their render page. A render (`POST /api/apps/render`, `mcplab apps
//! render`) registers what to render here and sends headless Chromium to `#/render/<id>`; the
//! page fetches the spec once (`GET /api/render-specs/{id}`). So a URL never carries what to
//! call: a deep link someone else wrote names no spec the server issued, and the page refuses
//! it. Ids are random, single use, and expire; the list is bounded.

use std::time::{Duration, Instant};

use mcplab_protocol::api::AppRenderSpec;
use parking_lot::{Mutex, MutexGuard};

/// How long a registered spec waits for its page.
pub(crate) const RENDER_SPEC_TTL: Duration = Duration::from_secs(120);
/// Specs waiting at most (renders run one at a time; this only bounds abandoned ones).
const MAX_WAITING: usize = 16;

struct Waiting {
    id: String,
    spec: AppRenderSpec,
    expires: Instant,
}

#[derive(Default)]
pub(crate) struct RenderSpecs {
    waiting: Mutex<Vec<Waiting>>,
}

impl RenderSpecs {
    fn waiting(&self) -> MutexGuard<'_, Vec<Waiting>> {
        let mut w = self.waiting.lock();
        let now = Instant::now();
        w.retain(|s| s.expires > now);
        w
    }

    /// Registers `spec` and returns its id (128 random bits, hex).
    pub(crate) fn register(&self, spec: AppRenderSpec) -> String {
        let mut bytes = [0u8; 16];
        rand::fill(&mut bytes);
        let id = hex::encode(bytes);
        let mut waiting = self.waiting();
        if waiting.len() >= MAX_WAITING {
            waiting.remove(0);
        }
        waiting.push(Waiting {
            id: id.clone(),
            spec,
            expires: Instant::now() + RENDER_SPEC_TTL,
        });
        id
    }

    /// The spec registered as `id`, once; `None` when unknown, taken or expired.
    pub(crate) fn take(&self, id: &str) -> Option<AppRenderSpec> {
        let mut waiting = self.waiting();
        let index = waiting.iter().position(|s| s.id == id)?;
        Some(waiting.remove(index).spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> AppRenderSpec {
        use mcplab_protocol::host_conditions::{HostConditions, Viewer};
        let desktop = HostConditions::for_app_host(&Default::default(), &Viewer::headless());
        AppRenderSpec::new("demo", "show_counter_app", serde_json::json!({}), desktop)
    }

    #[test]
    fn a_spec_is_taken_once_and_the_list_is_bounded() {
        let specs = RenderSpecs::default();
        let id = specs.register(spec());
        assert_eq!(specs.take(&id), Some(spec()));
        assert_eq!(specs.take(&id), None);
        assert_eq!(specs.take("nope"), None);
        let first = specs.register(spec());
        for _ in 0..MAX_WAITING {
            specs.register(spec());
        }
        assert_eq!(specs.take(&first), None, "the oldest was dropped");
    }
}
