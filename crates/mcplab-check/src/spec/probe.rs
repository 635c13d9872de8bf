//! The spec set's exercise: drives a connected server the way a careful client would — ping,
//! every listing it declares (page by page, watching the cursors, never from the 2026-07-28
//! cache), the listings it does not declare (a server that answers them should say so),
//! `logging/setLevel` when it declares logging, and the tools the user named — and writes
//! what it observed into the recording. It judges nothing and never calls a tool it was not
//! asked to: tools may have side effects.

use std::collections::HashSet;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_mcp::{Connection, Listing, RequestOptions};
use serde_json::{Value, json};

use super::stray;
use crate::options::CheckOptions;
use crate::recording::{CallRun, Listed, ListingRun, ProbeError, Recording};
use crate::sets::Exercise;

/// Pages a listing may take before the checker calls it endless.
const MAX_PAGES: usize = 100;

pub(super) struct Probe;

impl Exercise for Probe {
    fn exercise<'a>(
        &'a self,
        conn: &'a Connection,
        rec: &'a mut Recording,
        opts: &'a CheckOptions,
    ) -> BoxFuture<'a, ()> {
        probe(conn, rec, opts).boxed()
    }
}

fn request_options(opts: &CheckOptions) -> RequestOptions {
    RequestOptions {
        timeout: opts.timeout,
        bypass_cache: true,
        ..RequestOptions::default()
    }
}

async fn probe(conn: &Connection, rec: &mut Recording, opts: &CheckOptions) {
    // 2026-07-28 has no handshake, no `ping` and no `logging/setLevel` (the level travels with
    // each request): those two are not probed rather than reported as failures.
    let modern = conn.is_modern();
    if modern {
        rec.exercised
            .push("ping: not in 2026-07-28, not probed".into());
    } else {
        let ping = stray::request(conn, "ping", None, request_options(opts)).await;
        rec.ping = Some(ping.as_ref().map(|_| ()).map_err(Clone::clone));
        if ping.is_ok() {
            rec.exercised.push("ping".into());
        }
    }
    for listing in Listing::STANDARD {
        let declared = rec.declares(listing.capability().unwrap_or_default());
        let outcome = list(conn, listing, opts).await;
        match &outcome {
            Ok(l) => rec.exercised.push(format!(
                "{}: {} in {} page(s)",
                listing.method(),
                l.items.len(),
                l.pages
            )),
            Err(e) if declared => rec
                .exercised
                .push(format!("{}: failed: {e}", listing.method())),
            Err(_) => {}
        }
        rec.listings.push(ListingRun {
            listing,
            declared,
            outcome,
        });
    }
    if rec.declares("logging") && !modern {
        let params = Some(json!({"level": "info"}));
        let set = stray::request(conn, "logging/setLevel", params, request_options(opts)).await;
        if set.is_ok() {
            rec.exercised.push("logging/setLevel info".into());
        }
        rec.set_level = Some(set.map(|_| ()));
    }
    for (name, args) in &opts.calls {
        let arguments = if args.is_null() {
            json!({})
        } else {
            args.clone()
        };
        let params = json!({"name": name, "arguments": arguments});
        let outcome = stray::request(conn, "tools/call", Some(params), request_options(opts)).await;
        let said = match &outcome {
            Ok(r) if r.get("isError") == Some(&Value::Bool(true)) => "isError".to_owned(),
            Ok(_) => "ok".to_owned(),
            Err(e) => format!("failed: {e}"),
        };
        rec.exercised.push(format!("tools/call {name}: {said}"));
        rec.calls.push(CallRun {
            tool: name.clone(),
            arguments,
            outcome,
        });
    }
}

/// Every page of a listing, stopping at a cursor that repeats or is not a string.
async fn list(
    conn: &Connection,
    listing: Listing,
    opts: &CheckOptions,
) -> Result<Listed, ProbeError> {
    let (method, key) = (listing.method(), listing.key());
    let mut listed = Listed::default();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    for page in 1..=MAX_PAGES {
        listed.pages = page;
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let result = stray::request(conn, method, params, request_options(opts)).await?;
        if let Some(a) = result.get(key).and_then(Value::as_array) {
            listed.items.extend(a.iter().cloned());
        }
        match result.get("nextCursor") {
            None | Some(Value::Null) => return Ok(listed),
            Some(Value::String(next)) => {
                if !seen.insert(next.clone()) {
                    listed.cursor_problem = Some(format!(
                        "{method} repeated the cursor `{next}` on page {page}: a client following it loops for ever"
                    ));
                    return Ok(listed);
                }
                cursor = Some(next.clone());
            }
            Some(other) => {
                listed.cursor_problem = Some(format!(
                    "{method} returned nextCursor {other}, which is not a string"
                ));
                return Ok(listed);
            }
        }
    }
    listed.cursor_problem = Some(format!(
        "{method} still had a nextCursor after {MAX_PAGES} pages"
    ));
    Ok(listed)
}
