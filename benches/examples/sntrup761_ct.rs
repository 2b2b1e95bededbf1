//! Constant-time check of sntrup761 under valgrind memcheck: secret bytes are marked
//! *undefined*, so memcheck reports every branch, table index or system call whose
//! outcome depends on them ("Conditional jump or move depends on uninitialised
//! value(s)", "Use of uninitialised value").
//!
//! ```text
//! valgrind --error-exitcode=1 target/release/examples/sntrup761_ct <variant> <op>
//! ```
//!
//! with variant `reference`, `batched-rng` or `optimized` and op:
//! * `encap`: every byte the random source delivers (r) is secret;
//! * `decap`: the secret-key parts f, 1/g and ρ are secret, and so is the ciphertext
//!   when it is the honest one (the comparison must not leak whether it was);
//! * `keygen`: every random byte (g, f, ρ) is secret. Expected finding: the rejection
//!   loop's test "is g invertible" (public by design, as in the C code).
//!
//! Outputs (pk, ct, ss) are declassified before they are printed. Outside valgrind the
//! client requests are no-ops. `benches/scripts/sntrup761-ct.sh` runs all of them.

use benches::sntrup761::{decapsulate, encapsulate, keypair};
use reference::RandomSource;
use reference::rng::ChaCha20Source;
use reference::sntrup761::{PUBLIC_KEY_BYTES, SMALL_BYTES};

/// Valgrind client requests (memcheck `MAKE_MEM_UNDEFINED` / `MAKE_MEM_DEFINED`).
#[allow(unsafe_code)]
mod valgrind {
    /// One client request; returns `default` when not running under valgrind.
    #[cfg(target_arch = "x86_64")]
    fn request(code: usize, addr: usize, len: usize) {
        let args: [usize; 6] = [code, addr, len, 0, 0, 0];
        // SAFETY: the "magic" preamble rotates rdi by 3+13+61+51 = 128 bits (it ends
        // unchanged) and `xchg rbx, rbx` swaps a register with itself: natively the
        // sequence does nothing. Under valgrind it reads `args` (alive for the whole
        // block) and writes the result to rdx, declared as clobbered.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") 0usize => _,
                inout("rdi") 0usize => _,
                options(nostack, preserves_flags),
            );
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn request(_code: usize, _addr: usize, _len: usize) {}

    /// VG_USERREQ_TOOL_BASE('M', 'C').
    const MEMCHECK_BASE: usize = 0x4d43_0000;

    /// Marks `b` as secret (undefined to memcheck).
    pub(crate) fn secret(b: &[u8]) {
        request(MEMCHECK_BASE + 1, b.as_ptr() as usize, b.len());
    }

    /// Declassifies `b` (defined to memcheck).
    pub(crate) fn public(b: &[u8]) {
        request(MEMCHECK_BASE + 2, b.as_ptr() as usize, b.len());
    }
}

/// A source whose every byte is secret.
struct SecretSource(ChaCha20Source);

impl RandomSource for SecretSource {
    fn fill(&mut self, dst: &mut [u8]) {
        self.0.fill(dst);
        valgrind::secret(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, v, op] = args.as_slice() else {
        eprintln!("usage: sntrup761_ct <variant> <keygen|encap|decap>");
        std::process::exit(2);
    };
    let v = v.as_str();
    let mut plain = ChaCha20Source::new([5; 32]);
    let out: Vec<u8> = match op.as_str() {
        "keygen" => {
            let kp = keypair(v, &mut SecretSource(ChaCha20Source::new([5; 32])));
            valgrind::public(&kp.pk);
            kp.pk
        }
        "encap" => {
            let kp = keypair(v, &mut plain);
            let (ct, ss) = encapsulate(v, &kp.pk, &mut SecretSource(plain));
            valgrind::public(&ct);
            valgrind::public(&ss);
            [ct, ss.to_vec()].concat()
        }
        "decap" => {
            let kp = keypair(v, &mut plain);
            let (ct, _) = encapsulate(v, &kp.pk, &mut plain);
            let mut sk = kp.sk.clone();
            let mut bad = ct.clone();
            bad[17] ^= 1;
            let mut out = Vec::new();
            for c in [ct, bad] {
                // f, 1/g (2 × Small) and ρ are secret; pk and Hash4(pk) are public.
                valgrind::secret(&sk[..2 * SMALL_BYTES]);
                let rho = 2 * SMALL_BYTES + PUBLIC_KEY_BYTES;
                valgrind::secret(&sk[rho..rho + SMALL_BYTES]);
                let ss = decapsulate(v, &sk, &c);
                valgrind::public(&ss);
                valgrind::public(&sk);
                sk = kp.sk.clone();
                out.extend_from_slice(&ss);
            }
            out
        }
        _ => {
            eprintln!("unknown op {op}");
            std::process::exit(2);
        }
    };
    println!(
        "{}",
        out.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
}
