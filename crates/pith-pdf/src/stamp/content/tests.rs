//! Unit tests of the content walk: nesting, marks, clips, forms and backgrounds on small
//! content streams.

use super::lexer::number;
use super::*;

fn extent(data: &[u8]) -> Option<Rect> {
    let mut w = Walk::new(u64::MAX, |_, n| match n {
        b"Fm1" => Some(XObject::Form {
            bbox: Rect::new(0.0, 0.0, 10.0, 20.0),
            matrix: [1.0, 0.0, 0.0, 1.0, 100.0, 100.0],
            content: None,
        }),
        // A page-sized form holding a frame and one word, itself calling Fm1.
        b"Fx" => Some(XObject::Form {
            bbox: Rect::new(0.0, 0.0, 612.0, 792.0),
            matrix: IDENTITY,
            content: Some((
                b"q 2 w 10 10 592 772 re S Q BT /F1 10 Tf 300 400 Td (ab) Tj ET /Fm1 Do Q Q"
                    .to_vec(),
                1,
            )),
        }),
        _ => None,
    });
    w.feed(data).unwrap();
    w.finish().extent
}

fn close(a: Rect, b: Rect) -> bool {
    [a.x0 - b.x0, a.y0 - b.y0, a.x1 - b.x1, a.y1 - b.y1]
        .iter()
        .all(|d| d.abs() < 1e-6)
}

#[test]
fn numbers() {
    assert_eq!(number("12"), Some(12.0));
    assert_eq!(number("-.5"), Some(-0.5));
    assert_eq!(number("+3."), Some(3.0));
    assert_eq!(number("1.2.3"), None);
    assert_eq!(number("Tj"), None);
    assert_eq!(number("-"), None);
}

#[test]
fn text_boxes_follow_the_text_and_current_matrices() {
    // 10 pt text, two bytes, at (50, 700): 20 pt wide, 3.5 below to 10.5 above.
    let e = extent(b"BT /F1 10 Tf 50 700 Td (ab) Tj ET").unwrap();
    assert!(close(e, Rect::new(50.0, 696.5, 70.0, 710.5)), "{e:?}");
    // The same under a 2x CTM and a TJ with a kern of -1000 (one em to the right).
    let e = extent(b"q 2 0 0 2 0 0 cm BT /F1 10 Tf 10 10 Td [(a) -1000 (b)] TJ ET Q").unwrap();
    assert!(close(e, Rect::new(20.0, 13.0, 80.0, 41.0)), "{e:?}");
    // Text rotated by 90 degrees with Tm.
    let e = extent(b"BT /F1 10 Tf 0 1 -1 0 30 100 Tm (abc) Tj ET").unwrap();
    assert!(close(e, Rect::new(19.5, 100.0, 33.5, 130.0)), "{e:?}");
    // T* and TL, ' moves to the next line first.
    let e = extent(b"BT /F1 10 Tf 12 TL 0 100 Td (a) ' ET").unwrap();
    assert!(close(e, Rect::new(0.0, 84.5, 10.0, 98.5)), "{e:?}");
}

#[test]
fn paths_images_forms_and_clips() {
    let e = extent(b"1 w 10 10 m 20 30 l S").unwrap();
    assert!(close(e, Rect::new(9.5, 9.5, 20.5, 30.5)), "{e:?}");
    // A white page-filling rectangle is not content; a grey one is.
    assert_eq!(extent(b"1 g 0 0 612 792 re f"), None);
    let e = extent(b"0.5 g 0 0 612 792 re f").unwrap();
    assert!(close(e, Rect::new(0.0, 0.0, 612.0, 792.0)));
    // An image is the unit square of its matrix; a form its BBox through /Matrix.
    let e = extent(b"q 100 0 0 50 300 400 cm /Im1 Do Q").unwrap();
    assert!(close(e, Rect::new(300.0, 400.0, 400.0, 450.0)), "{e:?}");
    let e = extent(b"/Fm1 Do").unwrap();
    assert!(close(e, Rect::new(100.0, 100.0, 110.0, 120.0)), "{e:?}");
    // A form walked into: its marks, not its box; its Q too many does not count.
    let mut w = Walk::new(u64::MAX, |s, n| match (s, n) {
        (0, b"Fx") => Some(XObject::Form {
            bbox: Rect::new(0.0, 0.0, 612.0, 792.0),
            matrix: IDENTITY,
            content: Some((b"2 w 10 10 592 772 re S /Im Do".to_vec(), 1)),
        }),
        (1, b"Im") => Some(XObject::Image),
        _ => None,
    });
    w.feed(&b"q /Fx Do Q"[..]).unwrap();
    let f = w.finish();
    assert_eq!(f.nesting, Nesting { min: 0, end: 0 });
    let middle = Rect::new(100.0, 100.0, 500.0, 700.0);
    assert!(
        f.boxes.iter().all(|b| b.intersect(&middle).is_none()),
        "{:?}",
        f.boxes
    );
    assert_eq!(f.boxes.len(), 5, "four edges and the image: {:?}", f.boxes);
    let e = extent(b"/Fx Do").unwrap();
    assert!(close(e, Rect::new(9.0, 9.0, 603.0, 783.0)), "{e:?}");
    // A clip bounds what follows until Q.
    let e = extent(b"q 0 0 50 50 re W n 0.5 g 0 0 612 792 re f Q").unwrap();
    assert!(close(e, Rect::new(0.0, 0.0, 50.0, 50.0)), "{e:?}");
    // An inline image, and bytes inside it that look like operators.
    let e = extent(b"q 10 0 0 10 5 5 cm BI /W 1 /H 1 /BPC 8 /CS /G ID Tj (q\nEI Q").unwrap();
    assert!(close(e, Rect::new(5.0, 5.0, 15.0, 15.0)), "{e:?}");
    let mut w = Walk::new(u64::MAX, |_, _| None);
    w.feed(&b"0 0 10 10 re W n /Sh0 sh"[..]).unwrap();
    w.feed(&b"/Sh1 sh"[..]).unwrap();
    let f = w.finish();
    assert!(!f.everything && f.extent.is_some());
    let mut w = Walk::new(u64::MAX, |_, _| None);
    w.feed(&b"/Sh1 sh"[..]).unwrap();
    assert!(w.finish().everything);
}

#[test]
fn a_stroked_frame_marks_its_edges_not_the_page_inside() {
    let mut w = Walk::new(u64::MAX, |_, _| None);
    w.feed(&b"2 w 10 10 592 772 re S"[..]).unwrap();
    let f = w.finish();
    // Four thin boxes along the edges; the middle of the page is free.
    assert_eq!(f.boxes.len(), 4, "{:?}", f.boxes);
    let middle = Rect::new(100.0, 100.0, 500.0, 700.0);
    assert!(f.boxes.iter().all(|b| b.intersect(&middle).is_none()));
    // A slanted line marks the pieces along it, not the square it is the diagonal of.
    let mut w = Walk::new(u64::MAX, |_, _| None);
    w.feed(&b"1 w 0 0 m 600 600 l S"[..]).unwrap();
    let f = w.finish();
    assert!(f.boxes.len() > 10, "{:?}", f.boxes);
    let corner = Rect::new(400.0, 50.0, 550.0, 200.0);
    assert!(f.boxes.iter().all(|b| b.intersect(&corner).is_none()));
    assert!(f.boxes.iter().any(|b| b
        .intersect(&Rect::new(299.0, 299.0, 301.0, 301.0))
        .is_some()));
    // Filled, the same rectangle covers the page.
    let mut w = Walk::new(u64::MAX, |_, _| None);
    w.feed(&b"0.5 g 10 10 592 772 re f"[..]).unwrap();
    assert!(w.finish().boxes[0].intersect(&middle).is_some());
}

#[test]
fn slanted_shapes_leave_their_corners_free() {
    let walk = |data: &[u8]| {
        let mut w = Walk::new(u64::MAX, |_, _| None);
        w.feed(data).unwrap();
        w.finish().boxes
    };
    let covered = |boxes: &[Rect], x: f64, y: f64| {
        boxes
            .iter()
            .any(|b| b.x0 <= x && x <= b.x1 && b.y0 <= y && y <= b.y1)
    };
    // A filled diamond 400 pt wide: its middle is content, the corners of its box are not.
    let diamond = walk(b"200 0 m 400 200 l 200 400 l 0 200 l h f");
    assert!(covered(&diamond, 200.0, 200.0) && covered(&diamond, 20.0, 200.0));
    for (x, y) in [(20.0, 20.0), (380.0, 20.0), (20.0, 380.0), (380.0, 380.0)] {
        assert!(!covered(&diamond, x, y), "({x}, {y}): {diamond:?}");
    }
    // A fill closes an open subpath: the triangle's inside is covered up to its diagonal.
    let triangle = walk(b"0 0 m 300 0 l 300 300 l f");
    assert!(covered(&triangle, 200.0, 100.0) && covered(&triangle, 290.0, 280.0));
    assert!(!covered(&triangle, 30.0, 250.0), "{triangle:?}");
    // A stroke of the same open path marks its two lines only, not the diagonal.
    let stroke = walk(b"0 0 m 300 0 l 300 300 l S");
    assert!(!covered(&stroke, 150.0, 150.0) && !covered(&stroke, 200.0, 100.0));
    // An image on a plane skewed as TikZ draws one: its box's corners stay free.
    let image = walk(b"q 300 100 -100 300 150 0 cm /Im1 Do Q");
    assert!(covered(&image, 200.0, 200.0));
    assert!(
        !covered(&image, 60.0, 20.0) && !covered(&image, 400.0, 380.0),
        "{image:?}"
    );
    // An upright rectangle is still one box; a small shape counts by its box.
    assert_eq!(
        walk(b"10 10 500 500 re f"),
        vec![Rect::new(10.0, 10.0, 510.0, 510.0)]
    );
    assert_eq!(
        walk(b"0 0 m 20 0 l 0 20 l f"),
        vec![Rect::new(0.0, 0.0, 20.0, 20.0)]
    );
}

#[test]
fn page_covering_paints_before_the_text_are_background() {
    let page = Rect::new(0.0, 0.0, 612.0, 792.0);
    let walk = |data: &[u8]| {
        let mut w = Walk::new(u64::MAX, |_, _| None).with_page(page);
        w.feed(data).unwrap();
        w.finish()
    };
    let text = Rect::new(72.0, 696.5, 92.0, 710.5);
    // A cream page colour, then text: background (light), and only the text is content.
    let f = walk(b"1 0.97 0.88 rg 0 0 612 792 re f 0 g BT /F1 10 Tf 72 700 Td (ab) Tj ET");
    assert_eq!(f.background.len(), 1, "{f:?}");
    assert!(f.background[0].luminance.is_some_and(|l| l > 0.85));
    assert_eq!(f.boxes.len(), 1);
    assert!(close(f.boxes[0], text), "{:?}", f.boxes);
    // An image nearly as large as the page, and an unclipped shading: background of
    // unknown colour.
    let f = walk(b"q 590 0 0 770 11 11 cm /Im Do Q /Sh sh BT /F1 10 Tf 72 700 Td (ab) Tj ET");
    assert_eq!(f.background.len(), 2, "{f:?}");
    assert!(f.background.iter().all(|b| b.luminance.is_none()));
    assert_eq!(
        f.background.iter().map(|b| b.image).collect::<Vec<_>>(),
        [true, false]
    );
    assert!(!f.everything);
    // A dark CMYK fill is dark.
    let f = walk(b"0 0 0 0.9 k 0 0 612 792 re f");
    assert!(f.background[0].luminance.is_some_and(|l| l < 0.05));
    // After the text, the same paints are content; smaller ones always are.
    let f = walk(b"BT /F1 10 Tf 72 700 Td (ab) Tj ET 0.5 g 0 0 612 792 re f /Sh sh");
    assert!(f.background.is_empty() && f.everything);
    assert!(close(f.boxes[1], page), "{:?}", f.boxes);
    let f = walk(b"0.5 g 0 0 500 792 re f");
    assert!(f.background.is_empty() && f.boxes.len() == 1);
    // Without the page's area nothing is background.
    let mut w = Walk::new(u64::MAX, |_, _| None);
    w.feed(&b"0.5 g 0 0 612 792 re f"[..]).unwrap();
    assert!(w.finish().background.is_empty());
}

#[test]
fn the_bound_stops_the_walk() {
    let data = vec![b' '; 1 << 20];
    let mut w = Walk::new(1000, |_, _| None);
    let e = w.feed(&data[..]).unwrap_err();
    assert!(e.get_ref().is_some_and(|i| i.is::<TooLong>()));
}
