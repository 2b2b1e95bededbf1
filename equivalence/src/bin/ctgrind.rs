//! Constant-time checks, two of them, each seeing what the other cannot:
//!
//! 1. **Memcheck** (`refopt-ctgrind [--inputs N] [--scheme S]`, run under valgrind):
//!    runs both tiers of every scheme on many inputs per operation (random ones and
//!    edge cases: all-zero and all-0xff randomness and keys, extreme secret
//!    coefficients, rejecting ciphertexts) with their secrets marked *undefined*
//!    through memcheck client requests. Memcheck then reports every conditional jump
//!    or move and every memory address computed from a secret. It does **not** see
//!    divisions: an instruction whose time depends on its operands but whose result
//!    is used without a branch passes unreported.
//! 2. **The division scan** (`refopt-ctgrind scan-divisions [BINARY]`, run natively):
//!    disassembles a release binary (this one by default) with `objdump` and reports
//!    every integer division (`div`, `idiv`) in a secret-handling function, that is a
//!    function of the workspace crates or of the hash crates they feed secrets to
//!    ([`divscan::SCOPE`]), unless the allow-list ([`divscan::ALLOWED`]) says why that
//!    division only sees public values.
//!
//! ```text
//! cargo build --release -p equivalence --features ctgrind --bin refopt-ctgrind
//! valgrind --error-exitcode=1 --track-origins=yes target/release/refopt-ctgrind
//! target/release/refopt-ctgrind scan-divisions
//! ```
//!
//! Each is shown to fail on a planted bug (`reference::plant`, section "constant-time
//! checks"; `.ci/ct.sh`): an early-exit comparison in ML-KEM decapsulation for
//! memcheck, a hardware division in `Compress` (KyberSlash) for the scan.
//!
//! Outside valgrind the client requests are no-ops and the first check only runs the
//! code. Values the schemes publish although they derive from secrets (ML-KEM's ρ, the
//! sntrup761 key-generation retry verdict) are declassified at their source with
//! `reference::ct::declassify`, which says why.

use std::hint::black_box;
use std::process::ExitCode;

use reference::rng::ChaCha20Source;
use reference::valgrind::{mark_public, mark_secret};
use reference::{RandomSource, SharedSecret};

/// How many inputs of each kind ran, for the summary line of a scheme.
#[derive(Default)]
struct Tally(Vec<(&'static str, usize)>);

impl Tally {
    fn add(&mut self, op: &'static str) {
        match self.0.iter_mut().find(|(o, _)| *o == op) {
            Some((_, n)) => *n += 1,
            None => self.0.push((op, 1)),
        }
    }
    fn report(&self, scheme: &str, configs: &str) {
        let ops: Vec<String> = self.0.iter().map(|(o, n)| format!("{o} {n}")).collect();
        println!(
            "{scheme} ({configs}): {} operations run with secrets undefined",
            ops.join(", ")
        );
    }
}

/// A deterministic 32-byte seed for input `i` of kind `tag`.
fn seed(tag: u8, i: usize) -> [u8; 32] {
    let mut s = [tag; 32];
    s[..8].copy_from_slice(&(i as u64).to_le_bytes());
    s
}

/// `n` pseudo-random bytes (public: the harness's own choice of input).
fn random_bytes(tag: u8, i: usize, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    ChaCha20Source::new(seed(tag, i)).fill(&mut v);
    v
}

/// A random source whose every byte is secret: a ChaCha20 stream, or a constant byte
/// (the all-zero and all-0xff edge cases).
enum SecretSource {
    Stream(Box<ChaCha20Source>),
    Constant(u8),
}

impl SecretSource {
    fn stream(seed: [u8; 32]) -> Self {
        SecretSource::Stream(Box::new(ChaCha20Source::new(seed)))
    }
}

impl RandomSource for SecretSource {
    fn fill(&mut self, dst: &mut [u8]) {
        match self {
            SecretSource::Stream(s) => s.fill(dst),
            SecretSource::Constant(b) => dst.fill(*b),
        }
        mark_secret(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
    }
}

/// Secret sources for the operations that draw their own randomness: a random stream
/// from `stream_seed`, then the all-zero and all-0xff constants.
fn secret_sources(stream_seed: [u8; 32]) -> [SecretSource; 3] {
    [
        SecretSource::stream(stream_seed),
        SecretSource::Constant(0),
        SecretSource::Constant(0xff),
    ]
}

/// Random inputs, then the all-zero and all-0xff ones: `inputs + 2` values.
fn with_edges(inputs: usize, random: impl Fn(usize) -> Vec<u8>, len: usize) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = (0..inputs).map(random).collect();
    v.push(vec![0; len]);
    v.push(vec![0xff; len]);
    v
}

/// Which ciphertext byte the tampered input changes: below 512, inside every
/// ciphertext (the shortest, NTRU's, has 699 bytes); no division (the scan would see
/// it in this harness too).
fn flip_position(i: usize) -> usize {
    (37 * i + 3) & 511
}

/// Ciphertexts to decapsulate: the honest one, a one-bit change, all-zero, all-0xff
/// and a random string (the last four are rejected).
fn ciphertexts(honest: &[u8], flip_at: usize, i: usize) -> Vec<(&'static str, Vec<u8>)> {
    let mut tampered = honest.to_vec();
    tampered[flip_at] ^= 1;
    vec![
        ("honest", honest.to_vec()),
        ("tampered", tampered),
        ("zero", vec![0; honest.len()]),
        ("0xff", vec![0xff; honest.len()]),
        ("random", random_bytes(0xc7, i, honest.len())),
    ]
}

/// The harness's own check that decapsulation of an honest ciphertext gave the
/// encapsulated key (keys from edge-case randomness are not checked: an all-zero NTRU
/// seed, say, gives no working key), on declassified copies, so the comparison is not
/// reported.
fn declassified_eq(got: &SharedSecret, want: &SharedSecret, what: &str) {
    let (mut a, mut b) = (*got.as_bytes(), *want.as_bytes());
    mark_public(&a);
    mark_public(&b);
    // Read back through the escaped references: the compiler may not reuse an
    // earlier (undefined) copy of the same bytes.
    let (a, b) = (black_box(&mut a), black_box(&mut b));
    assert_eq!(*a, *b, "{what}: decapsulation");
}

/// `==` on a secret key type or a shared secret (its `ConstantTimeEq`) with a copy of
/// itself, while its secrets are undefined. The verdict stays undefined (nothing here
/// branches on it).
fn compare_secret<T: Clone + PartialEq>(key: &T, t: &mut Tally) {
    let copy = key.clone();
    black_box(black_box(key) == black_box(&copy));
    t.add("==");
}

/// The portable four-way Keccak-f[1600] on secret states (ML-KEM's PRF absorbs σ and
/// the seeds through it when the CPU has no AVX2; on an AVX2 machine the ML-KEM runs
/// above take the AVX2 path, and this is the only run of the portable one).
fn keccak_x4_portable(inputs: usize, t: &mut Tally) {
    use reference::keccak_x4::{StateX4, f1600_x4_portable};
    for bytes in with_edges(inputs, |i| random_bytes(0x4b, i, 800), 800) {
        // Undefined bytes give undefined lanes.
        mark_secret(&bytes);
        let mut s: StateX4 = [[0; 4]; 25];
        for (lane, b) in s.iter_mut().flatten().zip(bytes.chunks_exact(8)) {
            *lane = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        }
        f1600_x4_portable(&mut s);
        black_box(&s);
        t.add("keccak-x4-portable");
    }
}

fn mlkem(inputs: usize) {
    use equivalence::mlkem::Variant;
    use reference::mlkem::ALL;
    use sha3::Digest;
    let mut t = Tally::default();
    for p in ALL {
        let k = p.k();
        let z_at = 768 * k + 64;
        for v in Variant::ALL {
            // Key generation: d and z are secret (random, all-zero, all-0xff).
            let ds = with_edges(inputs, |i| random_bytes(0xd0, i, 32), 32);
            let zs = with_edges(inputs, |i| random_bytes(0x20, i, 32), 32);
            let mut keys = Vec::new();
            for (d, z) in ds.iter().zip(&zs) {
                let (mut d, mut z): ([u8; 32], [u8; 32]) =
                    (d[..].try_into().expect("32"), z[..].try_into().expect("32"));
                mark_secret(&d);
                mark_secret(&z);
                let kp = v.keygen_internal(p, &d, &z);
                t.add("keygen");
                compare_secret(&kp, &mut t);
                // ek is published; dk is secret except its embedded ek and H(ek).
                mark_public(kp.ek());
                mark_public(kp.dk());
                keys.push((kp.ek().to_vec(), kp.dk().to_vec()));
                d.fill(0);
                z.fill(0);
                black_box((&d, &z));
            }
            // Extreme secret coefficients: dk_PKE all 0xff (every 12-bit value 4095,
            // reduced mod q when decoded) and all zero, with a valid hash check.
            for fill in [0xffu8, 0x00] {
                let ek = keys[0].0.clone();
                let mut dk = vec![fill; 384 * k];
                dk.extend_from_slice(&ek);
                dk.extend_from_slice(&sha3::Sha3_256::digest(&ek));
                dk.extend_from_slice(&[fill; 32]);
                keys.push((ek, dk));
            }
            // The wrappers that draw (ML-KEM.KeyGen, ML-KEM.Encaps), from a source whose
            // every byte is secret: random stream, all-zero, all-0xff.
            for (i, mut src) in secret_sources(seed(0xd2, 0)).into_iter().enumerate() {
                let kp = v.keygen(p, &mut src);
                t.add("keygen (drawing)");
                mark_public(kp.ek());
                mark_public(kp.dk());
                let (ct, key) = v.encaps(p, &keys[i].0, &mut src).expect("valid key");
                t.add("encaps (drawing)");
                mark_public(&ct);
                mark_public(key.as_bytes());
            }
            for (i, (ek, dk)) in keys.iter().enumerate() {
                // Encapsulation: m is secret (random, all-zero, all-0xff).
                let ms = with_edges(1, |j| random_bytes(0x33, 16 * i + j, 32), 32);
                let mut honest = None;
                for m in &ms {
                    let m: [u8; 32] = m[..].try_into().expect("32");
                    mark_secret(&m);
                    let out = v.encaps_internal(p, ek, &m).expect("valid key");
                    t.add("encaps");
                    let (ct, key) = honest.get_or_insert(out);
                    mark_public(ct);
                    mark_public(key.as_bytes());
                }
                let (ct, key) = honest.expect("one encapsulation");
                // Decapsulation: ŝ and z are secret; the embedded ek and H(ek) public.
                for (what, c) in ciphertexts(&ct, flip_position(i), i) {
                    let mut dk = dk.clone();
                    mark_secret(&dk[..384 * k]);
                    mark_secret(&dk[z_at..]);
                    let got = v.decaps(p, &dk, &c).expect("valid lengths");
                    t.add("decaps");
                    compare_secret(&got, &mut t);
                    // Check the harness outside the measured region: declassify first.
                    if what == "honest" && i < inputs {
                        declassified_eq(&got, &key, &format!("{} {}", p.name(), v.name()));
                    }
                    dk.fill(0);
                    black_box(&dk);
                }
            }
        }
    }
    keccak_x4_portable(inputs, &mut t);
    t.report("ml-kem", "ML-KEM-512/768/1024 x reference/optimized");
}

fn sntrup761(inputs: usize) {
    use equivalence::sntrup761::Variant;
    use reference::sntrup761::{PUBLIC_KEY_BYTES, SECRET_KEY_BYTES, SMALL_BYTES};
    let mut t = Tally::default();
    let rho = 2 * SMALL_BYTES + PUBLIC_KEY_BYTES;
    let cache = rho + SMALL_BYTES;
    for v in Variant::ALL {
        // Key generation: every random byte (g, f, ρ) is secret. Random streams, and
        // the all-zero and all-0xff ones (g = −1 and g = 1, both invertible; a stream
        // repeating some other words gives a g that never is).
        let mut keys = Vec::new();
        for i in 0..inputs.max(1) {
            let kp = v.keypair(&mut SecretSource::stream(seed(5, i)));
            t.add("keygen");
            compare_secret(&kp, &mut t);
            mark_public(kp.pk());
            mark_public(kp.sk());
            keys.push((kp.pk().to_vec(), kp.sk().to_vec()));
        }
        for fill in [0x00u8, 0xff] {
            let kp = v.keypair(&mut SecretSource::Constant(fill));
            t.add("keygen (constant stream)");
            mark_public(kp.pk());
            mark_public(kp.sk());
        }
        // Extreme secret keys: Small(f) and Small(1/g) all 0xff (every coefficient 2,
        // the bound arbitrary key bytes reach) or all zero (every coefficient −1).
        for fill in [0xffu8, 0x00] {
            let mut sk = keys[0].1.clone();
            sk[..2 * SMALL_BYTES].fill(fill);
            keys.push((keys[0].0.clone(), sk));
        }
        for (i, (pk, sk)) in keys.iter().enumerate() {
            // Encapsulation: r is secret (random stream, all-zero, all-0xff words).
            let mut honest = None;
            for mut src in secret_sources(seed(6, i)) {
                let out = v.encapsulate(pk, &mut src).expect("valid key");
                t.add("encap");
                let (ct, key) = honest.get_or_insert(out);
                mark_public(ct);
                mark_public(key.as_bytes());
            }
            let (ct, key) = honest.expect("one encapsulation");
            // Decapsulation: f, 1/g and ρ are secret; pk and its hash are public.
            for (what, c) in ciphertexts(&ct, flip_position(i), i) {
                let sk = sk.clone();
                assert_eq!(sk.len(), SECRET_KEY_BYTES);
                mark_secret(&sk[..2 * SMALL_BYTES]);
                mark_secret(&sk[rho..cache]);
                let got = v.decapsulate(&sk, &c).expect("valid lengths");
                t.add("decap");
                compare_secret(&got, &mut t);
                if what == "honest" && i < inputs.max(1) {
                    declassified_eq(&got, &key, &format!("sntrup761 {}", v.name()));
                }
            }
        }
    }
    t.report("sntrup761", "reference/batched-rng/optimized");
}

fn ntruhps2048509(inputs: usize) {
    use equivalence::ntruhps2048509::Variant;
    use reference::ntruhps2048509::params::{PRFKEYBYTES, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES};
    let mut t = Tally::default();
    let mut names = Vec::new();
    for v in Variant::ALL {
        names.push(v.name());
        // Key generation: every byte of the seed (f, g) and the PRF key is secret
        // (random, all-zero, all-0xff). The two edge seeds give f = 0, which key
        // generation refuses after a constant-time check (only its verdict is
        // declassified): their run checks that path.
        let randoms = inputs.max(1);
        let seeds = with_edges(
            randoms,
            |i| random_bytes(0x70, i, SAMPLE_FG_BYTES),
            SAMPLE_FG_BYTES,
        );
        let mut keys = Vec::new();
        for (i, s) in seeds.iter().enumerate() {
            let s: [u8; SAMPLE_FG_BYTES] = s[..].try_into().expect("length");
            let prf: [u8; PRFKEYBYTES] = random_bytes(0x71, i, PRFKEYBYTES)[..]
                .try_into()
                .expect("length");
            mark_secret(&s);
            mark_secret(&prf);
            let Ok(kp) = v.keypair_derand(&s, &prf) else {
                // Only the two edge seeds give f = 0; a random one refused is a bug.
                assert!(i >= randoms, "{}: random keygen seed {i} refused", v.name());
                t.add("keygen (refused: f = 0)");
                continue;
            };
            t.add("keygen");
            compare_secret(&kp, &mut t);
            mark_public(kp.pk());
            mark_public(kp.sk());
            keys.push((*kp.pk(), *kp.sk()));
        }
        // The wrappers that draw (`crypto_kem_keypair`, `crypto_kem_enc`), from a source
        // whose every byte is secret: random stream, all-zero, all-0xff.
        for (i, mut src) in secret_sources(seed(0x73, 0)).into_iter().enumerate() {
            match v.keypair(&mut src) {
                Ok(kp) => {
                    t.add("keygen (drawing)");
                    mark_public(kp.pk());
                    mark_public(kp.sk());
                }
                // The all-zero and all-0xff sources give f = 0; the random stream
                // (the first) must not.
                Err(_) => {
                    assert!(i > 0, "{}: keygen refused a random stream", v.name());
                    t.add("keygen (drawing, refused: f = 0)");
                }
            }
            let (ct, key) = v
                .encaps(&keys[i.min(randoms - 1)].0, &mut src)
                .expect("valid key");
            t.add("encaps (drawing)");
            mark_public(&ct);
            mark_public(key.as_bytes());
        }
        // Extreme secret key: every byte 0xff.
        let (pk0, mut sk_ff) = keys[0];
        sk_ff.fill(0xff);
        keys.push((pk0, sk_ff));
        for (i, (pk, sk)) in keys.iter().enumerate() {
            // Encapsulation: r and m are secret (random, all-zero, all-0xff).
            let rms = with_edges(
                1,
                |j| random_bytes(0x72, 8 * i + j, SAMPLE_RM_BYTES),
                SAMPLE_RM_BYTES,
            );
            let mut honest = None;
            for rm in &rms {
                let rm: [u8; SAMPLE_RM_BYTES] = rm[..].try_into().expect("length");
                mark_secret(&rm);
                let out = v.encaps_derand(pk, &rm).expect("valid key");
                t.add("encaps");
                let (ct, key) = honest.get_or_insert(out);
                mark_public(ct);
                mark_public(key.as_bytes());
            }
            let (ct, key) = honest.expect("one encapsulation");
            // Decapsulation: the whole secret key (f, f⁻¹ mod 3, h⁻¹ and the PRF key).
            for (what, c) in ciphertexts(&ct, flip_position(i), i) {
                let sk = *sk;
                mark_secret(&sk);
                let got = v.decaps(&sk, &c).expect("valid lengths");
                t.add("decaps");
                compare_secret(&got, &mut t);
                if what == "honest" && i < inputs {
                    declassified_eq(&got, &key, &format!("ntruhps2048509 {}", v.name()));
                }
            }
        }
    }
    t.report("ntruhps2048509", &names.join("/"));
}

fn ed25519(inputs: usize) {
    use equivalence::ed25519::Variant;
    let mut t = Tally::default();
    for v in Variant::ALL {
        // Key generation and signing: the seed (hence the scalar, the prefix and every
        // nonce) is secret (random, all-zero, all-0xff); messages are public.
        for s in with_edges(inputs, |i| random_bytes(0x44, i, 32), 32) {
            mark_secret(&s);
            let key = v.keygen(&s).expect("32-byte seed");
            t.add("keygen");
            compare_secret(&key, &mut t);
            for (j, msg) in [Vec::new(), b"refopt".to_vec(), random_bytes(0x45, 0, 300)]
                .iter()
                .enumerate()
            {
                let sig = v.sign(&key, msg);
                t.add("sign");
                mark_public(&sig);
                black_box((j, &sig));
            }
        }
    }
    t.report(
        "ed25519",
        "reference/optimized; verify handles public data only",
    );
}

/// The static check for divisions ([`equivalence::divscan`]) on the lab's scope.
mod divscan {
    use equivalence::divscan::{Allowed, Scope, report, scan};

    /// Names (of the enclosing function, or of a function inlined at the instruction)
    /// that make an instruction secret-handling: the workspace crates (with generic
    /// instances and drop glue of their types, whose names include them), this
    /// harness, and the hash and helper crates our code feeds secrets to.
    const SCOPE_NAMES: &[&str] = &[
        "reference::",
        "optimized::",
        "equivalence::",
        "refopt_ctgrind::",
        "sha2::",
        "sha3::",
        "shake::",
        "keccak::",
        "chacha20::",
        "subtle::",
        "zeroize::",
    ];

    /// Source paths that make an instruction secret-handling when they appear anywhere
    /// in its inline chain (the line tables of the release profile): the same crates.
    /// This catches our code inlined into a generic `core` function whose symbol names
    /// only `core` (for example a closure run by `core::array::from_fn`).
    const SCOPE_PATHS: &[&str] = &[
        "/reference/src/",
        "/optimized/src/",
        "/equivalence/src/",
        "/sha2-",
        "/sha3-",
        "/shake-",
        "/keccak-",
        "/chacha20-",
        "/subtle-",
        "/zeroize-",
    ];

    /// Every division the scan accepts, and why.
    const ALLOWED: &[Allowed] = &[
        Allowed {
            function: "reference::mlkem::encode::byte_encode",
            max: 2,
            why: "`chunks_exact_mut(d)` divides the output length 32·d by d: both are \
                  parameters of the set (d = 1, 4, 5, 10, 11 or 12), public",
        },
        Allowed {
            function: "reference::mlkem::encode::byte_decode_raw_into",
            max: 2,
            why: "`chunks_exact(d)` divides the input length 32·d by d: public \
                  parameters, as in byte_encode",
        },
        Allowed {
            function: "reference::sntrup761::encode::decode",
            max: 3,
            why: "`uint32_divmod_uint14` computes ⌊2^31/m⌋ for the radix m, a public \
                  constant of the encoding; the secret-dependent quotient and remainder \
                  use multiplications and masks",
        },
    ];

    /// `scan-divisions [BINARY]`: prints what it scanned, the allowed divisions with
    /// their reasons, and every other division; fails on any of the latter, on a
    /// binary with no function in scope or no line tables (stripped or wrong file),
    /// or when objdump is missing.
    pub(crate) fn main(args: &[String]) -> std::process::ExitCode {
        let binary = match args {
            [] => match std::env::current_exe() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("scan-divisions: cannot find this binary: {e}");
                    return std::process::ExitCode::from(2);
                }
            },
            [path] => path.into(),
            _ => {
                eprintln!("usage: refopt-ctgrind scan-divisions [BINARY]");
                return std::process::ExitCode::from(2);
            }
        };
        let scope = Scope {
            names: SCOPE_NAMES,
            paths: SCOPE_PATHS,
        };
        let s = match scan(&binary, &scope) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("scan-divisions: {e}");
                return std::process::ExitCode::from(2);
            }
        };
        if s.in_scope_functions == 0 || s.instructions == 0 {
            eprintln!(
                "scan-divisions: no secret-handling code found: stripped binary or wrong file"
            );
            return std::process::ExitCode::from(2);
        }
        match report(&mut std::io::stdout().lock(), &binary, &s, ALLOWED) {
            Ok(0) => std::process::ExitCode::SUCCESS,
            Ok(_) => std::process::ExitCode::FAILURE,
            Err(e) => {
                eprintln!("scan-divisions: {e}");
                std::process::ExitCode::FAILURE
            }
        }
    }
}

/// The most random inputs per operation and key `--inputs` takes: under memcheck one
/// input of every operation of every scheme costs seconds, so more is never meant;
/// the inputs are collected before they run, so a bound keeps a typo from asking for
/// more memory than there is.
const MAX_INPUTS: usize = 100_000;

const USAGE: &str = "usage: refopt-ctgrind [--inputs N] [--scheme ml-kem|sntrup761|ntruhps2048509|ed25519]\n       refopt-ctgrind scan-divisions [BINARY]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("scan-divisions") {
        return divscan::main(&args[1..]);
    }
    // Random inputs per operation and key, beside the fixed edge cases.
    let mut inputs = 4usize;
    let mut scheme: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--inputs", Some(n)) => match n.parse() {
                Ok(n) if (1..=MAX_INPUTS).contains(&n) => inputs = n,
                _ => {
                    eprintln!(
                        "refopt-ctgrind: --inputs takes a number from 1 to {MAX_INPUTS}\n{USAGE}"
                    );
                    return ExitCode::from(2);
                }
            },
            ("--scheme", Some(s)) => scheme = Some(s.clone()),
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    type Run = (&'static str, fn(usize));
    let runs: [Run; 4] = [
        ("ml-kem", mlkem),
        ("sntrup761", sntrup761),
        ("ntruhps2048509", ntruhps2048509),
        ("ed25519", ed25519),
    ];
    if let Some(s) = &scheme
        && !runs.iter().any(|(n, _)| n == s)
    {
        eprintln!("refopt-ctgrind: unknown scheme `{s}`\n{USAGE}");
        return ExitCode::from(2);
    }
    // Each scheme runs the path its dispatch picks on this CPU (as valgrind presents
    // it): say which, and fail under REFOPT_REQUIRE_SIMD when one would not run.
    let require = equivalence::simd::required();
    if !equivalence::simd::report(&equivalence::simd::paths(), require, "refopt-ctgrind") {
        return ExitCode::FAILURE;
    }
    for (name, run) in runs {
        if scheme.as_deref().is_none_or(|s| s == name) {
            run(inputs);
        }
    }
    ExitCode::SUCCESS
}
