//! Writing the `.ots` format: a proof file or a tree alone, in the bytes `decode`
//! reads back.

use super::{
    Attestation, Op, Proof, Timestamp, BITCOIN_TAG, MAGIC, PENDING_TAG, TAG_ATTESTATION, TAG_FORK,
    VERSION,
};

fn put_varuint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn put_varbytes(out: &mut Vec<u8>, b: &[u8]) {
    put_varuint(out, b.len() as u64);
    out.extend_from_slice(b);
}

impl Timestamp {
    /// The tree in the format's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut Vec<u8>) {
        let n = self.attestations.len() + self.ops.len();
        let mut i = 0;
        let mut lead = |out: &mut Vec<u8>| {
            i += 1;
            if i < n {
                out.push(TAG_FORK);
            }
        };
        for a in &self.attestations {
            lead(out);
            out.push(TAG_ATTESTATION);
            let (tag, payload) = match a {
                Attestation::Bitcoin { height } => {
                    let mut p = Vec::new();
                    put_varuint(&mut p, *height);
                    (BITCOIN_TAG, p)
                }
                Attestation::Pending { uri } => {
                    let mut p = Vec::new();
                    put_varbytes(&mut p, uri.as_bytes());
                    (PENDING_TAG, p)
                }
                Attestation::Unknown { tag, payload } => (*tag, payload.clone()),
            };
            out.extend_from_slice(&tag);
            put_varbytes(out, &payload);
        }
        for (op, next) in &self.ops {
            lead(out);
            match op {
                Op::Append(a) => {
                    out.push(0xf0);
                    put_varbytes(out, a);
                }
                Op::Prepend(a) => {
                    out.push(0xf1);
                    put_varbytes(out, a);
                }
                Op::Reverse => out.push(0xf2),
                Op::Hexlify => out.push(0xf3),
                Op::Hash(h) => out.push(h.tag()),
            }
            next.write(out);
        }
    }
}

impl Proof {
    /// The proof file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        put_varuint(&mut out, VERSION);
        out.push(self.hash.tag());
        out.extend_from_slice(&self.digest);
        self.timestamp.write(&mut out);
        out
    }
}
