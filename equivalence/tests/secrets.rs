//! Secret hygiene of every secret type, both tiers, all four schemes (issue 13, item 1),
//! and of the shared secret the three KEMs return:
//!
//! * **wiped on drop**: the key's memory no longer holds its secrets once it is
//!   dropped. Checked the way zeroize's own `tests/alloc.rs` does it: this test binary
//!   runs under a global allocator that, when a *watched* heap block is freed, copies
//!   its bytes before handing it back to the system. The key is boxed (so its inline
//!   fields live in a watched block), and every block its drop frees is watched (its
//!   `Vec`s and boxes, named nowhere here); after the drop the copies must not contain
//!   any of the secret patterns. A type that does not wipe (the control) is reported,
//!   so the check can fail.
//! * **`Debug` redacts**: `{:?}` of a key shows no secret byte (a derived `Debug`,
//!   the control, is reported).
//! * **equality through `subtle`**: `==` on secret types agrees with
//!   `subtle::ConstantTimeEq` and every part of the key decides it. That `==` takes no
//!   secret-dependent branch is not visible here (a derived `==` gives the same
//!   answers): memcheck checks it, `refopt-ctgrind` running each key type's `==` with
//!   the secrets undefined (docs/VERIFICATION.md, constant time).
//!
//! What this does not see: copies a move leaves on the stack, registers, and the
//! internal state of the `sha2`/`sha3` hashers (docs/VERIFICATION.md, "Secret
//! hygiene").
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, UnsafeCell};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use subtle_check::{assert_ct_eq, assert_each_part_decides};

/// Blocks kept of one drop (a drop that frees more fails the test).
const SLOTS: usize = 16;
/// Bytes kept of a freed block (a larger block fails the test: every key here is
/// smaller).
const SLOT_BYTES: usize = 1 << 14;

thread_local! {
    /// Set while this thread drops a watched value: every block it frees is copied.
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Blocks freed by the watched drop so far (may exceed `SLOTS`: then the test fails).
static FREED: AtomicUsize = AtomicUsize::new(0);
/// Address and size of the `i`-th block freed by the watched drop.
static ADDRESS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static SIZE: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];

struct Snapshots(UnsafeCell<[[u8; SLOT_BYTES]; SLOTS]>);
// SAFETY: slot i is written only by the i-th dealloc of a watched drop, on the thread
// that drops, and read only by that thread after the drop, under `SERIAL`.
unsafe impl Sync for Snapshots {}
static SNAPSHOTS: Snapshots = Snapshots(UnsafeCell::new([[0; SLOT_BYTES]; SLOTS]));

/// The system allocator, plus a copy of every block freed during a watched drop.
struct Watching;

// SAFETY: every call is forwarded to `System` with the same arguments; the copy reads
// the block being freed, which the caller still owns during `dealloc`. `WATCHING` is
// a const-initialized `Cell` without a destructor: reading it allocates nothing.
// `realloc` is left to `GlobalAlloc`'s default on purpose: it frees the old block
// through `dealloc`, so a buffer that grows during a watched drop is seen too.
unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !ptr.is_null() && WATCHING.try_with(Cell::get).unwrap_or(false) {
            let i = FREED.fetch_add(1, SeqCst);
            if i < SLOTS {
                // SAFETY: `ptr` is valid for `layout.size()` bytes until the
                // `System.dealloc` below; slot i belongs to this drop.
                unsafe {
                    let slot = SNAPSHOTS.0.get().cast::<u8>().add(i * SLOT_BYTES);
                    core::ptr::copy_nonoverlapping(ptr, slot, layout.size().min(SLOT_BYTES));
                }
                ADDRESS[i].store(ptr as usize, SeqCst);
                SIZE[i].store(layout.size(), SeqCst);
            }
        }
        // SAFETY: forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Watching = Watching;

/// Serializes the tests that watch drops (the slots are global).
static SERIAL: Mutex<()> = Mutex::new(());

/// Turns `WATCHING` off when dropped, also when the watched drop panics (else this
/// thread would go on writing the slots after `SERIAL` is released).
struct StopWatching;

impl Drop for StopWatching {
    fn drop(&mut self) {
        WATCHING.set(false);
    }
}

/// Drops `value` and returns what every heap block this thread freed during the drop
/// held at the moment it was freed: the box first, then the others in the order they
/// were freed (the blocks its fields owned, `Vec`s and boxes, and any the drop itself
/// allocated), so that a secret kept in a buffer the test does not name is still
/// seen. Each block in `heap` (a buffer the test knows the value owns) must be among
/// them.
fn bytes_when_freed<T>(value: Box<T>, heap: &[*const u8]) -> Vec<Vec<u8>> {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let boxed = &raw const *value as usize;
    FREED.store(0, SeqCst);
    {
        let _stop = StopWatching;
        WATCHING.set(true);
        drop(value);
    }
    let n = FREED.load(SeqCst);
    assert!(
        n <= SLOTS,
        "the drop freed {n} blocks, more than the {SLOTS} kept"
    );
    // SAFETY: slots 0..n were written by the deallocs above, and nothing writes them
    // until the next watch (we hold `SERIAL`).
    let slots: &[[u8; SLOT_BYTES]; SLOTS] = unsafe { &*SNAPSHOTS.0.get() };
    let mut blocks: Vec<(usize, Vec<u8>)> = (0..n)
        .map(|i| {
            let size = SIZE[i].load(SeqCst);
            assert!(
                size <= SLOT_BYTES,
                "a freed block of {size} bytes, more than the {SLOT_BYTES} kept"
            );
            (ADDRESS[i].load(SeqCst), slots[i][..size].to_vec())
        })
        .collect();
    for (i, &b) in heap.iter().enumerate() {
        assert!(
            blocks.iter().any(|(address, _)| *address == b as usize),
            "named block {i} was not freed by the drop"
        );
    }
    let at = blocks
        .iter()
        .position(|(address, _)| *address == boxed)
        .expect("the box was not freed by the drop");
    let boxed = blocks.remove(at);
    std::iter::once(boxed)
        .chain(blocks)
        .map(|(_, bytes)| bytes)
        .collect()
}

/// `bytes` with its first byte flipped: a key that differs from `bytes` in one place.
fn flip_first(bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    v[0] ^= 1;
    v
}

/// [`flip_first`] for a fixed-length key.
fn flip_first_array<const N: usize>(bytes: &[u8; N]) -> [u8; N] {
    let mut a = *bytes;
    a[0] ^= 1;
    a
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// The secrets (named byte patterns) do not survive in any freed block.
#[track_caller]
fn assert_wiped(what: &str, blocks: &[Vec<u8>], secrets: &[(&str, &[u8])]) {
    for (name, s) in secrets {
        assert!(
            s.len() >= 16 && s.iter().any(|&b| b != 0),
            "{what}: weak pattern {name}"
        );
        for (i, b) in blocks.iter().enumerate() {
            assert!(
                !contains(b, s),
                "{what}: {name} is still in block {i} after the drop"
            );
        }
    }
}

/// `{:?}` shows something (a redaction that prints nothing hides the public parts
/// too) and none of the secrets (as Rust prints bytes: decimal, comma-separated).
#[track_caller]
fn assert_redacted(what: &str, debug: &str, secrets: &[(&str, &[u8])]) {
    assert!(!debug.is_empty(), "{what}: Debug prints nothing");
    for (name, s) in secrets {
        // Without the brackets: the bytes may sit anywhere in a printed array.
        let dec = format!("{:?}", &s[..6]);
        let dec = dec.trim_start_matches('[').trim_end_matches(']');
        let (hex_lower, hex_upper) = (hex::encode(&s[..6]), hex::encode_upper(&s[..6]));
        assert!(
            !debug.contains(dec) && !debug.contains(&hex_lower) && !debug.contains(&hex_upper),
            "{what}: Debug shows {name}: {debug:.200}"
        );
    }
}

/// The detector works: a secret nobody wipes is found in the freed block, in a box, in
/// a `Vec` and in a box inside the box (a block the test names nowhere).
#[test]
fn control_an_unwiped_secret_is_reported() {
    let secret = [0x5au8; 32];
    let blocks = bytes_when_freed(Box::new(secret), &[]);
    assert!(contains(&blocks[0], &secret));
    let blocks = bytes_when_freed(Box::new(Box::new(secret)), &[]);
    assert_eq!(blocks.len(), 2);
    assert!(!contains(&blocks[0], &secret) && contains(&blocks[1], &secret));
    let v = Box::new(secret.to_vec());
    let heap = v.as_ptr();
    let blocks = bytes_when_freed(v, &[heap]);
    assert!(contains(&blocks[1], &secret));
    let r = std::panic::catch_unwind(|| assert_wiped("control", &blocks, &[("s", &secret)]));
    assert!(r.is_err(), "assert_wiped missed a secret left in memory");
    // A buffer the test names must be freed by the drop.
    let kept = Box::new([1u8; 8]);
    let named = kept.as_ptr();
    let r = std::panic::catch_unwind(|| bytes_when_freed(Box::new(secret), &[named]));
    assert!(
        r.is_err(),
        "a named block that outlived the drop was not reported"
    );
    // And a secret zeroize wipes is not found.
    let mut z = Box::new(zeroize::Zeroizing::new(secret));
    assert_eq!(**z, secret);
    z[0] ^= 1;
    let blocks = bytes_when_freed(z, &[]);
    assert!(!contains(&blocks[0], &secret[1..]));
}

mod mlkem {
    use super::*;
    use equivalence::mlkem::Variant;
    use reference::mlkem::{ALL, DecapsulationKey, KeyPair};

    #[test]
    fn key_pair_and_decapsulation_key_are_wiped_redacted_and_ct_eq() {
        for p in ALL {
            let z = [0xa7u8; 32];
            let mut d = [0u8; 32];
            d[..4].copy_from_slice(b"seed");
            for v in Variant::ALL {
                let kp = v.keygen_internal(p, &d, &z);
                let dk = kp.dk().to_vec();
                let s_bytes = &dk[..32];
                let what = format!("{} {} KeyPair", p.name(), v.name());
                assert_redacted(&what, &format!("{kp:?}"), &[("ŝ", s_bytes), ("z", &z)]);
                assert_ct_eq(&kp, &kp.clone(), &v.keygen_internal(p, &z, &d));
                let ek_changed = KeyPair::from_parts(flip_first(kp.ek()), kp.dk().to_vec());
                let dk_changed = KeyPair::from_parts(kp.ek().to_vec(), flip_first(kp.dk()));
                assert_each_part_decides(&kp, &[ek_changed, dk_changed]);
                let heap = kp.dk().as_ptr();
                let blocks = bytes_when_freed(Box::new(kp), &[heap]);
                assert_wiped(&what, &blocks, &[("ŝ (encoded)", s_bytes), ("z", &z)]);

                // The parsed key holds ŝ decoded (12-bit coefficients as u16), z and
                // the encoded key.
                let key = DecapsulationKey::from_bytes(p, &dk).expect("valid key");
                let s_coeffs: Vec<u8> = (0..8)
                    .flat_map(|i| {
                        let b = &dk[3 * i..3 * i + 3];
                        let c0 = u16::from(b[0]) | (u16::from(b[1] & 0xf) << 8);
                        let c1 = u16::from(b[1] >> 4) | (u16::from(b[2]) << 4);
                        [c0, c1]
                    })
                    .flat_map(u16::to_le_bytes)
                    .collect();
                let what = format!("{} {} DecapsulationKey", p.name(), v.name());
                assert_redacted(&what, &format!("{key:?}"), &[("ŝ", s_bytes), ("z", &z)]);
                let other = DecapsulationKey::from_bytes(p, v.keygen_internal(p, &z, &d).dk())
                    .expect("valid key");
                assert_ct_eq(&key, &key.clone(), &other);
                // `==` compares the encoded keys: that the clone's own ŝ and z were
                // copied shows in what it decapsulates (a real and a changed
                // ciphertext: K, and the implicit rejection's J(z ‖ c)).
                let ek = &dk[384 * p.k()..768 * p.k() + 32];
                let (mut c, _) = v.encaps_internal(p, ek, &[9; 32]).expect("valid ek");
                let copy = key.clone();
                for _ in 0..2 {
                    assert_eq!(
                        v.decapsulate(&copy, &c).expect("valid c"),
                        v.decapsulate(&key, &c).expect("valid c"),
                        "{what}: the clone decapsulates differently"
                    );
                    c[0] ^= 1;
                }
                drop(copy);
                let heap = key.as_bytes().as_ptr();
                let blocks = bytes_when_freed(Box::new(key), &[heap]);
                assert_wiped(
                    &what,
                    &blocks,
                    &[
                        ("ŝ (decoded)", &s_coeffs),
                        ("ŝ (encoded)", s_bytes),
                        ("z", &z),
                    ],
                );
            }
        }
    }
}

mod sntrup761 {
    use super::*;
    use equivalence::sntrup761::Variant;
    use reference::rng::ChaCha20Source;
    use reference::sntrup761::{KeyPair, PUBLIC_KEY_BYTES, SMALL_BYTES};

    #[test]
    fn key_pair_is_wiped_redacted_and_ct_eq() {
        for v in Variant::ALL {
            let kp = v.keypair(&mut ChaCha20Source::new([3; 32]));
            let sk = kp.sk().to_vec();
            let rho_at = 2 * SMALL_BYTES + PUBLIC_KEY_BYTES;
            let secrets: [(&str, &[u8]); 3] = [
                ("f", &sk[..32]),
                ("1/g", &sk[SMALL_BYTES..SMALL_BYTES + 32]),
                ("ρ", &sk[rho_at..rho_at + 32]),
            ];
            let what = format!("sntrup761 {} KeyPair", v.name());
            let debug = format!("{kp:?}");
            assert!(
                debug.len() < 200,
                "{what}: Debug is {} characters",
                debug.len()
            );
            assert_redacted(&what, &debug, &secrets);
            let other = v.keypair(&mut ChaCha20Source::new([4; 32]));
            assert_ct_eq(&kp, &kp.clone(), &other);
            let pk_changed = KeyPair::from_parts(flip_first_array(kp.pk()), kp.sk());
            let sk_changed = KeyPair::from_parts(*kp.pk(), &flip_first_array(kp.sk()));
            assert_each_part_decides(&kp, &[pk_changed, sk_changed]);
            let heap = kp.sk().as_ptr();
            let blocks = bytes_when_freed(Box::new(kp), &[heap]);
            assert_wiped(&what, &blocks, &secrets);
        }
    }
}

mod ntruhps2048509 {
    use super::*;
    use equivalence::ntruhps2048509::Variant;
    use reference::ntruhps2048509::KeyPair;
    use reference::ntruhps2048509::params::{
        OWCPA_SECRETKEYBYTES, PACK_TRINARY_BYTES, PRFKEYBYTES, SAMPLE_FG_BYTES,
    };

    #[test]
    fn key_pair_is_wiped_redacted_and_ct_eq() {
        let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let prf = [0x3cu8; PRFKEYBYTES];
        for v in Variant::ALL {
            let kp = v.keypair_derand(&seed, &prf).expect("f ≠ 0");
            let sk = *kp.sk();
            let secrets: [(&str, &[u8]); 4] = [
                ("f", &sk[..32]),
                ("fp", &sk[PACK_TRINARY_BYTES..PACK_TRINARY_BYTES + 32]),
                (
                    "hq",
                    &sk[2 * PACK_TRINARY_BYTES..2 * PACK_TRINARY_BYTES + 32],
                ),
                ("PRF key", &sk[OWCPA_SECRETKEYBYTES..]),
            ];
            let what = format!("ntruhps2048509 {} KeyPair", v.name());
            assert_redacted(&what, &format!("{kp:?}"), &secrets);
            let mut seed2 = seed;
            seed2[0] ^= 1;
            let other = v.keypair_derand(&seed2, &prf).expect("f ≠ 0");
            assert_ct_eq(&kp, &kp.clone(), &other);
            let pk_changed = KeyPair::from_parts(flip_first_array(kp.pk()), kp.sk());
            let sk_changed = KeyPair::from_parts(*kp.pk(), &flip_first_array(kp.sk()));
            assert_each_part_decides(&kp, &[pk_changed, sk_changed]);
            let heap = kp.sk().as_ptr();
            let blocks = bytes_when_freed(Box::new(kp), &[heap]);
            assert_wiped(&what, &blocks, &secrets);
        }
    }
}

mod ed25519 {
    use super::*;
    use equivalence::ed25519::Variant;
    use sha2::{Digest, Sha512};

    #[test]
    fn signing_key_is_wiped_redacted_and_ct_eq() {
        let seed: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0x9c);
        let h: [u8; 64] = Sha512::digest(seed).into();
        let mut s = [0u8; 32];
        s.copy_from_slice(&h[..32]);
        s[0] &= 248;
        s[31] &= 127;
        s[31] |= 64;
        let secrets: [(&str, &[u8]); 3] = [
            ("seed", &seed),
            ("expanded scalar s", &s),
            ("nonce prefix", &h[32..]),
        ];
        for v in Variant::ALL {
            let key = v.keygen(&seed).expect("32-byte seed");
            let what = format!("ed25519 {} SigningKey", v.name());
            assert_redacted(&what, &format!("{key:?}"), &secrets);
            assert_ct_eq(&key, &key.clone(), &v.keygen(&[1; 32]).expect("seed"));
            // `==` compares the seeds: that the clone's own s and prefix were copied
            // shows in its signatures.
            assert_eq!(
                v.sign(&key.clone(), b"clone"),
                v.sign(&key, b"clone"),
                "{what}: the clone signs differently"
            );
            let heap = key.seed().as_ptr();
            let blocks = bytes_when_freed(Box::new(key), &[heap]);
            // The scalar s is stored as little-endian u64 limbs: the same bytes.
            assert_wiped(&what, &blocks, &secrets);
        }
    }
}

/// The shared secret every KEM returns from encapsulation and decapsulation, both
/// tiers: redacted in `Debug`, `==` through `subtle` with every byte deciding, wiped
/// on drop.
#[test]
fn shared_secrets_are_wiped_redacted_and_ct_eq() {
    use reference::SharedSecret;
    use reference::rng::ChaCha20Source;
    let mut keys: Vec<(String, SharedSecret, SharedSecret)> = Vec::new();
    for v in equivalence::mlkem::Variant::ALL {
        let p = &reference::mlkem::ML_KEM_768;
        let kp = v.keygen_internal(p, &[1; 32], &[2; 32]);
        let (c, k) = v.encaps_internal(p, kp.ek(), &[3; 32]).expect("valid ek");
        let k_dec = v.decaps(p, kp.dk(), &c).expect("valid dk and c");
        assert_eq!(k_dec, k);
        let (_, other) = v.encaps_internal(p, kp.ek(), &[4; 32]).expect("valid ek");
        keys.push((format!("ML-KEM-768 {}", v.name()), k, other));
    }
    for v in equivalence::sntrup761::Variant::ALL {
        let mut rng = ChaCha20Source::new([5; 32]);
        let kp = v.keypair(&mut rng);
        let (c, k) = v.encapsulate(kp.pk(), &mut rng).expect("valid pk");
        assert_eq!(v.decapsulate(kp.sk(), &c).expect("right lengths"), k);
        let (_, other) = v.encapsulate(kp.pk(), &mut rng).expect("valid pk");
        keys.push((format!("sntrup761 {}", v.name()), k, other));
    }
    for v in equivalence::ntruhps2048509::Variant::ALL {
        use reference::ntruhps2048509::params::{PRFKEYBYTES, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES};
        let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let kp = v.keypair_derand(&seed, &[6; PRFKEYBYTES]).expect("f ≠ 0");
        let (c, k) = v
            .encaps_derand(kp.pk(), &[7; SAMPLE_RM_BYTES])
            .expect("699-byte pk");
        assert_eq!(v.decaps(kp.sk(), &c).expect("right lengths"), k);
        let (_, other) = v
            .encaps_derand(kp.pk(), &[8; SAMPLE_RM_BYTES])
            .expect("699-byte pk");
        keys.push((format!("ntruhps2048509 {}", v.name()), k, other));
    }
    for (what, k, other) in keys {
        let bytes = *k.as_bytes();
        let what = format!("{what} SharedSecret");
        assert_redacted(&what, &format!("{k:?}"), &[("K", &bytes)]);
        assert_ct_eq(&k, &k.clone(), &other);
        let changed: Vec<SharedSecret> = (0..bytes.len())
            .map(|i| {
                let mut b = bytes;
                b[i] ^= 1;
                SharedSecret::from(b)
            })
            .collect();
        assert_each_part_decides(&k, &changed);
        let blocks = bytes_when_freed(Box::new(k), &[]);
        assert_wiped(&what, &blocks, &[("K", &bytes)]);
    }
}

/// The redaction check works: a derived `Debug`, which prints the bytes, is reported,
/// and so is one printing them as upper-case hex.
#[test]
fn control_a_leaking_debug_is_reported() {
    #[derive(Debug)]
    struct Leaky(#[allow(dead_code)] [u8; 32]);
    let secret: [u8; 32] = core::array::from_fn(|i| 0xa0 + i as u8);
    let shown = [format!("{:?}", Leaky(secret)), hex::encode_upper(secret)];
    for debug in shown {
        let caught = std::panic::catch_unwind(|| {
            assert_redacted("control", &debug, &[("the secret", &secret)]);
        });
        assert!(
            caught.is_err(),
            "a Debug showing the secret passed: {debug:.80}"
        );
    }
}

/// `==` of a secret type agrees with `ConstantTimeEq::ct_eq` (see the module docs for
/// what this cannot see).
mod subtle_check {
    use subtle::ConstantTimeEq;

    #[track_caller]
    pub(crate) fn assert_ct_eq<T: ConstantTimeEq + PartialEq>(a: &T, same: &T, other: &T) {
        assert!(bool::from(a.ct_eq(same)) && a == same);
        assert!(!bool::from(a.ct_eq(other)) && a != other);
    }

    /// Each of `changed` differs from `a` in one part only (the public key, the
    /// secret key): every part must decide, so each compares unequal. (`other` above
    /// differs in every part, so a comparison that combined the parts with `|` would
    /// pass there.)
    #[track_caller]
    pub(crate) fn assert_each_part_decides<T: ConstantTimeEq + PartialEq>(a: &T, changed: &[T]) {
        for (i, c) in changed.iter().enumerate() {
            assert!(!bool::from(a.ct_eq(c)) && a != c, "part {i} did not decide");
        }
    }
}

/// A random source's `Debug` shows none of the bytes it will give out next (its
/// buffered ChaCha20 block is the next key generation's seed material).
#[test]
fn random_source_debug_shows_no_keystream() {
    use reference::rng::{ChaCha20Source, RandomSource};
    let mut src = ChaCha20Source::new([7; 32]);
    let mut first = [0u8; 4];
    src.fill(&mut first);
    let mut next = [0u8; 6];
    src.clone().fill(&mut next);
    assert_redacted(
        "ChaCha20Source",
        &format!("{src:?}"),
        &[("the next keystream bytes", &next)],
    );
}

/// The byte-stream sources print no byte they hold: a [`Tape`] holds what a key
/// generation drew (its seeds), a [`Replay`] the seeds it will hand out, and
/// sntrup761's `Bytes` wrapper prints the source it wraps.
///
/// [`Tape`]: reference::rng::Tape
/// [`Replay`]: reference::rng::Replay
#[test]
fn byte_stream_debug_shows_no_byte() {
    use reference::rng::{ChaCha20Source, RandomSource, Replay, Tape};
    let seed: Vec<u8> = (0xa0..0xb0).collect();
    let mut replay = Replay::new(seed.clone());
    assert_redacted(
        "Replay",
        &format!("{replay:?}"),
        &[("the replayed bytes", &seed)],
    );
    let mut first = [0u8; 2];
    replay.fill(&mut first);
    let wrapped = reference::sntrup761::random::Bytes(&mut replay);
    assert_redacted(
        "sntrup761 Bytes(Replay)",
        &format!("{wrapped:?}"),
        &[("the bytes still to replay", &seed[2..])],
    );
    let mut tape = Tape::new(ChaCha20Source::new([9; 32]));
    let mut drawn = [0u8; 16];
    tape.fill(&mut drawn);
    assert_redacted("Tape", &format!("{tape:?}"), &[("the taped bytes", &drawn)]);
}

/// The value types that carry secrets inside the schemes (ML-KEM's s, e, y as `Poly`
/// and `NttPoly`, NTRU's f, g and their inverses as `Poly`, Ed25519's selected table
/// entry and running sum as `Point`) print no coefficient: a `{:?}` in a log or a
/// failed assertion must not leak one.
#[test]
fn secret_carrying_values_debug_shows_no_coefficient() {
    use reference::{ed25519, mlkem, ntruhps2048509};
    // Distinctive values: printed as Rust prints arrays, they would show as "1234, 1235".
    let ml = mlkem::ntt::Poly(core::array::from_fn(|i| 1234 + i as u16));
    let ml_ntt = mlkem::ntt::NttPoly(ml.0);
    let mut ntru = ntruhps2048509::poly::Poly::default();
    for (i, c) in ntru.0.iter_mut().enumerate() {
        *c = 1234 + i as u16;
    }
    let fe = [1234, 1235, 1236, 1237];
    let point = ed25519::point::Point {
        x: fe,
        y: fe,
        z: fe,
    };
    for (what, debug) in [
        ("ML-KEM Poly", format!("{ml:?}")),
        ("ML-KEM NttPoly", format!("{ml_ntt:?}")),
        ("NTRU Poly", format!("{ntru:?}")),
        ("Ed25519 Point", format!("{point:?}")),
    ] {
        assert!(
            !debug.contains("1234") && !debug.contains("1235") && debug.ends_with("{ .. }"),
            "{what}: Debug shows coefficients: {debug:.200}"
        );
    }
}

/// `Point::zeroize`, with which the constant-time scalar multiplication wipes the
/// table entry it selected and that entry's negation, clears every coordinate.
#[test]
fn ed25519_point_zeroize_clears_every_coordinate() {
    use reference::ed25519::point::Point;
    use zeroize::Zeroize as _;
    let fe = [1234, 1235, 1236, 1237];
    let mut point = Point {
        x: fe,
        y: fe,
        z: fe,
    };
    point.zeroize();
    assert_eq!(
        point,
        Point {
            x: [0; 4],
            y: [0; 4],
            z: [0; 4],
        },
        "a coordinate survived Point::zeroize"
    );
}

/// The random sources wipe what they hold when dropped: `ChaCha20Source` its key and
/// the buffered keystream (the generator's own buffer included), `NistDrbg` its whole
/// state, `Tape` and `Replay` the bytes they hold (key seeds, when a key generation
/// drew them).
#[test]
fn random_sources_are_wiped_on_drop() {
    use reference::drbg::NistDrbg;
    use reference::rng::{ChaCha20Source, RandomSource, Replay, Tape};
    let seed = [0x3bu8; 32];
    let mut src = ChaCha20Source::new(seed);
    let mut first = [0u8; 4];
    src.fill(&mut first);
    let mut next = [0u8; 60];
    src.clone().fill(&mut next);
    let blocks = bytes_when_freed(Box::new(src), &[]);
    assert_wiped(
        "ChaCha20Source",
        &blocks,
        &[
            ("its key", &seed),
            ("the next keystream bytes", &next[..32]),
        ],
    );

    let mut drbg = NistDrbg::new(&[0x5c; 48], None);
    drbg.fill(&mut [0u8; 40]);
    let blocks = bytes_when_freed(Box::new(drbg), &[]);
    assert!(
        blocks[0].iter().all(|&b| b == 0),
        "NistDrbg: its key or counter is still in the freed box"
    );

    let mut tape = Tape::new(ChaCha20Source::new([0x11; 32]));
    let mut taped = [0u8; 48];
    tape.fill(&mut taped);
    let heap = tape.bytes().as_ptr();
    let blocks = bytes_when_freed(Box::new(tape), &[heap]);
    assert_wiped("Tape", &blocks, &[("the taped bytes", &taped)]);

    // A buffer the tape outgrows is wiped before it is freed: the drop below makes a
    // second draw (which moves the taped bytes to a larger buffer), so the first
    // buffer is freed by the drop too.
    struct GrowThenDrop(Tape<ChaCha20Source>);
    impl Drop for GrowThenDrop {
        fn drop(&mut self) {
            self.0.fill(&mut [0u8; 64]);
        }
    }
    let mut tape = Tape::new(ChaCha20Source::new([0x11; 32]));
    tape.fill(&mut taped);
    let heap = tape.bytes().as_ptr();
    let blocks = bytes_when_freed(Box::new(GrowThenDrop(tape)), &[heap]);
    assert_wiped("Tape, outgrown", &blocks, &[("the taped bytes", &taped)]);

    let bytes = taped.to_vec();
    let heap = bytes.as_ptr();
    let blocks = bytes_when_freed(Box::new(Replay::new(bytes)), &[heap]);
    assert_wiped("Replay", &blocks, &[("the replayed bytes", &taped)]);
}
