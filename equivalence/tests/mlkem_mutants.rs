//! The ML-KEM checks can fail: plausible wrong "optimizations" of `encrypt_u` are
//! caught by the kernel pair within a few cases, and by the KAT.

use equivalence::kat::{self, KatKem};
use equivalence::mlkem::EncryptU;
use equivalence::pair::Pair;
use equivalence::registry;
use reference::RandomSource;
use reference::mlkem::ntt::{inverse_ntt, multiply_ntts, ntt_add, poly_add};
use reference::mlkem::{self as r, Kernels, Matrix, NttPoly, Poly};

/// Uses Â instead of Âᵀ.
struct Transposed;
impl Kernels for Transposed {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        for i in 0..k {
            let mut acc = NttPoly::ZERO;
            for j in 0..k {
                acc = ntt_add(&acc, &multiply_ntts(&a[i][j], &y_hat[j]));
            }
            u[i] = poly_add(&e1[i], &inverse_ntt(&acc));
        }
    }
}

/// Forgets the last column of the sum.
struct DropsLastTerm;
impl Kernels for DropsLastTerm {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        for i in 0..k {
            let mut acc = NttPoly::ZERO;
            for j in 0..k - 1 {
                acc = ntt_add(&acc, &multiply_ntts(&a[j][i], &y_hat[j]));
            }
            u[i] = poly_add(&e1[i], &inverse_ntt(&acc));
        }
    }
}

/// Sums without reduction, then subtracts q at most once: wrong once the sum of the
/// k products reaches 2q (a plausible "lazy reduction" slip).
struct LazySum;
impl Kernels for LazySum {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        for i in 0..k {
            let mut acc = [0u16; 256];
            for j in 0..k {
                let p = multiply_ntts(&a[j][i], &y_hat[j]);
                for (s, x) in acc.iter_mut().zip(p.0) {
                    *s = s.wrapping_add(x);
                }
            }
            let acc = NttPoly(acc.map(|x| if x >= 3329 { x - 3329 } else { x }));
            u[i] = poly_add(&e1[i], &inverse_ntt(&acc));
        }
    }
}

fn caught(pair: &dyn Pair) -> usize {
    let t = registry::check(pair, 0, 512, None, |_| {});
    assert!(
        t.mismatches > 0,
        "{}: the mutant was not caught",
        pair.name()
    );
    t.first_mismatch
        .map(|(i, _, _)| i as usize)
        .unwrap_or(usize::MAX)
}

#[test]
fn kernel_pair_catches_mutants() {
    assert!(caught(&EncryptU::<Transposed>::new()) < 8);
    assert!(caught(&EncryptU::<DropsLastTerm>::new()) < 8);
    assert!(caught(&EncryptU::<LazySum>::new()) < 64);
}

struct KatWith<K>(core::marker::PhantomData<K>);
impl<K: Kernels> KatKem for KatWith<K> {
    fn algname(&self) -> &'static str {
        "ML-KEM-768"
    }
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        let kp = r::keygen(&r::ML_KEM_768, &mut &mut *rng);
        (kp.ek().to_vec(), kp.dk().to_vec())
    }
    fn enc(
        &self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, Vec<u8>), reference::Error> {
        let mut m = [0u8; 32];
        rng.fill(&mut m);
        let (c, k) = r::encaps_internal::<K>(&r::ML_KEM_768, pk, &m)?;
        Ok((c, k.as_bytes().to_vec()))
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, reference::Error> {
        Ok(r::decaps::<K>(&r::ML_KEM_768, sk, ct)?.as_bytes().to_vec())
    }
}

/// The published KAT rejects every mutant (through a wrong hash or a failed
/// decapsulation), while the real optimized kernel reproduces it. With debug
/// assertions on (`cargo test`), the kernel contract `encrypt_u_ensures` (u equals the
/// k²-inverse-NTT computation), checked around every `encrypt_u` call in K-PKE, must
/// reject the mutant first (so the contract is shown firing); in release builds the
/// KAT hash must differ.
#[test]
fn kat_rejects_the_mutants() {
    let published = "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3";
    let good = KatWith::<optimized::mlkem::Optimized>(core::marker::PhantomData);
    assert_eq!(kat::kat0_sha256(&good).as_deref(), Ok(published));
    rejected::<Transposed>(published, "Transposed");
    rejected::<DropsLastTerm>(published, "DropsLastTerm");
}

fn rejected<K: Kernels + 'static>(published: &str, name: &str) {
    let run =
        std::panic::catch_unwind(|| kat::kat0_sha256(&KatWith::<K>(core::marker::PhantomData)));
    match run {
        Ok(hash) => {
            if cfg!(debug_assertions) {
                panic!("{name}: the debug contract encrypt_u_ensures did not fire");
            }
            assert_ne!(
                hash.as_deref(),
                Ok(published),
                "{name}: the KAT accepted it"
            );
        }
        Err(panic) => {
            let msg = registry::panic_message(panic.as_ref());
            assert!(
                cfg!(debug_assertions) && msg.contains("encrypt_u_ensures"),
                "{name}: unexpected panic {msg}"
            );
        }
    }
}
