//! Writes every expensive shape into a folder, for measuring pith by hand:
//! `cargo run -p pith-testkit --example shapes -- DIR [small]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("usage: shapes DIR [small]"));
    let knobs = match args.next().as_deref() {
        Some("small") => pith_testkit::shapes::Knobs::small(),
        _ => pith_testkit::shapes::Knobs::full(),
    };
    std::fs::create_dir_all(&dir).expect("create the folder");
    for s in pith_testkit::shapes::all(&knobs) {
        let p = dir.join(format!("{}.pdf", s.name));
        std::fs::write(&p, &s.pdf).expect("write a shape");
        println!("{} ({} bytes): {}", p.display(), s.pdf.len(), s.what);
    }
}
