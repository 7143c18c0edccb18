//! What an update costs in I/O, counted by strace (return values of the read
//! syscalls, and of copy_file_range separately). In place pith reads the trailer, the xref,
//! a bounded sample of object headers and the objects it rewrites — not the content; to a new
//! file the copy is the kernel's (copy_file_range), not a read/write loop through pith.

use crate::common;

use std::path::Path;

const A: &str = "pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5";

/// A PDF with `n` content streams of `size` bytes each (so the file is large and has many
/// objects), classic xref table.
fn big_pdf(n: usize, size: usize) -> Vec<u8> {
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 3 + 2 * i)).collect();
    let mut objs = vec![
        ("<< /Type /Catalog /Pages 2 0 R >>".to_owned(), None),
        (
            format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")),
            None,
        ),
    ];
    for i in 0..n {
        objs.push((
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents {} 0 R >>",
                4 + 2 * i
            ),
            None,
        ));
        objs.push((format!("<< /Length {size} >>"), Some(vec![b'%'; size])));
    }
    common::pdfgen::classic(&objs)
}

/// Runs pith under strace (every thread), tracing `calls` (comma-separated), and returns the
/// log. `pith inspect` may exit 1 (a file that carries no number); any other failure is one
/// of the run being measured.
fn strace_log(dir: &Path, calls: &str, args: &[&str]) -> String {
    let log = dir.join("strace.log");
    let pith = assert_cmd::cargo::cargo_bin("pith");
    let o = std::process::Command::new("strace")
        .args(["-f", "-qq", "-e", &format!("trace={calls}"), "-o"])
        .arg(&log)
        .arg(&pith)
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap();
    let ok = o.status.success() || (args.first() == Some(&"inspect") && o.status.code() == Some(1));
    assert!(ok, "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(&log).unwrap()
}

/// Runs pith under strace and sums the return values of `calls`.
fn syscall_bytes(dir: &Path, calls: &str, args: &[&str]) -> u64 {
    strace_log(dir, calls, args)
        .lines()
        .filter_map(|l| l.rsplit_once("= ")?.1.trim().parse::<u64>().ok())
        .sum()
}

/// A large PDF written as `name` in a new folder, with the length of its cross-reference
/// table; `None` (a visible skip) where strace or qpdf is missing.
fn big_input(
    test: &str,
    name: &str,
    n: usize,
    size: usize,
) -> Option<(tempfile::TempDir, std::path::PathBuf, Vec<u8>, u64)> {
    if !common::have_tool("strace", test) || !common::have_tool("qpdf", test) {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let bytes = big_pdf(n, size);
    let input = dir.path().join(name);
    std::fs::write(&input, &bytes).unwrap();
    let x = bytes.windows(6).rposition(|w| w == b"\nxref\n").unwrap() as u64 + 1;
    let table = bytes.len() as u64 - x;
    Some((dir, input, bytes, table))
}

#[test]
#[ignore = "full tier (counts system calls under strace on large files): cargo test -- --include-ignored"]
fn in_place_reads_the_xref_not_the_file_and_new_files_are_kernel_copies() {
    let t = "in_place_reads_the_xref_not_the_file_and_new_files_are_kernel_copies";
    let Some((dir, input, bytes, xref_bytes)) = big_input(t, "big.pdf", 2_000, 8_000) else {
        return; // 16 MB, 4,002 objects
    };
    let len = bytes.len() as u64;
    let reads = "read,pread64,readv,preadv,preadv2";
    let inp = input.to_str().unwrap();

    let inspect = syscall_bytes(dir.path(), reads, &["inspect", inp]);
    let deep = syscall_bytes(dir.path(), reads, &["inspect", "--deep", inp]);
    let out = dir.path().join("out.pdf");
    let outp = out.to_str().unwrap();
    let new_reads = syscall_bytes(
        dir.path(),
        reads,
        &["inject", inp, "--number", A, "-o", outp],
    );
    std::fs::remove_file(&out).unwrap();
    let copied = syscall_bytes(
        dir.path(),
        "copy_file_range",
        &["inject", inp, "--number", A, "-o", outp],
    );
    let in_place = syscall_bytes(
        dir.path(),
        reads,
        &["inject", "--in-place", inp, "--number", A],
    );
    eprintln!(
        "file {len}, xref {xref_bytes}: inspect {inspect}, --deep {deep}, -o reads {new_reads} \
         + copy_file_range {copied}, --in-place {in_place}"
    );
    // The bound: xref bytes + 2 MB (here far less: a few hundred KB).
    let bound = xref_bytes + (2 << 20);
    assert!(inspect < bound, "inspect read {inspect}");
    assert!(in_place < bound, "--in-place read {in_place}");
    assert!(new_reads < bound, "-o read {new_reads} itself");
    assert_eq!(
        copied, len,
        "the copy is copy_file_range of the whole input"
    );
    assert!(deep > len / 2, "--deep reads the object headers: {deep}");
    // And the results are right.
    let (ok, o, e) = common::run("qpdf", &["--check", inp], None);
    assert!(ok && !e.contains("WARNING"), "{o}{e}");
    assert!(std::fs::read(&input).unwrap().starts_with(&bytes));
    assert_eq!(&std::fs::read(&out).unwrap()[..bytes.len()], &bytes[..]);
}

#[test]
#[ignore = "full tier (counts system calls under strace on large files): cargo test -- --include-ignored"]
fn in_place_reads_entries_of_a_large_table_not_the_table() {
    let t = "in_place_reads_entries_of_a_large_table_not_the_table";
    // 120,002 objects: a 2.4 MB table for a 13 MB file.
    let Some((dir, input, bytes, table)) = big_input(t, "many.pdf", 60_000, 1) else {
        return;
    };
    let inp = input.to_str().unwrap();
    let reads = "read,pread64,readv,preadv,preadv2";
    let in_place = syscall_bytes(
        dir.path(),
        reads,
        &["inject", "--in-place", inp, "--number", A],
    );
    let deep = syscall_bytes(dir.path(), reads, &["inspect", "--deep", inp]);
    // The page tree's /Kids array (object 2, 0.8 MB) is read whole to count the pages; of
    // the table only the sampled entries and the ones looked up are.
    let kids = bytes.windows(9).position(|w| w == b"3 0 obj\n<").unwrap() as u64;
    eprintln!("table {table}, kids {kids}: --in-place read {in_place}, --deep {deep}");
    assert!(
        in_place < kids + table / 4,
        "--in-place read {in_place} bytes of a file whose table is {table}"
    );
    assert!(deep > table, "--deep reads the whole table: {deep}");
    let (ok, o, e) = common::run("qpdf", &["--check", inp], None);
    assert!(ok && !e.contains("WARNING"), "{o}{e}");
}

/// Runs pith under strace (every thread) and counts the calls of each name in `calls`.
fn syscall_counts(dir: &Path, calls: &[&str], args: &[&str]) -> Vec<usize> {
    let text = strace_log(dir, &calls.join(","), args);
    calls
        .iter()
        .map(|c| {
            let open = format!("{c}(");
            text.lines().filter(|l| l.contains(&open)).count()
        })
        .collect()
}

/// A batch of many small new files waits for the disk a few times per worker, as `cp -r` +
/// `sync` waits once, not once per file or per folder: one `syncfs` per file system for the
/// files' data and one for the folders' entries at each worker's commit, and no `fsync` of a
/// file or a folder (the folders made for the outputs included).
#[test]
fn a_batch_of_new_files_syncs_each_file_system_not_each_file() {
    let t = "batch syncs";
    if !common::have_tool("strace", t) {
        return;
    }
    let reports_errors = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .and_then(|r| {
            let mut p = r.trim().split(['.', '-']).map(|x| x.parse::<u64>().ok());
            Some((p.next()??, p.next()??))
        })
        .is_some_and(|v| v >= (5, 8));
    if !reports_errors {
        eprintln!(
            "SKIP {t}: syncfs reports no errors before Linux 5.8 (each file is synced alone)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (files, out) = (60, dir.path().join("out"));
    let counts = batch_syscalls(dir.path(), files, &["syncfs", "fsync", "fdatasync"]);
    let written = walkdir_pdfs(&out);
    assert_eq!(written, files, "every file is written");
    // Two workers, one commit each (60 files are fewer than a group holds), two syncs each.
    assert!(counts[0] <= 4, "syncfs {counts:?}");
    assert_eq!(counts[1] + counts[2], 0, "fsync, fdatasync {counts:?}");
}

/// Writes `files` small PDFs with their sidecars in three folders of `dir`/src, batches them
/// into `dir`/out with two workers under strace, and counts the calls of each name in `calls`.
fn batch_syscalls(dir: &Path, files: usize, calls: &[&str]) -> Vec<usize> {
    let src = dir.join("src");
    let pdf = std::fs::read(common::fixture("minimal.pdf")).unwrap();
    for i in 0..files {
        let f = src.join(format!("d{}", i % 3)).join(format!("f{i:02}.pdf"));
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, &pdf).unwrap();
        std::fs::write(f.with_extension("pith"), format!("{A}\n")).unwrap();
    }
    let (s, o) = (
        src.display().to_string(),
        dir.join("out").display().to_string(),
    );
    syscall_counts(
        dir,
        calls,
        &["batch", "-j", "2", "--dir", &s, "--out-dir", &o, "-q"],
    )
}

/// The PDFs under `dir`, at any depth.
fn walkdir_pdfs(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                walkdir_pdfs(&p)
            } else {
                usize::from(p.extension().is_some_and(|x| x == "pdf"))
            }
        })
        .sum()
}

/// A small input (most papers) is read once, whole, by a batch writing new files: one
/// `pread` of its length, then planned, hashed and copied from memory, where a larger one is
/// read object by object and then copied.
#[test]
fn a_batch_reads_a_small_input_once() {
    if !common::have_tool("strace", "batch reads") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    let pdf = std::fs::read(common::fixture("qpdf-object-stream.pdf")).unwrap();
    std::fs::write(src.join("a.pdf"), &pdf).unwrap();
    std::fs::write(src.join("a.pith"), format!("{A}\n")).unwrap();
    let log = dir.path().join("reads.log");
    let o = std::process::Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=pread64,read,openat,close", "-o"])
        .arg(&log)
        .arg(assert_cmd::cargo::cargo_bin("pith"))
        .args(["batch", "--dir"])
        .arg(&src)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg("-q")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    // The descriptor the input was opened as, then every read of it until it is closed.
    let input = format!("{}\"", src.join("a.pdf").display());
    let opened = text
        .lines()
        .find(|l| l.contains("openat(") && l.contains(&input))
        .expect("the input is opened");
    let fd = opened.rsplit("= ").next().unwrap().trim();
    let reads: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != opened)
        .take_while(|l| !l.contains(&format!("close({fd})")))
        .filter(|l| l.contains(&format!("read64({fd},")) || l.contains(&format!("read({fd},")))
        .collect();
    assert_eq!(reads.len(), 1, "{reads:#?}");
    assert!(
        reads[0].trim_end().ends_with(&format!("= {}", pdf.len())),
        "{reads:#?}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("out/a.pdf")).unwrap()[..pdf.len()],
        pdf[..]
    );
}

/// A batch writing new files looks at each input, output and folder a few times, not once
/// for every check that needs it: no second look at an input when its output does not exist
/// yet (it cannot be the input), no `mkdir` of a folder that is there. `cp -r` looks about
/// six times per file.
#[test]
fn a_batch_looks_at_each_file_a_few_times() {
    if !common::have_tool("strace", "batch looks") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (files, out) = (60, dir.path().join("out"));
    let counts = batch_syscalls(dir.path(), files, &["statx", "mkdir"]);
    assert_eq!(walkdir_pdfs(&out), files, "every file is written");
    // Three folders are made once each; a file's folder is not made again for each file.
    assert!(counts[1] <= 2 * 3 + 2, "mkdir {counts:?}");
    assert!(
        counts[0] <= LOOKS_PER_FILE * files,
        "statx {counts:?} for {files} files"
    );
}

/// What a batch's file costs in `statx` calls (about 17 before they were counted): the
/// sidecars looked for, the input's size, whether the output is there and is the input, its
/// folder, the descriptors of the input and of the new file.
const LOOKS_PER_FILE: usize = 15;

/// A tar run holds each member in a buffer used again once the member is written, not in
/// fresh memory from the system for each one (a page fault for every 4 KiB of every member),
/// and writes the output in large pieces, never a call for a header or a padding alone.
#[test]
fn a_tar_run_uses_its_buffers_again_and_writes_in_large_pieces() {
    let t = "tar buffers";
    let time = Path::new("/usr/bin/time");
    if !common::have_tool("strace", t) || !common::have_tool("tar", t) {
        return;
    }
    if !time.exists() {
        eprintln!("SKIP {t}: GNU time (/usr/bin/time) is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let members = 40usize;
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let names: Vec<String> = (0..members)
        .map(|i| format!("2402/notes{i:02}.txt"))
        .collect();
    let named: Vec<(&str, Vec<u8>)> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let bytes = (0..(900_000 + 5_000 * i) / 8)
                .flat_map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed.to_le_bytes()
                })
                .collect();
            (name.as_str(), bytes)
        })
        .collect();
    let data: usize = named.iter().map(|(_, b)| b.len()).sum();
    let input = dir.path().join("in.tar");
    crate::tar::make_tar(dir.path(), &input, "gnu", &named);
    drop(named);
    let meta = crate::tar::metadata(dir.path());
    let out = dir.path().join("out.tar");
    let run = |wrapper: &mut std::process::Command| {
        let o = wrapper
            .arg(assert_cmd::cargo::cargo_bin("pith"))
            .args(["batch", "-q", "-j", "2", "--tar"])
            .arg(&input)
            .arg("--out-tar")
            .arg(&out)
            .arg("--arxiv-metadata")
            .arg(&meta)
            .args(["--report", "/dev/null"])
            .output()
            .unwrap();
        // Members that are not PDFs are copied and reported as such (exit 1: none numbered).
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(&input).unwrap(),
            "every member copied byte for byte"
        );
        std::fs::remove_file(&out).unwrap();
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let log = dir.path().join("strace.log");
    run(std::process::Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=openat,write,writev", "-o"])
        .arg(&log));
    let text = std::fs::read_to_string(&log).unwrap();
    // The descriptor the output was written through (a temporary file beside it).
    let opened = text
        .lines()
        .find(|l| l.contains("openat(") && l.contains(".pith-tmp") && l.contains("O_CREAT"))
        .expect("the output is written to a temporary file");
    let fd = opened.rsplit("= ").next().unwrap().trim();
    let writes = text
        .lines()
        .filter(|l| l.contains(&format!("write({fd},")) || l.contains(&format!("writev({fd},")))
        .count();
    assert!(
        writes <= 2 * members + 4,
        "{writes} writes for {members} members"
    );
    // Minor page faults (a count the kernel keeps): the program's own start and the buffers
    // of the members in flight, far fewer than the pages of data passing through.
    let faults: usize = run(std::process::Command::new(time).args(["-f", "%R"]))
        .trim()
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("GNU time's count of minor page faults");
    let pages = data / 4096;
    assert!(
        faults < pages / 3,
        "{faults} page faults for {pages} pages of data"
    );
}
