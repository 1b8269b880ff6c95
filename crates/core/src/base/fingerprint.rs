//! Fingerprints of the explorer's situations.

/// A streaming 128-bit fingerprint for `std::hash::Hash` values: two independent 64-bit mixes
/// (the explorer keys situations by it; a 64-bit hash over a million situations would risk a
/// collision every few thousand searches, 128 bits make it negligible).
///
/// A canonical fingerprint ([`Fingerprint::canonical`]) sees times and message ids, which hash
/// through `write_i128` and `write_u128` (`SimTime` and `MsgId` do, nothing else does): it
/// hashes times relative to a given now and leaves message ids out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fingerprint {
    a: u64,
    b: u64,
    now: Option<u64>,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
            now: None,
        }
    }
}

impl Fingerprint {
    /// A fingerprint that hashes every time as its distance from `now` (signed, wrapping) and
    /// every message id as the same constant.
    pub(crate) fn canonical(now: u64) -> Fingerprint {
        Fingerprint {
            now: Some(now),
            ..Fingerprint::default()
        }
    }

    #[inline(always)]
    fn mix(&mut self, w: u64) {
        self.a = (self.a.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
        self.b = (self.b ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.b ^= self.b >> 29;
    }

    /// The 128-bit value.
    pub(crate) fn finish128(&self) -> u128 {
        let mut b = self.b.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        b ^= b >> 32;
        let a = self.a ^ (self.a >> 33);
        (u128::from(a) << 64) | u128::from(b)
    }
}

impl std::hash::Hasher for Fingerprint {
    fn finish(&self) -> u64 {
        (self.finish128() >> 64) as u64 ^ self.finish128() as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        for word in words {
            self.mix(u64::from_le_bytes(*word));
        }
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        self.mix(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 60));
    }
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.mix(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.mix(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }
    fn write_i128(&mut self, i: i128) {
        // A `SimTime` (u64 milliseconds).
        let t = i as u64;
        self.mix(self.now.map_or(t, |now| t.wrapping_sub(now)));
    }
    fn write_u128(&mut self, i: u128) {
        // A `MsgId` (u32).
        self.mix(if self.now.is_some() {
            u64::MAX
        } else {
            i as u64
        });
    }
}
