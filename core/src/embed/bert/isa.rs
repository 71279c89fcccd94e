//! The instruction set the kernels run on, chosen once per process, and the one
//! multiply-add every portable kernel is written with.

use std::sync::OnceLock;

/// Whether the portable path fuses multiply-adds: on aarch64 FMA is in the baseline (and
/// `mul_add` one instruction); on x86-64 without FMA it would be a slow library call.
pub(super) const BASE_FMA: bool = cfg!(target_arch = "aarch64");

/// The environment variable that picks a lesser instruction set than the CPU's best.
pub(crate) const ISA_ENV: &str = "CC_SEARCH_EMBED_ISA";

/// The instruction set the kernels use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum Isa {
    /// AVX-512F (+ AVX2, FMA).
    Avx512,
    /// AVX2 + FMA.
    Avx2,
    /// Whatever the compilation target guarantees (portable Rust, no FMA).
    Base,
}

impl Isa {
    /// The best this CPU supports (detected once), or a lesser one `$CC_SEARCH_EMBED_ISA`
    /// names (`avx2`, `base`: for tests and benchmarks of the other paths).
    pub(crate) fn detect() -> Isa {
        static ISA: OnceLock<Isa> = OnceLock::new();
        *ISA.get_or_init(|| {
            let all = Isa::available();
            let wanted = match std::env::var(ISA_ENV).as_deref() {
                Ok("avx512") => Some(Isa::Avx512),
                Ok("avx2") => Some(Isa::Avx2),
                Ok("base") => Some(Isa::Base),
                _ => None,
            };
            wanted.filter(|w| all.contains(w)).unwrap_or(all[0])
        })
    }

    /// The name `$CC_SEARCH_EMBED_ISA` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Isa::Avx512 => "avx512",
            Isa::Avx2 => "avx2",
            Isa::Base => "base",
        }
    }

    /// Every instruction set this CPU can run, best first.
    pub(crate) fn available() -> Vec<Isa> {
        let mut found = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            let avx2 = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
            if avx2 && is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl") {
                found.push(Isa::Avx512);
            }
            if avx2 {
                found.push(Isa::Avx2);
            }
        }
        found.push(Isa::Base);
        found
    }
}

#[inline(always)]
pub(super) fn madd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA { a.mul_add(b, c) } else { a * b + c }
}
