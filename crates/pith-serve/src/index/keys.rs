//! The keys an index trusts: the registry's, and every key an operator gave `pith index
//! --key`, kept across builds. A build that adds records keeps the keys the index already
//! trusts; only an explicit [`Sources::drop_keys`](super::Sources::drop_keys) forgets them.
//! Whenever the keys change, every bundle's flags are computed again with the new ones, so
//! that the record page, the badge and `/verify` (which checks with the same keys) agree
//! after every update.
//!
//! The keys are stored in the `meta` table under [`TRUSTED_KEYS`], a JSON list of base64 keys.
//! This module reads and writes them; it trusts nothing a bundle or manifest states.

use pith::verify::{Bundle, Key, Verdict};
use rusqlite::{params, Connection};

use super::{Error, TRUSTED_KEYS};

/// The keys a stored `meta` value names: the registry key first, then each key it lists that
/// parses, each once (by fingerprint). `None` (an index that does not say) is the registry key
/// alone.
pub(super) fn from_meta(value: Option<&str>) -> Vec<Key> {
    let listed = value
        .and_then(|v| serde_json::from_str::<Vec<String>>(v).ok())
        .unwrap_or_default();
    let mut keys = vec![Key::registry()];
    add(&mut keys, listed.iter().filter_map(|k| Key::parse(k).ok()));
    keys
}

/// Appends the keys of `more` that `keys` lacks (by fingerprint).
fn add(keys: &mut Vec<Key>, more: impl IntoIterator<Item = Key>) {
    for k in more {
        if !keys.iter().any(|x| x.fingerprint() == k.fingerprint()) {
            keys.push(k);
        }
    }
}

/// The keys `conn`'s index stores.
///
/// # Errors
/// [`super::ErrorKind::Sqlite`].
pub(super) fn stored(conn: &Connection) -> Result<Vec<Key>, Error> {
    let value: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = ?1",
            [TRUSTED_KEYS],
            |r| r.get(0),
        )
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })?;
    Ok(from_meta(value.as_deref()))
}

/// The keys a build trusts: those the index had (`before`; forgotten when `drop`), then
/// `given`, the registry's first, each once.
pub(super) fn merged(before: &[Key], given: &[Key], drop: bool) -> Vec<Key> {
    let mut keys = vec![Key::registry()];
    if !drop {
        add(&mut keys, before.iter().cloned());
    }
    add(&mut keys, given.iter().cloned());
    keys
}

/// Whether two key lists trust the same keys.
pub(super) fn same(a: &[Key], b: &[Key]) -> bool {
    let prints = |k: &[Key]| {
        let mut v: Vec<String> = k.iter().map(Key::fingerprint).collect();
        v.sort();
        v.dedup();
        v
    };
    prints(a) == prints(b)
}

/// Stores `keys` as the keys `conn`'s index trusts.
///
/// # Errors
/// [`super::ErrorKind::Sqlite`].
pub(super) fn store(conn: &Connection, keys: &[Key]) -> Result<(), Error> {
    let list: Vec<String> = keys.iter().map(Key::to_base64).collect();
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        params![
            TRUSTED_KEYS,
            serde_json::to_string(&list).unwrap_or_default()
        ],
    )?;
    Ok(())
}

/// Checks every stored bundle again with `keys`: its flags are computed anew, and a bundle
/// that no longer verifies (a receipt naming no key that only a dropped key signed) is taken
/// out, as a build leaves out such a bundle, and `report`ed by its code. Returns how many were
/// taken out.
///
/// # Errors
/// [`super::ErrorKind::Sqlite`].
pub(super) fn recheck(
    conn: &Connection,
    keys: &[Key],
    report: &mut dyn FnMut(&str),
) -> Result<u64, Error> {
    let codes: Vec<String> = conn
        .prepare("SELECT code FROM bundles ORDER BY code")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut removed = 0;
    for code in codes {
        // One bundle in memory at a time: an index may hold many.
        let text: String =
            conn.query_row("SELECT bundle FROM bundles WHERE code = ?1", [&code], |r| {
                r.get(0)
            })?;
        let checked = Bundle::from_json(&text)
            .ok()
            .filter(|b| b.check(keys).verdict() != Verdict::Mismatch);
        match checked {
            Some(b) => {
                let flags = serde_json::to_string(&b.flags(keys)).unwrap_or_default();
                conn.execute(
                    "UPDATE bundles SET flags = ?2 WHERE code = ?1",
                    params![code, flags],
                )?;
            }
            None => {
                conn.execute("DELETE FROM bundles WHERE code = ?1", [&code])?;
                removed += 1;
                report(&format!(
                    "the bundle of {code} does not verify with the keys this index now trusts \
                     (`pith verify --bundle` says why): left out"
                ));
            }
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two keys besides the registry's: the test suite's, and RFC 8032's first test key.
    fn two() -> (Key, Key) {
        let a = Key::parse(&pith_testkit::test_key()).unwrap();
        let b =
            Key::parse("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a").unwrap();
        (a, b)
    }

    #[test]
    fn keys_are_kept_unless_dropped_and_the_registry_always_is() {
        let (a, b) = two();
        let kept = merged(
            &[Key::registry(), a.clone()],
            std::slice::from_ref(&b),
            false,
        );
        assert!(same(&kept, &[Key::registry(), a.clone(), b.clone()]));
        let dropped = merged(
            &[Key::registry(), a.clone()],
            std::slice::from_ref(&b),
            true,
        );
        assert!(same(&dropped, &[Key::registry(), b.clone()]));
        assert!(!same(&dropped, &kept));
        // The registry key first, listed once however often it is stored.
        let stored = serde_json::json!([Key::registry().to_base64(), a.to_base64(), "junk"]);
        let read = from_meta(Some(&stored.to_string()));
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].fingerprint(), Key::registry().fingerprint());
        assert_eq!(from_meta(None).len(), 1);
    }
}
