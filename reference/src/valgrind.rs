//! Valgrind memcheck client requests, for the constant-time harness.
//!
//! Memcheck reports a conditional jump or move, or a memory address, that depends on
//! *undefined* bytes. Marking secrets undefined turns it into a checker for
//! secret-dependent control flow and addresses. It does not report divisions (their
//! result is used without a branch): `refopt-ctgrind scan-divisions` checks those. Outside valgrind the magic instruction
//! sequence is a no-op (four rotations summing to 128 bits and `xchg rbx, rbx`).
#![allow(unsafe_code)]

const fn tool_base(a: u8, b: u8) -> usize {
    ((a as usize) << 24) | ((b as usize) << 16)
}
const MAKE_MEM_UNDEFINED: usize = tool_base(b'M', b'C') + 1;
const MAKE_MEM_DEFINED: usize = tool_base(b'M', b'C') + 2;

#[cfg(target_arch = "x86_64")]
fn client_request(request: usize, addr: usize, len: usize) -> usize {
    let args: [usize; 6] = [request, addr, len, 0, 0, 0];
    let mut result: usize = 0;
    // SAFETY: the sequence only rotates rdi by a multiple of 64 bits (clobbering flags,
    // so no `preserves_flags`) and exchanges rbx with itself; valgrind reads `args` through rax and writes the result to rdx.
    // Nothing else is touched.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack)
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: usize, _addr: usize, _len: usize) -> usize {
    0
}

/// Marks `bytes` as undefined (secret) for memcheck.
pub fn mark_secret(bytes: &[u8]) {
    client_request(MAKE_MEM_UNDEFINED, bytes.as_ptr() as usize, bytes.len());
}

/// Marks `bytes` as defined (public) for memcheck.
pub fn mark_public(bytes: &[u8]) {
    client_request(MAKE_MEM_DEFINED, bytes.as_ptr() as usize, bytes.len());
}
