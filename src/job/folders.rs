//! The folders batch items write their outputs into: made before an item writes, and removed
//! again when a refused item leaves them empty, but never while another item is about to
//! write there (workers share folders). It knows nothing of PDFs or reports.

use std::path::{Path, PathBuf};

/// The folders outputs are being written into now, each with how many items write there. A
/// refused item removes the empty folders it made only where no other item is about to write:
/// workers share folders, and one that found a folder another made must not find it gone.
static WRITING_IN: std::sync::Mutex<std::collections::BTreeMap<PathBuf, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

fn writing_in() -> std::sync::MutexGuard<'static, std::collections::BTreeMap<PathBuf, usize>> {
    WRITING_IN.lock().unwrap_or_else(|e| e.into_inner())
}

/// An item writing into `folder`: the folders it made for that (deepest first), and its
/// place in [`WRITING_IN`] until it is dropped.
pub(crate) struct Writing {
    folder: PathBuf,
    /// The folders it made, deepest first.
    pub(crate) created: Vec<PathBuf>,
}

impl Writing {
    /// Makes `folder` and the folders above it that are missing, as one step with respect to
    /// other items' removals.
    pub(crate) fn enter(folder: &Path) -> std::io::Result<Writing> {
        let mut users = writing_in();
        // A folder that is there stays there while this lock is held (items remove folders
        // under it): one look at it instead of a `mkdir` and a second look for each file.
        let created = if folder.is_dir() {
            Vec::new()
        } else {
            let created = missing_dirs(folder);
            std::fs::create_dir_all(folder)?;
            created
        };
        *users.entry(folder.to_owned()).or_default() += 1;
        Ok(Writing {
            folder: folder.to_owned(),
            created,
        })
    }

    /// Removes the folders this item made, deepest first, while each is empty and no other
    /// item writes into it (nothing was written: a refused file leaves no empty folder).
    pub(crate) fn remove_made(&self) {
        let users = writing_in();
        for d in &self.created {
            let mine = usize::from(*d == self.folder);
            if users.get(d).copied().unwrap_or(0) > mine || std::fs::remove_dir(d).is_err() {
                break;
            }
        }
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        let mut users = writing_in();
        if let Some(n) = users.get_mut(&self.folder) {
            *n -= 1;
            if *n == 0 {
                users.remove(&self.folder);
            }
        }
    }
}

/// The directories `create_dir_all(dir)` would create, deepest first.
fn missing_dirs(dir: &Path) -> Vec<PathBuf> {
    dir.ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Writing;

    #[test]
    fn a_refused_item_leaves_a_folder_another_item_writes_into() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("out/02");
        // One item makes the folder; a second finds it there and is about to write.
        let first = Writing::enter(&folder).unwrap();
        let second = Writing::enter(&folder).unwrap();
        assert_eq!(first.created.len(), 2);
        assert!(second.created.is_empty());
        // The first is refused: the folder stays for the second.
        first.remove_made();
        drop(first);
        assert!(folder.is_dir());
        drop(second);
        // Alone, a refused item takes the folders it made.
        let third = Writing::enter(&dir.path().join("out/03/x")).unwrap();
        third.remove_made();
        drop(third);
        assert!(!dir.path().join("out/03").exists());
        assert!(folder.is_dir());
    }
}
