//! The x-ray of model steps: capturing each HTTP exchange with the provider as it goes over
//! the wire ([`Relay`] in front of the provider library, recording into a [`Capture`]),
//! masking secrets as they are recorded, and a step's token accounting. What it records is
//! never rebuilt from our own request types: it is what the provider library actually sent.

mod capture;
mod relay;
mod tokens;

pub use capture::{Capture, ExchangeId, REQUEST_CAP, RESPONSE_CAP};
pub use mcplab_net::{mask_header, mask_url};
pub use relay::Relay;
pub use tokens::step_tokens;
