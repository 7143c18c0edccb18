//! The badge as a one-page PDF ([`pdf()`]), for documents that include PDF images (pdfLaTeX's
//! `\includegraphics`): the layout and colours of the SVG ([`super::svg`]), one PDF point per
//! px, the text as real text in DejaVu Sans (the font the SVG's widths are measured in,
//! embedded, so text extraction reads the number), and a link annotation to the record.
//!
//! A PDF has no colour-scheme query: it draws the light colours, or the dark ones with
//! [`Look::dark`]. The flat style's faint gradient is left out.

use qrcode::Color;

use super::{
    accessible_name, layout, Error, ErrorKind, Look, Role, Style, FONT_SIZE, HEIGHT, QR_COLOURS,
    QR_QUIET_MODULES,
};
use crate::number::PithNumber;
use crate::pdf::page::{one_page, Area, Drawing, Fill, Rgb, Text};

/// Baseline of the text, in px from the top (the SVG's `y="14"`).
const BASELINE: f64 = 14.0;
/// Corner radius of the flat style, in px.
const RADIUS: f64 = 3.0;

/// `#rrggbb` as RGB components.
fn rgb(hex: &str) -> Rgb {
    let h = hex.trim_start_matches('#');
    let c = |i: usize| {
        h.get(i..i + 2)
            .and_then(|s| u8::from_str_radix(s, 16).ok())
            .map_or(0.0, |v| f64::from(v) / 255.0)
    };
    [c(0), c(2), c(4)]
}

/// Renders the badge of `number` as a one-page PDF whose page is the badge (and its QR code
/// below it, with [`Look::qr`]): same options, same bytes.
///
/// # Errors
/// As [`super::svg`]; [`ErrorKind::UnsupportedCharacter`] for a label outside printable
/// ASCII (the characters the embedded font holds).
///
/// # Examples
/// ```
/// let n = pith::PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5")?;
/// let pdf = pith::badge::pdf(&n, &pith::badge::Look::default())?;
/// assert!(pdf.starts_with(b"%PDF-"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pdf(number: &PithNumber, opts: &Look) -> Result<Vec<u8>, Error> {
    if let Some(c) = opts.label.chars().find(|c| !(' '..='~').contains(c)) {
        return Err(Error::new(ErrorKind::UnsupportedCharacter {
            field: "label",
            character: c,
        }));
    }
    let l = layout(number, opts)?;
    let height = f64::from(l.height);
    let top = |y: f64| height - y;
    let pair = |r: Role| if opts.dark { r.dark() } else { r.light() };
    let flat = opts.style == Style::Flat;
    let last = l.segments.len() - 1;
    let mut fills: Vec<Fill> = l
        .segments
        .iter()
        .enumerate()
        .map(|(i, s)| Fill {
            rect: [
                f64::from(s.x),
                top(f64::from(HEIGHT)),
                f64::from(s.width),
                f64::from(HEIGHT),
            ],
            left_radius: if flat && i == 0 { RADIUS } else { 0.0 },
            right_radius: if flat && i == last { RADIUS } else { 0.0 },
            colour: rgb(pair(s.role).background),
        })
        .collect();
    if let Some((code, px, y)) = &l.qr {
        let px = f64::from(*px);
        let n = code.width();
        let side = (n as f64 + 2.0 * f64::from(QR_QUIET_MODULES)) * px;
        let y0 = f64::from(*y);
        fills.push(Fill {
            rect: [0.0, top(y0 + side), side, side],
            left_radius: 0.0,
            right_radius: 0.0,
            colour: rgb(QR_COLOURS.1),
        });
        let colours = code.to_colors();
        let q = f64::from(QR_QUIET_MODULES);
        // One box per run of dark modules in a row, as the SVG's path draws them.
        for row in 0..n {
            let mut x = 0;
            while x < n {
                if colours[row * n + x] != Color::Dark {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < n && colours[row * n + x] == Color::Dark {
                    x += 1;
                }
                let module_top = y0 + (row as f64 + q) * px;
                fills.push(Fill {
                    rect: [
                        (start as f64 + q) * px,
                        top(module_top + px),
                        (x - start) as f64 * px,
                        px,
                    ],
                    left_radius: 0.0,
                    right_radius: 0.0,
                    colour: rgb(QR_COLOURS.0),
                });
            }
        }
    }
    let texts = l
        .segments
        .iter()
        .map(|s| Text {
            text: &s.text,
            centre: f64::from(2 * s.x + s.width) / 2.0,
            baseline: top(BASELINE),
            size: FONT_SIZE,
            width: Some(f64::from(s.text_len)),
            colour: rgb(pair(s.role).text),
        })
        .collect();
    let name = accessible_name(number, opts);
    let url = number.url();
    let drawing = Drawing {
        width: f64::from(l.width),
        height,
        title: &name,
        fills,
        texts,
        link: Some(Area {
            rect: [0.0, top(f64::from(l.height)), f64::from(l.width), height],
            uri: &url,
            contents: &name,
        }),
    };
    one_page(&drawing).map_err(|e| Error::new(ErrorKind::Pdf(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse() {
        assert_eq!(rgb("#ffffff"), [1.0, 1.0, 1.0]);
        assert_eq!(rgb("#000000"), [0.0, 0.0, 0.0]);
    }

    #[test]
    fn a_label_outside_the_font_is_refused() {
        let n = PithNumber::parse("pith:2024:7BMK4ZKTPUTUY3JKWBANNPOFR5").unwrap();
        let e = pdf(&n, &Look::default().label("papier é")).unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::UnsupportedCharacter {
                character: 'é', ..
            }
        ));
        let a = pdf(&n, &Look::default()).unwrap();
        assert_eq!(a, pdf(&n, &Look::default()).unwrap());
        assert_ne!(a, pdf(&n, &Look::default().dark(true)).unwrap());
    }
}
