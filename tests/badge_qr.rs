//! The badge's QR code: one compact path with a quiet zone, decoded back to the URL by rqrr and
//! `zbarimg`.

use crate::common;

use pith::badge::{self, Look, RecordStatus, Style};

use crate::common::SEED_URL as URL;

use crate::badge::{render_png, rgb, seed, usvg_options};

// ---------------------------------------------------------------------------------------------
// QR codes

fn qr_svg(style: Style, module: u32) -> String {
    badge::svg(
        &seed(),
        &Look::default()
            .style(style)
            .status(Some(RecordStatus::Computed))
            .qr(Some(module)),
    )
    .unwrap()
}

#[test]
fn qr_is_one_compact_path_with_a_quiet_zone() {
    let svg = qr_svg(Style::Flat, 2);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let qr_paths: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("fill") == Some("#000000"))
        .collect();
    assert_eq!(qr_paths.len(), 1, "one path for all modules");
    assert_eq!(qr_paths[0].tag_name().name(), "path");
    assert!(svg.matches("<rect").count() <= 4, "no rect per module");
    let Some(opt) = usvg_options("qr_is_one_compact_path_with_a_quiet_zone") else {
        return;
    };
    let (_, pm) = render_png(&svg, &opt, 1.0, [128, 128, 128]);
    // The QR square starts at y=22 (20 + 2 px gap); version and size from the encoder.
    let side = pm.height() - 22;
    let modules = side / 2;
    assert_eq!(
        modules,
        33 + 8,
        "version 4 with error correction M and a 4-module quiet zone"
    );
    for y in 22..pm.height() {
        for x in 0..side {
            let inner = (8..side - 8).contains(&x) && (22 + 8..pm.height() - 8).contains(&y);
            if !inner {
                assert_eq!(rgb(&pm, x, y), [255, 255, 255], "quiet zone at {x},{y}");
            }
        }
    }
    // The finder pattern's corner module is dark, 2 px wide.
    assert_eq!(rgb(&pm, 8, 30), [0, 0, 0]);
    assert_eq!(rgb(&pm, 9, 31), [0, 0, 0]);
}

#[test]
fn qr_decodes_to_the_url_with_rqrr() {
    let Some(opt) = usvg_options("qr_decodes_to_the_url_with_rqrr") else {
        return;
    };
    for style in Style::ALL {
        for module in [2, 3, 5] {
            let svg = qr_svg(style, module);
            let (_, pm) = render_png(&svg, &opt, 1.0, [255, 255, 255]);
            let mut img = rqrr::PreparedImage::prepare_from_greyscale(
                pm.width() as usize,
                pm.height() as usize,
                |x, y| {
                    let c = rgb(&pm, x as u32, y as u32);
                    ((u32::from(c[0]) + u32::from(c[1]) + u32::from(c[2])) / 3) as u8
                },
            );
            let grids = img.detect_grids();
            assert_eq!(grids.len(), 1, "{style} {module}px");
            let (meta, content) = grids[0].decode().unwrap();
            assert_eq!(content, URL);
            assert_eq!(meta.ecc_level, 0, "rqrr numbers EC level M as 0");
        }
    }
}

#[test]
fn qr_decodes_to_the_url_with_zbarimg() {
    if !common::have_tool("zbarimg", "qr_decodes_to_the_url_with_zbarimg") {
        return;
    }
    let Some(opt) = usvg_options("qr_decodes_to_the_url_with_zbarimg") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for style in Style::ALL {
        // As drawn (2 px per module), and the same SVG at 3× as a printer or HiDPI screen would.
        for zoom in [1.0, 3.0] {
            let svg = qr_svg(style, 2);
            let (png, _) = render_png(&svg, &opt, zoom, [255, 255, 255]);
            let path = dir.path().join(format!("{style}-{zoom}.png"));
            std::fs::write(&path, png).unwrap();
            let (ok, out, err) = common::run(
                "zbarimg",
                &[
                    "--raw",
                    "-q",
                    "-Sdisable",
                    "-Sqrcode.enable",
                    path.to_str().unwrap(),
                ],
                None,
            );
            assert!(ok, "zbarimg failed on {style} at {zoom}x: {err}");
            assert_eq!(out.trim_end(), URL, "{style} at {zoom}x");
        }
    }
}
