//! NIST's AES-256-CTR-DRBG from the PQC submission package (`rng.c`), used to
//! regenerate `PQCgenKAT_kem` known-answer files.
//!
//! SP 800-90A CTR_DRBG with AES-256, no derivation function, no reseeding. State:
//! `key` (32 bytes) and `v` (16 bytes, a big-endian counter).
//!
//! Not call-boundary invariant: each [`NistDrbg::randombytes`] call encrypts
//! ceil(n/16) counter blocks, drops the unused tail of the last one and then re-keys.

use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use zeroize::Zeroize;

use crate::rng::RandomSource;

/// NIST PQC KAT deterministic random bit generator.
#[derive(Clone)]
pub struct NistDrbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl core::fmt::Debug for NistDrbg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("NistDrbg { .. }")
    }
}

/// Wipes the state (whoever has it can produce every later output).
impl Drop for NistDrbg {
    fn drop(&mut self) {
        self.key.zeroize();
        self.v.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for NistDrbg {}

fn increment(v: &mut [u8; 16]) {
    // 128-bit big-endian counter, as rng.c's byte loop does.
    let n = u128::from_be_bytes(*v).wrapping_add(1);
    *v = n.to_be_bytes();
}

impl NistDrbg {
    /// `randombytes_init(entropy_input, personalization_string, 256)`.
    pub fn new(entropy: &[u8; 48], personalization: Option<&[u8; 48]>) -> Self {
        let mut seed = *entropy;
        if let Some(p) = personalization {
            for (s, x) in seed.iter_mut().zip(p) {
                *s ^= x;
            }
        }
        let mut drbg = Self {
            key: [0; 32],
            v: [0; 16],
        };
        drbg.update(Some(&seed));
        seed.zeroize();
        drbg
    }

    /// The cipher under the current key (its key schedule is wiped when it drops:
    /// `aes`'s `zeroize` feature).
    fn cipher(&self) -> Aes256 {
        // The key as the cipher takes it: a copy, wiped once the schedule is built.
        let mut key = aes::cipher::Key::<Aes256>::from(self.key);
        let cipher = Aes256::new(&key);
        key.zeroize();
        cipher
    }

    /// `AES256_CTR_DRBG_Update`.
    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let cipher = self.cipher();
        let mut temp = [0u8; 48];
        for chunk in temp.chunks_exact_mut(16) {
            increment(&mut self.v);
            let mut block = aes::Block::from(self.v);
            cipher.encrypt_block(&mut block);
            chunk.copy_from_slice(&block);
            block.zeroize();
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
        // The next key and counter.
        temp.zeroize();
    }

    /// `randombytes(x, xlen)`: one call, then a re-key.
    pub fn randombytes(&mut self, out: &mut [u8]) {
        let cipher = self.cipher();
        for chunk in out.chunks_mut(16) {
            increment(&mut self.v);
            let mut block = aes::Block::from(self.v);
            cipher.encrypt_block(&mut block);
            chunk.copy_from_slice(&block[..chunk.len()]);
            // Keystream, including the dropped tail of the last block.
            block.zeroize();
        }
        self.update(None);
    }
}

impl RandomSource for NistDrbg {
    fn fill(&mut self, dst: &mut [u8]) {
        self.randombytes(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first seed of every PQCgenKAT_kem file: the outer DRBG is initialised with
    /// entropy 00..2f and its first 48 bytes are `count = 0`'s seed. The expected value
    /// is the `seed =` line of the published KAT files (../shared/vectors/kat0).
    #[test]
    fn first_kat_seed() {
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        let mut d = NistDrbg::new(&entropy, None);
        let mut seed = [0u8; 48];
        d.randombytes(&mut seed);
        assert_eq!(
            hex::encode_upper(seed),
            "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"
        );
    }

    #[test]
    fn not_call_boundary_invariant() {
        let mut a = NistDrbg::new(&[0; 48], None);
        let mut b = a.clone();
        let mut one = [0u8; 32];
        a.fill(&mut one);
        let mut two = [0u8; 32];
        b.fill(&mut two[..16]);
        b.fill(&mut two[16..]);
        assert_eq!(one[..16], two[..16]);
        assert_ne!(one[16..], two[16..]);
    }
}
