//! Which host's declaration a server is connected with. The manager's options hold one
//! declaration for every server (a CLI session runs as one host); `mcplab serve` shares its
//! servers among sessions of different hosts, so a server can instead be connected "as" a
//! host profile, and keeps that declaration across reconnects until connected as another.
//! This module only names the choice; the manager stores it per server and the handshake
//! reads it.

use mcplab_protocol::host::ClientDeclaration;

/// A host profile's declaration, by the profile's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredAs {
    /// The host profile's name (`chatgpt`, a user profile's name …), for display.
    pub host: String,
    pub client: ClientDeclaration,
}

/// What a (re)connect does with the server's declaration.
pub(super) enum Declaration {
    /// Keep the one the server had (a plain connect or reconnect).
    Keep,
    /// Use this one from now on (`None`: the manager's own).
    Set(Option<DeclaredAs>),
}

impl Declaration {
    /// The declaration to connect with, given the server's previous one.
    pub(super) fn resolve(self, previous: Option<&Option<DeclaredAs>>) -> Option<DeclaredAs> {
        match self {
            Declaration::Keep => previous.cloned().flatten(),
            Declaration::Set(d) => d,
        }
    }
}
