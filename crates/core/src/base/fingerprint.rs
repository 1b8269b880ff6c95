//! Fingerprints of the explorer's situations.

/// A streaming 128-bit fingerprint for `std::hash::Hash` values: two independent 64-bit mixes
/// (the explorer keys situations by it; a 64-bit hash over a million situations would risk a
/// collision every few thousand searches, 128 bits make it negligible).
///
/// It hashes what it is given and reinterprets nothing: which values are times or message ids
/// is said by the canonical view that feeds it (`base::canonical`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fingerprint {
    a: u64,
    b: u64,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
        }
    }
}

impl Fingerprint {
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
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;
    use std::collections::HashSet;
    use std::hash::{Hash, Hasher};

    /// The fingerprint of a pair of small numbers, as the explorer's views hash their fields.
    fn of(i: u64, j: u64) -> Fingerprint {
        let mut f = Fingerprint::default();
        i.hash(&mut f);
        j.hash(&mut f);
        f
    }

    /// Situations differ in a field or two by small amounts: each 64-bit half of the
    /// fingerprint must keep all of them apart on its own (two independent mixes), and so must
    /// the 64-bit `finish`. Over 90 000 pairs a collision of good 64-bit hashes has a chance of
    /// about 2 in 10^10; a mix that ORs or ANDs its input in, or a finish that shifts the wrong
    /// way, collides at once.
    #[test]
    fn each_half_tells_small_differences_apart() {
        let (mut high, mut low, mut short) = (HashSet::new(), HashSet::new(), HashSet::new());
        for i in 0..300 {
            for j in 0..300 {
                let f = of(i, j);
                let whole = f.finish128();
                assert!(
                    high.insert((whole >> 64) as u64),
                    "high half collides at ({i}, {j})"
                );
                assert!(low.insert(whole as u64), "low half collides at ({i}, {j})");
                assert!(short.insert(f.finish()), "finish collides at ({i}, {j})");
            }
        }
    }

    /// One bit of input changes about half of each half's 64 bits (32 on average over many
    /// inputs), so near situations do not land on near fingerprints.
    #[test]
    fn one_bit_of_input_changes_about_half_of_each_half() {
        let (mut high, mut low, mut n) = (0u64, 0u64, 0u64);
        for i in 0..64u64 {
            for bit in 0..64 {
                let a = of(i.wrapping_mul(0x9e37_79b9_7f4a_7c15), 7).finish128();
                let b = of(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (1 << bit), 7).finish128();
                let d = a ^ b;
                high += u64::from(((d >> 64) as u64).count_ones());
                low += u64::from((d as u64).count_ones());
                n += 1;
            }
        }
        for (half, flips) in [("high", high), ("low", low)] {
            let mean = flips as f64 / n as f64;
            assert!(
                (28.0..=36.0).contains(&mean),
                "{half} half: {mean:.1} bits of 64 change"
            );
        }
    }

    /// Every kind of value the views hash moves the fingerprint: byte strings (keys, bodies)
    /// by their bytes and their length, small integers, and message ids outside a canonical
    /// fingerprint.
    #[test]
    fn strings_small_integers_and_ids_all_count() {
        fn f(value: impl Hash) -> u128 {
            let mut f = Fingerprint::default();
            value.hash(&mut f);
            f.finish128()
        }
        assert_ne!(f("K1"), f("K2"));
        // A str hashes its bytes with no length first: the tail's length must count.
        assert_ne!(f("a"), f("a\0"), "a trailing zero byte counts");
        assert_ne!(f(1u16), f(2u16));
        assert_ne!(f(crate::MsgId(1)), f(crate::MsgId(2)));
    }

    /// Each way a value reaches the fingerprint (one per `Hasher` method the views use) moves
    /// both halves, and by what is written: a method that ignored its input, or wrote nothing,
    /// would make situations that differ there one.
    #[test]
    fn every_write_moves_both_halves_by_its_value() {
        fn after(write: impl Fn(&mut Fingerprint)) -> (u64, u64, u64) {
            let mut f = Fingerprint::default();
            write(&mut f);
            let whole = f.finish128();
            ((whole >> 64) as u64, whole as u64, f.finish())
        }
        let empty = after(|_| {});
        type Write = Box<dyn Fn(&mut Fingerprint, u8)>;
        let writes: [(&str, Write); 6] = [
            ("u8", Box::new(|f, i| f.write_u8(i))),
            ("u16", Box::new(|f, i| f.write_u16((u16::from(i) << 8) | 1))),
            (
                "u32",
                Box::new(|f, i| f.write_u32((u32::from(i) << 24) | 1)),
            ),
            (
                "u64",
                Box::new(|f, i| f.write_u64((u64::from(i) << 56) | 1)),
            ),
            (
                "usize",
                Box::new(|f, i| f.write_usize((usize::from(i) << 8) | 1)),
            ),
            (
                "bytes",
                Box::new(|f, i| f.write(&[1, 2, 3, 4, 5, 6, 7, 8, i])),
            ),
        ];
        for (what, write) in &writes {
            let one = after(|f| write(f, 1));
            let two = after(|f| write(f, 2));
            for (half, e, a, b) in [
                ("high", empty.0, one.0, two.0),
                ("low", empty.1, one.1, two.1),
                ("finish", empty.2, one.2, two.2),
            ] {
                assert_ne!(e, a, "{what}: the {half} half moves");
                assert_ne!(a, b, "{what}: the {half} half sees the value");
            }
        }
    }

    /// The fingerprint of nothing is fixed (its two seeds), and `finish` folds both halves:
    /// equal high halves with different low ones still finish apart.
    #[test]
    fn the_start_is_fixed_and_finish_folds_both_halves() {
        let f = Fingerprint::default();
        assert_eq!(f.finish128(), Fingerprint::default().finish128());
        assert_ne!(f.finish128() >> 64, 0);
        assert_ne!(f.finish128() as u64, 0);
        let whole = f.finish128();
        assert_eq!(f.finish(), (whole >> 64) as u64 ^ whole as u64);
    }

    /// The mix and the finish keep every bit as likely set as not (an OR in place of an XOR
    /// sets three bits in four), and the finish brings the top bit of what was written down
    /// into the low bits of both halves (a shift the wrong way would leave the low 32 bits
    /// blind to it, so a table indexed by them would not tell those situations apart).
    #[test]
    fn bits_stay_even_and_the_top_bit_reaches_the_low_ones() {
        let (mut mixed, mut high, mut low, mut n) = (0u32, 0u32, 0u32, 0u32);
        for i in 0..4096u64 {
            let w = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut f = Fingerprint::default();
            f.write_u64(w);
            mixed += f.b.count_ones();
            let whole = f.finish128();
            high += ((whole >> 64) as u64).count_ones();
            low += (whole as u64).count_ones();
            n += 1;
        }
        for (what, ones) in [
            ("the mix", mixed),
            ("the high half", high),
            ("the low half", low),
        ] {
            let mean = f64::from(ones) / f64::from(n);
            assert!(
                (31.0..=33.0).contains(&mean),
                "{what}: {mean:.2} of 64 bits set"
            );
        }
        for w in [0u64, 1, 0x1234_5678, u64::MAX >> 1] {
            let at = |w: u64| {
                let mut f = Fingerprint::default();
                f.write_u64(w);
                f.finish128()
            };
            let d = at(w) ^ at(w ^ (1 << 63));
            assert_ne!((d >> 64) as u32, 0, "{w:#x}: the high half's low bits");
            assert_ne!(d as u32, 0, "{w:#x}: the low half's low bits");
        }
    }

    /// A byte string's tail counts by its bytes and its length, for every tail length: eight
    /// bytes and seven bytes plus a zero differ, and so does every shorter tail from a longer.
    #[test]
    fn byte_tails_count_by_bytes_and_length() {
        fn bytes(b: &[u8]) -> u128 {
            let mut f = Fingerprint::default();
            f.write(b);
            f.finish128()
        }
        let mut seen = HashSet::new();
        for len in 0..=17 {
            assert!(seen.insert(bytes(&vec![0u8; len])), "{len} zero bytes");
        }
        assert_ne!(bytes(&[1, 0, 0]), bytes(&[0, 0, 1]));
    }
}
