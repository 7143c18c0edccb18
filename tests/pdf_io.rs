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

/// Runs pith under strace and sums the return values of `calls`.
fn syscall_bytes(dir: &Path, calls: &str, args: &[&str]) -> u64 {
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
    // `pith inspect` exits 1 on a file that carries no number; anything else is
    // a failure of the run being measured.
    let ok = o.status.success() || (args.first() == Some(&"inspect") && o.status.code() == Some(1));
    assert!(ok, "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| l.rsplit_once("= ")?.1.trim().parse::<u64>().ok())
        .sum()
}

#[test]
#[ignore = "full tier (counts system calls under strace on large files): cargo test -- --include-ignored"]
fn in_place_reads_the_xref_not_the_file_and_new_files_are_kernel_copies() {
    let t = "in_place_reads_the_xref_not_the_file_and_new_files_are_kernel_copies";
    if !common::have_tool("strace", t) || !common::have_tool("qpdf", t) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bytes = big_pdf(2_000, 8_000); // 16 MB, 4,002 objects
    let len = bytes.len() as u64;
    let input = dir.path().join("big.pdf");
    std::fs::write(&input, &bytes).unwrap();
    let x = bytes.windows(6).rposition(|w| w == b"\nxref\n").unwrap() as u64 + 1;
    let xref_bytes = len - x;
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
    if !common::have_tool("strace", t) || !common::have_tool("qpdf", t) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // 120,002 objects: a 2.4 MB table for a 13 MB file.
    let bytes = big_pdf(60_000, 1);
    let input = dir.path().join("many.pdf");
    std::fs::write(&input, &bytes).unwrap();
    let x = bytes.windows(6).rposition(|w| w == b"\nxref\n").unwrap() as u64 + 1;
    let table = bytes.len() as u64 - x;
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
