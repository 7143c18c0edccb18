//! The whole-file writes' own tests: replacing, modes, folders made and unmade, groups.

use super::durable::linux_at_least;
use super::*;
use std::os::unix::fs::MetadataExt;

#[test]
fn linux_releases_compare_by_major_then_minor() {
    assert!(linux_at_least("6.1.0-18-amd64\n", (5, 8)));
    assert!(linux_at_least("5.8.0", (5, 8)));
    assert!(linux_at_least("5.10.1-fc", (5, 8)));
    assert!(!linux_at_least("5.4.0-150-generic", (5, 8)));
    assert!(!linux_at_least("4.19.0", (5, 8)));
    assert!(!linux_at_least("weird", (5, 8)));
}

#[test]
fn new_files_get_the_umask_mode_and_existing_files_keep_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.txt");
    write_file_with(&new, None, |f| f.write_all(b"a")).unwrap();
    // The test process's umask is at least as strict as 0o022 on the machines we run on;
    // what matters is that group/other read bits survive, which 0600 would drop.
    assert_ne!(std::fs::metadata(&new).unwrap().mode() & 0o044, 0);
    let old = dir.path().join("old.txt");
    std::fs::write(&old, b"x").unwrap();
    std::fs::set_permissions(&old, Permissions::from_mode(0o640)).unwrap();
    write_file_with(&old, None, |f| f.write_all(b"y")).unwrap();
    assert_eq!(std::fs::metadata(&old).unwrap().mode() & 0o777, 0o640);
    assert_eq!(std::fs::read(&old).unwrap(), b"y");
}

#[test]
fn a_failed_fill_leaves_the_target_untouched_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    std::fs::write(&path, b"before").unwrap();
    let e = write_file_with(&path, None, |_| Err(io::Error::other("disk full"))).unwrap_err();
    assert_eq!(e.to_string(), format!("{}: cannot write", path.display()));
    assert_eq!(
        std::error::Error::source(&e).unwrap().to_string(),
        "disk full"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"before");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn write_files_changes_nothing_when_one_cannot_be_staged() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    std::fs::write(&a, b"old").unwrap();
    // A folder that cannot be made: a file is in its place.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, b"x").unwrap();
    let unmakeable = blocked.join("dir/b.txt");
    let e = write_files(&[(a.clone(), b"new"), (unmakeable.clone(), b"b")]).unwrap_err();
    assert_eq!(e.path(), unmakeable);
    assert_eq!(std::fs::read(&a).unwrap(), b"old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    write_files(&[(a.clone(), b"new"), (dir.path().join("c.txt"), b"c")]).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), b"new");
}

#[test]
fn an_output_makes_its_folders_and_a_failed_one_leaves_none() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("a/b/c.txt");
    write_file_with(&deep, None, |f| f.write_all(b"c")).unwrap();
    assert_eq!(std::fs::read(&deep).unwrap(), b"c");
    let failed = dir.path().join("x/y/z.txt");
    let e = write_file_with(&failed, None, |_| Err(io::Error::other("no"))).unwrap_err();
    assert_eq!(e.path(), failed);
    assert!(
        !dir.path().join("x").exists(),
        "a folder left by a failed output"
    );
    // A folder that was there before stays.
    let e = write_file_with(&dir.path().join("a/q.txt"), None, |_| {
        Err(io::Error::other("no"))
    });
    assert!(e.is_err() && dir.path().join("a/b").is_dir());
}

/// Names of the files in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_group_puts_nothing_in_place_before_its_commit_and_everything_after() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let mut group = Group::new();
    for i in 0..5 {
        let d = if i % 2 == 0 { dir.path() } else { &sub };
        let body = format!("file {i}");
        group
            .stage(&d.join(format!("{i}.txt")), None, |f| {
                f.write_all(body.as_bytes())
            })
            .unwrap();
    }
    group.sync_dir(dir.path());
    assert_eq!((group.len(), group.bytes()), (5, 30));
    // Only temporary files until the commit.
    assert!(names(dir.path())
        .iter()
        .all(|n| n == "sub" || n.starts_with(".pith-tmp-")));
    assert!(group.commit().iter().all(Result::is_ok));
    assert_eq!(names(dir.path()), ["0.txt", "2.txt", "4.txt", "sub"]);
    assert_eq!(names(&sub), ["1.txt", "3.txt"]);
    assert_eq!(std::fs::read(sub.join("3.txt")).unwrap(), b"file 3");
    assert_ne!(
        std::fs::metadata(sub.join("3.txt")).unwrap().mode() & 0o044,
        0
    );
}

#[test]
fn a_file_that_fails_in_a_group_fails_alone_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // A rename over a non-empty directory fails at the commit, after the sync.
    let blocked = dir.path().join("blocked.txt");
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), b"k").unwrap();
    let mut group = Group::new();
    group
        .stage(&dir.path().join("a.txt"), None, |f| f.write_all(b"a"))
        .unwrap();
    // A fill that fails is refused at once and stages nothing.
    let e = group
        .stage(&dir.path().join("b.txt"), None, |_| {
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
    assert_eq!(e.what(), "cannot write");
    group.stage(&blocked, None, |f| f.write_all(b"x")).unwrap();
    group
        .stage(&dir.path().join("c.txt"), None, |f| f.write_all(b"c"))
        .unwrap();
    let results = group.commit();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[2].is_ok());
    let e = results[1].as_ref().unwrap_err();
    assert_eq!((e.path(), e.what()), (blocked.as_path(), "cannot replace"));
    assert_eq!(names(dir.path()), ["a.txt", "blocked.txt", "c.txt"]);
    assert_eq!(names(&blocked), ["keep"]);
}

#[test]
fn a_group_dropped_uncommitted_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.txt");
    std::fs::write(&old, b"old").unwrap();
    let mut group = Group::new();
    group.stage(&old, None, |f| f.write_all(b"new")).unwrap();
    group
        .stage(&dir.path().join("new.txt"), None, |f| f.write_all(b"n"))
        .unwrap();
    drop(group);
    assert_eq!(names(dir.path()), ["old.txt"]);
    assert_eq!(std::fs::read(&old).unwrap(), b"old");
    // A group of devices writes them at once and commits nothing else.
    let mut group = Group::new();
    group
        .stage(Path::new("/dev/null"), None, |f| f.write_all(b"x"))
        .unwrap();
    assert!(is_special(Path::new("/dev/null")));
    assert!(group.commit().iter().all(Result::is_ok));
}

#[test]
fn devices_are_written_to_not_replaced() {
    let null = Path::new("/dev/null");
    assert!(is_special(null));
    write_file_with(null, None, |f| f.write_all(b"x")).unwrap();
    assert!(is_special(null));
    assert!(!is_special(Path::new("/nonexistent/path")));
}
