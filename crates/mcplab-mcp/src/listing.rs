//! The paginated list methods a client asks a server for, each with the result key its items
//! come under and, for the four of the base protocol, the `initialize` capability that
//! announces it. One place for the `("tools/list", "tools")` pairs; it knows nothing of how a
//! listing is fetched (`Connection::list_all`) or shown.

/// A paginated list method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Listing {
    Tools,
    Resources,
    ResourceTemplates,
    Prompts,
    /// 2025-11-25 `tasks/list`.
    Tasks,
    /// SEP-2640 `skills/list`.
    Skills,
}

impl Listing {
    /// The listings of the base protocol, each gated by a server capability.
    pub const STANDARD: [Listing; 4] = [
        Listing::Tools,
        Listing::Resources,
        Listing::ResourceTemplates,
        Listing::Prompts,
    ];

    /// The JSON-RPC method, e.g. `tools/list`.
    pub const fn method(self) -> &'static str {
        match self {
            Listing::Tools => "tools/list",
            Listing::Resources => "resources/list",
            Listing::ResourceTemplates => "resources/templates/list",
            Listing::Prompts => "prompts/list",
            Listing::Tasks => "tasks/list",
            Listing::Skills => "skills/list",
        }
    }

    /// The result key holding the items, e.g. `tools`.
    pub const fn key(self) -> &'static str {
        match self {
            Listing::Tools => "tools",
            Listing::Resources => "resources",
            Listing::ResourceTemplates => "resourceTemplates",
            Listing::Prompts => "prompts",
            Listing::Tasks => "tasks",
            Listing::Skills => "skills",
        }
    }

    /// The `initialize` capability a server declares it under (`tools`, `resources`,
    /// `prompts`); `None` for tasks and skills, whose support is declared inside a capability
    /// (`tasks.list`) or an extension.
    pub const fn capability(self) -> Option<&'static str> {
        match self {
            Listing::Tools => Some("tools"),
            Listing::Resources | Listing::ResourceTemplates => Some("resources"),
            Listing::Prompts => Some("prompts"),
            Listing::Tasks | Listing::Skills => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_standard_listing_is_its_capabilitys_list_method() {
        for listing in Listing::STANDARD {
            let capability = listing.capability().unwrap();
            assert!(
                listing.method().starts_with(&format!("{capability}/")),
                "{listing:?}"
            );
            assert!(listing.method().ends_with("/list"), "{listing:?}");
        }
        assert_eq!(Listing::ResourceTemplates.key(), "resourceTemplates");
    }
}
