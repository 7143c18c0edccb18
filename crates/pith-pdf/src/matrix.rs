//! The affine matrices of PDF graphics (ISO 32000-2 §8.3.4), `[a b c d e f]` as row vectors:
//! their product and a point mapped through one. A leaf: the content walks of the stamp and of
//! the page text, and the stamp's geometry, share it.

/// An affine matrix `[a b c d e f]`, mapping `(x, y)` to `(a·x + c·y + e, b·x + d·y + f)`.
pub(crate) type Matrix = [f64; 6];

/// The matrix that maps every point to itself.
pub(crate) const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `a × b`: the matrix that applies `a` first, then `b` (as `cm` concatenates a matrix before
/// the current one).
pub(crate) fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

/// The point `(x, y)` mapped through `m`.
pub(crate) fn apply(m: &Matrix, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_applies_its_left_matrix_first() {
        let scale = [2.0, 0.0, 0.0, 3.0, 0.0, 0.0];
        let shift = [1.0, 0.0, 0.0, 1.0, 10.0, 20.0];
        let (x, y) = (1.0, 1.0);
        let (sx, sy) = apply(&scale, x, y);
        assert_eq!(apply(&mul(&scale, &shift), x, y), apply(&shift, sx, sy));
        assert_eq!(apply(&mul(&scale, &shift), x, y), (12.0, 23.0));
        assert_eq!(mul(&IDENTITY, &shift), shift);
        assert_eq!(mul(&shift, &IDENTITY), shift);
    }
}
