//! A BERT encoder forward pass for CPU inference (all-MiniLM-L6-v2 and other BERTs of
//! the same shape), written for speed on the machines cc-search runs on.
//!
//! - Weights come from `model.safetensors` (F32), read with our own parser, and every
//!   matrix is packed once at load into 32-column panels ([`Packed`]); Q, K and V are one
//!   `hidden × 3·hidden` product.
//! - Sequences are not padded: the tokens of a batch are laid end to end, the dense layers
//!   run on all of them at once, and attention runs per (sequence, head) over that
//!   sequence's own tokens. Masked padding contributes exactly zero in the reference, so
//!   the result is the same computation without the wasted work.
//! - Matrix products use register-blocked micro-kernels: AVX-512 (12 × 32 tiles) where
//!   the CPU has it, else AVX2+FMA (6 × 16), else portable Rust the compiler vectorises
//!   (SSE2, NEON), chosen at run time ([`Isa::detect`]); element-wise kernels are
//!   portable Rust compiled once per instruction set. Rows are split over rayon's threads.
//! - GELU uses the erf approximation torch's vectorised CPU kernel uses (Abramowitz &
//!   Stegun 7.1.26, |error| ≤ 1.5e-7), exp a Cephes-style polynomial (≤ 2 ulp).
//!
//! Determinism: every output element of a product is one accumulator summed over k in
//! ascending order (then + bias), and every other step works on one row, one sequence or
//! one (sequence, head); how rows are split among threads or batched together does not
//! change any rounding. So a text's vector is bit-identical whatever batch it is in, for
//! any thread count. The AVX-512 and AVX2 paths compute the same operations in the same
//! order (bit-identical too); the portable path rounds differently on x86-64 (no FMA,
//! ~1e-7).

use std::collections::HashMap;
use std::sync::OnceLock;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use rayon::prelude::*;

/// Columns per packed panel (two AVX-512 registers).
const NR: usize = 32;
/// Rows per AVX-512 tile.
const MR_AVX512: usize = 12;
/// Rows per AVX2 tile.
const MR_AVX2: usize = 6;
/// Rows per portable tile.
const MR_PORTABLE: usize = 4;
/// Whether the portable path fuses multiply-adds: on aarch64 FMA is in the baseline (and
/// `mul_add` one instruction); on x86-64 without FMA it would be a slow library call.
const BASE_FMA: bool = cfg!(target_arch = "aarch64");
/// Rows a thread takes at a time in a product.
const MC: usize = 96;

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

// ---------------------------------------------------------------------------------------
// Packed matrices and the matrix product
// ---------------------------------------------------------------------------------------

/// 16 floats on a 64-byte boundary: packed panels are aligned for AVX-512 loads.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Line([f32; 16]);

/// The right-hand matrix B (k × n) of a product, in panels of [`NR`] columns: panel `p`
/// holds, for each of the `k` rows, the 32 values `B[row][32p .. 32p + 32]` (zero past
/// `n`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Packed {
    k: usize,
    n: usize,
    lines: Vec<Line>,
}

impl Packed {
    /// Pack Bᵀ where B is `rows × cols` at `src[r * stride + c]`: the result is
    /// `cols × rows` (k = cols, n = rows).
    fn pack_transposed(&mut self, src: &[f32], stride: usize, rows: usize, cols: usize) {
        self.reset(cols, rows);
        let k = cols;
        let flat = self.floats_mut();
        for r in 0..rows {
            let (p, j) = (r / NR, r % NR);
            let row = &src[r * stride..][..cols];
            let panel = &mut flat[p * k * NR..][..k * NR];
            for (d, &v) in row.iter().enumerate() {
                panel[d * NR + j] = v;
            }
        }
    }

    /// Pack B, `rows × cols` at `src[r * stride + c]` (k = rows, n = cols).
    fn pack_rows(&mut self, src: &[f32], stride: usize, rows: usize, cols: usize) {
        self.reset(rows, cols);
        let k = rows;
        let flat = self.floats_mut();
        for p in 0..cols.div_ceil(NR) {
            let width = (cols - p * NR).min(NR);
            for r in 0..rows {
                flat[(p * k + r) * NR..][..width]
                    .copy_from_slice(&src[r * stride + p * NR..][..width]);
            }
        }
    }

    /// Zeroed storage for a k × n matrix.
    fn reset(&mut self, k: usize, n: usize) {
        self.k = k;
        self.n = n;
        self.lines.clear();
        self.lines
            .resize(n.div_ceil(NR) * k * NR / 16, Line([0.0; 16]));
    }

    /// A PyTorch `Linear` weight (`out × in`, row-major) as the B of `x · Wᵀ`.
    fn from_linear(weight: &[f32], out: usize, inp: usize) -> Packed {
        let mut packed = Packed::default();
        packed.pack_transposed(weight, inp, out, inp);
        packed
    }

    fn floats_mut(&mut self) -> &mut [f32] {
        let len = self.lines.len() * 16;
        // SAFETY: `Line` is `repr(C)` around `[f32; 16]`: the lines are `len` floats.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<f32>(), len) }
    }

    fn panel(&self, p: usize) -> *const f32 {
        // In bounds: `p < panels`, each panel `k * NR` floats.
        self.lines
            .as_ptr()
            .cast::<f32>()
            .wrapping_add(p * self.k * NR)
    }
}

/// One tile of a product: `rows` × `cols` (≤ NR) of C = A · B-panel (+ bias).
#[derive(Clone, Copy)]
struct Tile {
    a: *const f32,
    lda: usize,
    b: *const f32,
    k: usize,
    c: *mut f32,
    ldc: usize,
    bias: *const f32,
    cols: usize,
}

#[inline(always)]
fn madd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA { a.mul_add(b, c) } else { a * b + c }
}

/// The portable tile: `MR` rows, 8 columns at a time in arrays the compiler keeps in
/// vector registers (SSE2, NEON).
///
/// # Safety
/// `t.a` readable for `MR` rows of `t.k` floats (stride `t.lda`), `t.b` a panel of
/// `t.k × NR` floats, `t.c` writable for `MR` rows of `t.cols` floats (stride `t.ldc`),
/// `t.bias` null or `t.cols` floats.
#[inline(always)]
unsafe fn tile_portable<const MR: usize, const FMA: bool>(t: &Tile) {
    const W: usize = 8;
    for group in 0..t.cols.div_ceil(W) {
        let mut acc = [[0f32; W]; MR];
        for p in 0..t.k {
            // SAFETY: per the contract above.
            let b: &[f32; W] = unsafe { &*t.b.add(p * NR + group * W).cast::<[f32; W]>() };
            for (r, acc) in acc.iter_mut().enumerate() {
                let a = unsafe { *t.a.add(r * t.lda + p) };
                for j in 0..W {
                    acc[j] = madd::<FMA>(a, b[j], acc[j]);
                }
            }
        }
        let cols = (t.cols - group * W).min(W);
        for (r, acc) in acc.iter().enumerate() {
            for (j, &v) in acc.iter().enumerate().take(cols) {
                let col = group * W + j;
                let bias = if t.bias.is_null() {
                    0.0
                } else {
                    unsafe { *t.bias.add(col) }
                };
                unsafe { *t.c.add(r * t.ldc + col) = v + bias };
            }
        }
    }
}

/// The AVX-512 tile: `MR` rows × 32 columns in 2·MR registers.
///
/// # Safety
/// As [`tile_portable`], and the CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn tile_avx512<const MR: usize>(t: &Tile) {
    let mut acc0 = [_mm512_setzero_ps(); MR];
    let mut acc1 = [_mm512_setzero_ps(); MR];
    let mut a = t.a;
    let mut b = t.b;
    for _ in 0..t.k {
        // SAFETY: `b` walks the aligned panel, `a` the rows, per the contract.
        unsafe {
            let b0 = _mm512_load_ps(b);
            let b1 = _mm512_load_ps(b.add(16));
            for r in 0..MR {
                let av = _mm512_set1_ps(*a.add(r * t.lda));
                acc0[r] = _mm512_fmadd_ps(av, b0, acc0[r]);
                acc1[r] = _mm512_fmadd_ps(av, b1, acc1[r]);
            }
            a = a.add(1);
            b = b.add(NR);
        }
    }
    let m0: __mmask16 = if t.cols >= 16 {
        0xffff
    } else {
        (1u16 << t.cols) - 1
    };
    let m1: __mmask16 = if t.cols >= 32 {
        0xffff
    } else if t.cols > 16 {
        (1u16 << (t.cols - 16)) - 1
    } else {
        0
    };
    // SAFETY: masked loads and stores touch only the `t.cols` valid columns.
    unsafe {
        let (bias0, bias1) = if t.bias.is_null() {
            (_mm512_setzero_ps(), _mm512_setzero_ps())
        } else {
            (
                _mm512_maskz_loadu_ps(m0, t.bias),
                _mm512_maskz_loadu_ps(m1, t.bias.add(16)),
            )
        };
        for r in 0..MR {
            let c = t.c.add(r * t.ldc);
            _mm512_mask_storeu_ps(c, m0, _mm512_add_ps(acc0[r], bias0));
            _mm512_mask_storeu_ps(c.add(16), m1, _mm512_add_ps(acc1[r], bias1));
        }
    }
}

/// The AVX2 tile: `MR` (≤ 6) rows × 16 columns in 2·MR registers, twice per panel.
///
/// # Safety
/// As [`tile_portable`], and the CPU has AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn tile_avx2<const MR: usize>(t: &Tile) {
    for half in 0..2 {
        let col0 = half * 16;
        if col0 >= t.cols {
            break;
        }
        let mut acc0 = [_mm256_setzero_ps(); MR];
        let mut acc1 = [_mm256_setzero_ps(); MR];
        let mut a = t.a;
        // SAFETY: inside the panel; 32-byte aligned (64-byte panel rows of 128 bytes).
        let mut b = unsafe { t.b.add(col0) };
        for _ in 0..t.k {
            // SAFETY: `b` walks the panel, `a` the rows, per the contract.
            unsafe {
                let b0 = _mm256_load_ps(b);
                let b1 = _mm256_load_ps(b.add(8));
                for r in 0..MR {
                    let av = _mm256_broadcast_ss(&*a.add(r * t.lda));
                    acc0[r] = _mm256_fmadd_ps(av, b0, acc0[r]);
                    acc1[r] = _mm256_fmadd_ps(av, b1, acc1[r]);
                }
                a = a.add(1);
                b = b.add(NR);
            }
        }
        let cols = (t.cols - col0).min(16);
        for r in 0..MR {
            let mut out = [0f32; 16];
            // SAFETY: `out` holds 16 floats.
            unsafe {
                _mm256_storeu_ps(out.as_mut_ptr(), acc0[r]);
                _mm256_storeu_ps(out.as_mut_ptr().add(8), acc1[r]);
            }
            for (j, v) in out.iter().enumerate().take(cols) {
                let col = col0 + j;
                // SAFETY: `col < t.cols`, inside the row of C and the bias.
                unsafe {
                    let bias = if t.bias.is_null() {
                        0.0
                    } else {
                        *t.bias.add(col)
                    };
                    *t.c.add(r * t.ldc + col) = v + bias;
                }
            }
        }
    }
}

/// Run `rows` (≤ the ISA's tile height) rows of one tile.
///
/// # Safety
/// As [`tile_portable`] for `rows` rows; `isa` is supported by this CPU.
unsafe fn tile(isa: Isa, rows: usize, t: &Tile) {
    macro_rules! by_rows {
        ($f:ident, $($n:literal)*) => {
            match rows {
                $($n => $f::<$n>(t),)*
                _ => unreachable!("tile of {rows} rows"),
            }
        };
    }
    // SAFETY: forwarded contract.
    unsafe {
        match isa {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => by_rows!(tile_avx512, 1 2 3 4 5 6 7 8 9 10 11 12),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => by_rows!(tile_avx2, 1 2 3 4 5 6),
            _ => match rows {
                1 => tile_portable::<1, BASE_FMA>(t),
                2 => tile_portable::<2, BASE_FMA>(t),
                3 => tile_portable::<3, BASE_FMA>(t),
                4 => tile_portable::<4, BASE_FMA>(t),
                _ => unreachable!("tile of {rows} rows"),
            },
        }
    }
}

fn tile_rows(isa: Isa) -> usize {
    match isa {
        Isa::Avx512 => MR_AVX512,
        Isa::Avx2 => MR_AVX2,
        Isa::Base => MR_PORTABLE,
    }
}

/// After-product step applied to each finished tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Epilogue {
    None,
    Gelu,
}

/// C (`m × b.n`, row stride `ldc`) = A (`m × b.k`, row stride `lda`) · B + bias, on the
/// calling thread.
///
/// # Safety
/// `a` readable for `m` rows of `b.k` floats at stride `lda`; `c` writable for `m` rows
/// of `b.n` floats at stride `ldc`; `bias` empty or `b.n` floats; `isa` supported.
#[allow(clippy::too_many_arguments)]
unsafe fn matmul_serial(
    isa: Isa,
    m: usize,
    a: *const f32,
    lda: usize,
    b: &Packed,
    c: *mut f32,
    ldc: usize,
    bias: &[f32],
    epilogue: Epilogue,
) {
    let mr = tile_rows(isa);
    for p in 0..b.n.div_ceil(NR) {
        let cols = (b.n - p * NR).min(NR);
        let mut row = 0;
        while row < m {
            let rows = (m - row).min(mr);
            let t = Tile {
                a: a.wrapping_add(row * lda),
                lda,
                b: b.panel(p),
                k: b.k,
                c: c.wrapping_add(row * ldc + p * NR),
                ldc,
                bias: if bias.is_empty() {
                    std::ptr::null()
                } else {
                    bias[p * NR..].as_ptr()
                },
                cols,
            };
            // SAFETY: the tile lies inside A, B and C per the contract.
            unsafe { tile(isa, rows, &t) };
            if epilogue == Epilogue::Gelu {
                for r in 0..rows {
                    // SAFETY: the row segment just written.
                    let out = unsafe { std::slice::from_raw_parts_mut(t.c.add(r * ldc), cols) };
                    gelu_slice(isa, out);
                }
            }
            row += rows;
        }
    }
}

/// C (`m × b.n`, contiguous) = A (`m × b.k`, contiguous) · B + bias, rows split over
/// rayon's threads.
fn matmul(isa: Isa, a: &[f32], b: &Packed, c: &mut [f32], bias: &[f32], epilogue: Epilogue) {
    let (k, n) = (b.k, b.n);
    let m = a.len().checked_div(k).unwrap_or(c.len() / n.max(1));
    assert!(a.len() >= m * k && c.len() >= m * n && (bias.is_empty() || bias.len() == n));
    if m == 0 || n == 0 {
        return;
    }
    c[..m * n]
        .par_chunks_mut(MC * n)
        .enumerate()
        .for_each(|(chunk, c)| {
            let rows = c.len() / n;
            let a = &a[chunk * MC * k..][..rows * k];
            // SAFETY: `a` and `c` hold `rows` full rows, checked above.
            unsafe {
                matmul_serial(
                    isa,
                    rows,
                    a.as_ptr(),
                    k,
                    b,
                    c.as_mut_ptr(),
                    n,
                    bias,
                    epilogue,
                )
            };
        });
}

// ---------------------------------------------------------------------------------------
// Element-wise kernels (portable Rust, compiled per ISA so that the compiler vectorises)
// ---------------------------------------------------------------------------------------

/// Define `fn $name(isa, args…)` running `$imp::<FMA>` compiled for the chosen ISA.
macro_rules! multiversion {
    ($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => $imp:ident) => {
        $(#[$meta])*
        fn $name(isa: Isa, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
                unsafe fn v4($($arg: $ty),*) -> $ret {
                    $imp::<true>($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn v3($($arg: $ty),*) -> $ret {
                    $imp::<true>($($arg),*)
                }
                match isa {
                    // SAFETY: `Isa::available` saw these features on this CPU.
                    Isa::Avx512 => return unsafe { v4($($arg),*) },
                    // SAFETY: as above.
                    Isa::Avx2 => return unsafe { v3($($arg),*) },
                    Isa::Base => {}
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = isa;
            $imp::<BASE_FMA>($($arg),*)
        }
    };
}

/// e^x, Cephes-style: x = n·ln2 + r, a degree-6 polynomial for e^r, 2^n from the bits.
/// Relative error ≤ 2 ulp on [-87, 88]; clamped outside.
#[inline(always)]
fn exp_approx<const FMA: bool>(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const ROUND: f32 = 12_582_912.0; // 1.5 · 2^23: adding it rounds to an integer
    let x = x.clamp(-87.3, 88.3);
    // t = 1.5·2^23 + n exactly, so n is also in t's low mantissa bits.
    let t = madd::<FMA>(x, LOG2E, ROUND);
    let n = t - ROUND;
    let r = madd::<FMA>(n, -0.693_359_4, x);
    let r = madd::<FMA>(n, 2.121_944_4e-4, r);
    let mut y = 1.987_569_1e-4f32;
    y = madd::<FMA>(y, r, 1.398_199_9e-3);
    y = madd::<FMA>(y, r, 8.333_452e-3);
    y = madd::<FMA>(y, r, 4.166_579_6e-2);
    y = madd::<FMA>(y, r, 1.666_666_5e-1);
    y = madd::<FMA>(y, r, 0.5);
    let y = madd::<FMA>(y, r * r, r) + 1.0;
    // 2^n from n's bits (an integer operation that vectorises, unlike `n as i32`).
    let scale = f32::from_bits(t.to_bits().wrapping_sub(ROUND.to_bits()).wrapping_add(127) << 23);
    y * scale
}

/// erf(x) as torch's vectorised CPU kernels compute it: Abramowitz & Stegun 7.1.26,
/// |error| ≤ 1.5e-7.
#[inline(always)]
fn erf_approx<const FMA: bool>(x: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    const A1: f32 = 0.254_829_6;
    const A2: f32 = -0.284_496_74;
    const A3: f32 = 1.421_413_7;
    const A4: f32 = -1.453_152;
    const A5: f32 = 1.061_405_4;
    let ax = x.abs();
    let t = 1.0 / madd::<FMA>(P, ax, 1.0);
    let mut r = madd::<FMA>(A5, t, A4);
    r = madd::<FMA>(r, t, A3);
    r = madd::<FMA>(r, t, A2);
    r = madd::<FMA>(r, t, A1);
    r *= t;
    let e = exp_approx::<FMA>(-ax * ax);
    let y = 1.0 - r * e;
    y.copysign(x)
}

/// GELU with erf: x · ½ · (1 + erf(x / √2)).
#[inline(always)]
fn gelu<const FMA: bool>(x: f32) -> f32 {
    x * 0.5 * (1.0 + erf_approx::<FMA>(x * std::f32::consts::FRAC_1_SQRT_2))
}

#[inline(always)]
fn gelu_slice_impl<const FMA: bool>(x: &mut [f32]) {
    for v in x.iter_mut() {
        *v = gelu::<FMA>(*v);
    }
}

multiversion!(
    /// GELU in place.
    fn gelu_slice(x: &mut [f32]) -> () => gelu_slice_impl
);

#[inline(always)]
fn lane_sum(x: &[f32]) -> f32 {
    let mut lanes = [0f32; 16];
    let mut chunks = x.chunks_exact(16);
    for chunk in &mut chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane += *v;
        }
    }
    for (lane, v) in lanes.iter_mut().zip(chunks.remainder()) {
        *lane += *v;
    }
    let mut total = 0.0;
    for lane in lanes {
        total += lane;
    }
    total
}

#[inline(always)]
fn lane_max(x: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; 16];
    let mut chunks = x.chunks_exact(16);
    for chunk in &mut chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane = if *v > *lane { *v } else { *lane };
        }
    }
    for (lane, v) in lanes.iter_mut().zip(chunks.remainder()) {
        *lane = if *v > *lane { *v } else { *lane };
    }
    lanes.into_iter().fold(f32::NEG_INFINITY, f32::max)
}

/// softmax(scale · x) in place (`scale` > 0): three passes (max; exp and sum; divide).
#[inline(always)]
fn softmax_impl<const FMA: bool>(x: &mut [f32], scale: f32) {
    if x.is_empty() {
        return;
    }
    let max = lane_max(x) * scale;
    let mut lanes = [0f32; 16];
    let mut chunks = x.chunks_exact_mut(16);
    for chunk in &mut chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk.iter_mut()) {
            *v = exp_approx::<FMA>(madd::<FMA>(*v, scale, -max));
            *lane += *v;
        }
    }
    // The tail through a full 16-lane block too, so that it vectorises like the rest.
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut block = [0f32; 16];
        block[..rest.len()].copy_from_slice(rest);
        for (i, (lane, v)) in lanes.iter_mut().zip(block.iter_mut()).enumerate() {
            *v = exp_approx::<FMA>(madd::<FMA>(*v, scale, -max));
            *lane += if i < rest.len() { *v } else { 0.0 };
        }
        rest.copy_from_slice(&block[..rest.len()]);
    }
    let mut total = 0.0;
    for lane in lanes {
        total += lane;
    }
    let inv = 1.0 / total;
    for v in x.iter_mut() {
        *v *= inv;
    }
}

multiversion!(
    /// softmax(scale · x) in place.
    fn softmax(x: &mut [f32], scale: f32) -> () => softmax_impl
);

/// x ← LayerNorm(x + residual) · gamma + beta, for each row of `gamma.len()` floats.
#[inline(always)]
fn add_layer_norm_impl<const FMA: bool>(
    x: &mut [f32],
    residual: &[f32],
    gamma: &[f32],
    beta: &[f32],
    eps: f32,
) {
    let n = gamma.len();
    for (row, res) in x.chunks_exact_mut(n).zip(residual.chunks_exact(n)) {
        for (v, r) in row.iter_mut().zip(res) {
            *v += *r;
        }
        layer_norm_row::<FMA>(row, gamma, beta, eps);
    }
}

#[inline(always)]
fn layer_norm_row<const FMA: bool>(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let n = row.len() as f32;
    let mean = lane_sum(row) / n;
    let mut sq = [0f32; 16];
    let mut chunks = row.chunks_exact(16);
    for chunk in &mut chunks {
        for (lane, v) in sq.iter_mut().zip(chunk) {
            let d = *v - mean;
            *lane = madd::<FMA>(d, d, *lane);
        }
    }
    for (lane, v) in sq.iter_mut().zip(chunks.remainder()) {
        let d = *v - mean;
        *lane = madd::<FMA>(d, d, *lane);
    }
    let mut var = 0.0;
    for lane in sq {
        var += lane;
    }
    let rstd = 1.0 / (var / n + eps).sqrt();
    for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
        *v = madd::<FMA>((*v - mean) * rstd, *g, *b);
    }
}

multiversion!(
    /// x ← LayerNorm(x + residual) row by row.
    fn add_layer_norm(x: &mut [f32], residual: &[f32], gamma: &[f32], beta: &[f32], eps: f32) -> () => add_layer_norm_impl
);

#[inline(always)]
fn layer_norm_impl<const FMA: bool>(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    for row in x.chunks_exact_mut(gamma.len()) {
        layer_norm_row::<FMA>(row, gamma, beta, eps);
    }
}

multiversion!(
    /// x ← LayerNorm(x) row by row.
    fn layer_norm(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) -> () => layer_norm_impl
);

// ---------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------

/// The fields of a BERT `config.json` the forward pass needs.
#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct Config {
    pub(crate) hidden_size: usize,
    pub(crate) num_hidden_layers: usize,
    pub(crate) num_attention_heads: usize,
    pub(crate) intermediate_size: usize,
    #[serde(default = "default_eps")]
    pub(crate) layer_norm_eps: f64,
    pub(crate) vocab_size: usize,
    #[serde(default = "default_positions")]
    pub(crate) max_position_embeddings: usize,
    #[serde(default = "default_types")]
    pub(crate) type_vocab_size: usize,
    #[serde(default = "default_act")]
    pub(crate) hidden_act: String,
    #[serde(default = "default_position_type")]
    pub(crate) position_embedding_type: String,
}

fn default_eps() -> f64 {
    1e-12
}
fn default_positions() -> usize {
    512
}
fn default_types() -> usize {
    2
}
fn default_act() -> String {
    "gelu".into()
}
fn default_position_type() -> String {
    "absolute".into()
}

impl Config {
    pub(crate) fn check(&self) -> std::result::Result<(), String> {
        if self.hidden_size == 0
            || self.num_attention_heads == 0
            || !self.hidden_size.is_multiple_of(self.num_attention_heads)
        {
            return Err(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            ));
        }
        if self.hidden_act != "gelu" {
            return Err(format!("hidden_act {:?} (only \"gelu\")", self.hidden_act));
        }
        if self.position_embedding_type != "absolute" {
            return Err(format!(
                "position_embedding_type {:?} (only \"absolute\")",
                self.position_embedding_type
            ));
        }
        Ok(())
    }
}

#[derive(Debug)]
struct Linear {
    weight: Packed,
    bias: Vec<f32>,
}

#[derive(Debug)]
struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

#[derive(Debug)]
struct Layer {
    qkv: Linear,
    attn_out: Linear,
    attn_norm: Norm,
    ffn_in: Linear,
    ffn_out: Linear,
    ffn_norm: Norm,
}

/// A BERT encoder with packed weights.
#[derive(Debug)]
pub(crate) struct Bert {
    cfg: Config,
    eps: f32,
    word: Vec<f32>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embed_norm: Norm,
    layers: Vec<Layer>,
    isa: Isa,
}

/// Reusable buffers of a forward pass.
#[derive(Debug, Default)]
pub(crate) struct Workspace {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
}

/// Per-thread buffers of the dense part of a layer (one chunk of rows).
#[derive(Default)]
struct ChunkScratch {
    tmp: Vec<f32>,
    inter: Vec<f32>,
}

/// Per-thread attention scratch.
#[derive(Default)]
struct Scratch {
    kt: Packed,
    v: Packed,
    scores: Vec<f32>,
}

/// Tensors of a safetensors file (F32 only).
struct SafeTensors {
    data: Vec<u8>,
    start: usize,
    entries: HashMap<String, (String, Vec<usize>, usize, usize)>,
}

impl SafeTensors {
    fn parse(data: Vec<u8>) -> std::result::Result<SafeTensors, String> {
        let header_len = data
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as usize)
            .ok_or("shorter than its 8-byte header length")?;
        let start = 8usize
            .checked_add(header_len)
            .filter(|&s| s <= data.len())
            .ok_or("header longer than the file")?;
        let header: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&data[8..start]).map_err(|e| format!("header: {e}"))?;
        let mut entries = HashMap::new();
        for (name, info) in header {
            if name == "__metadata__" {
                continue;
            }
            let dtype = info["dtype"]
                .as_str()
                .ok_or_else(|| format!("{name}: no dtype"))?
                .to_string();
            let shape = info["shape"]
                .as_array()
                .and_then(|s| s.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
                .ok_or_else(|| format!("{name}: no shape"))?;
            let offsets: Vec<usize> = info["data_offsets"]
                .as_array()
                .and_then(|s| s.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
                .filter(|o: &Vec<usize>| o.len() == 2 && o[0] <= o[1])
                .ok_or_else(|| format!("{name}: no data_offsets"))?;
            if start + offsets[1] > data.len() {
                return Err(format!("{name}: data past the end of the file"));
            }
            entries.insert(name, (dtype, shape, offsets[0], offsets[1]));
        }
        Ok(SafeTensors {
            data,
            start,
            entries,
        })
    }

    /// The F32 tensor `name` (or `bert.name`) of `shape`.
    fn get(&self, name: &str, shape: &[usize]) -> std::result::Result<Vec<f32>, String> {
        let prefixed = format!("bert.{name}");
        let (dtype, found, begin, end) = self
            .entries
            .get(name)
            .or_else(|| self.entries.get(&prefixed))
            .ok_or_else(|| format!("no tensor {name}"))?;
        if dtype != "F32" {
            return Err(format!("{name} is {dtype}, not F32"));
        }
        if found != shape {
            return Err(format!("{name} has shape {found:?}, not {shape:?}"));
        }
        let bytes = &self.data[self.start + begin..self.start + end];
        if bytes.len() != shape.iter().product::<usize>() * 4 {
            return Err(format!("{name}: {} bytes for shape {shape:?}", bytes.len()));
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

impl Bert {
    /// Load from a safetensors file's bytes.
    pub(crate) fn load(cfg: Config, weights: Vec<u8>) -> std::result::Result<Bert, String> {
        cfg.check()?;
        let st = SafeTensors::parse(weights)?;
        let h = cfg.hidden_size;
        let inter = cfg.intermediate_size;
        let norm = |prefix: &str| -> std::result::Result<Norm, String> {
            Ok(Norm {
                gamma: st.get(&format!("{prefix}.weight"), &[h])?,
                beta: st.get(&format!("{prefix}.bias"), &[h])?,
            })
        };
        let linear =
            |prefix: &str, out: usize, inp: usize| -> std::result::Result<Linear, String> {
                let w = st.get(&format!("{prefix}.weight"), &[out, inp])?;
                Ok(Linear {
                    weight: Packed::from_linear(&w, out, inp),
                    bias: st.get(&format!("{prefix}.bias"), &[out])?,
                })
            };
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for l in 0..cfg.num_hidden_layers {
            let p = format!("encoder.layer.{l}");
            let mut w = Vec::with_capacity(3 * h * h);
            let mut bias = Vec::with_capacity(3 * h);
            for part in ["query", "key", "value"] {
                w.extend(st.get(&format!("{p}.attention.self.{part}.weight"), &[h, h])?);
                bias.extend(st.get(&format!("{p}.attention.self.{part}.bias"), &[h])?);
            }
            layers.push(Layer {
                qkv: Linear {
                    weight: Packed::from_linear(&w, 3 * h, h),
                    bias,
                },
                attn_out: linear(&format!("{p}.attention.output.dense"), h, h)?,
                attn_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                ffn_in: linear(&format!("{p}.intermediate.dense"), inter, h)?,
                ffn_out: linear(&format!("{p}.output.dense"), h, inter)?,
                ffn_norm: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        Ok(Bert {
            eps: cfg.layer_norm_eps as f32,
            word: st.get("embeddings.word_embeddings.weight", &[cfg.vocab_size, h])?,
            position: st.get(
                "embeddings.position_embeddings.weight",
                &[cfg.max_position_embeddings, h],
            )?,
            token_type: st.get(
                "embeddings.token_type_embeddings.weight",
                &[cfg.type_vocab_size, h],
            )?,
            embed_norm: norm("embeddings.LayerNorm")?,
            layers,
            isa: Isa::detect(),
            cfg,
        })
    }

    /// The instruction set in use.
    pub(crate) fn isa_name(&self) -> &'static str {
        self.isa.name()
    }

    /// The longest sequence the position embeddings allow.
    pub(crate) fn max_positions(&self) -> usize {
        self.cfg.max_position_embeddings
    }

    #[cfg(test)]
    fn with_isa(mut self, isa: Isa) -> Bert {
        self.isa = isa;
        self
    }

    /// Sentence vectors: for each sequence of word-piece ids (type ids all 0), the mean
    /// of BERT's last hidden states over its tokens, L2-normalised. An empty sequence gives
    /// a zero vector.
    pub(crate) fn embed(
        &self,
        seqs: &[&[u32]],
        ws: &mut Workspace,
    ) -> std::result::Result<Vec<Vec<f32>>, String> {
        let h = self.cfg.hidden_size;
        for s in seqs {
            if s.len() > self.cfg.max_position_embeddings {
                return Err(format!(
                    "{} word pieces; the model reads at most {}",
                    s.len(),
                    self.cfg.max_position_embeddings
                ));
            }
            if let Some(&id) = s.iter().find(|&&id| id as usize >= self.cfg.vocab_size) {
                return Err(format!("word piece id {id} outside the vocabulary"));
            }
        }
        let total: usize = seqs.iter().map(|s| s.len()).sum();
        let hidden = self.encode(seqs, total, ws);
        let mut out = Vec::with_capacity(seqs.len());
        let mut row = 0;
        for s in seqs {
            let mut v = vec![0f32; h];
            for t in 0..s.len() {
                for (acc, x) in v.iter_mut().zip(&hidden[(row + t) * h..][..h]) {
                    *acc += *x;
                }
            }
            let count = (s.len() as f32).max(1e-9);
            for x in v.iter_mut() {
                *x /= count;
            }
            let norm = lane_sum(&v.iter().map(|x| x * x).collect::<Vec<_>>())
                .sqrt()
                .max(1e-12);
            for x in v.iter_mut() {
                *x /= norm;
            }
            out.push(v);
            row += s.len();
        }
        Ok(out)
    }

    /// The last hidden states of all tokens of `seqs`, end to end (`total × hidden`).
    fn encode<'w>(&self, seqs: &[&[u32]], total: usize, ws: &'w mut Workspace) -> &'w [f32] {
        let isa = self.isa;
        let h = self.cfg.hidden_size;
        let inter = self.cfg.intermediate_size;
        let resize = |v: &mut Vec<f32>, n: usize| {
            v.clear();
            v.resize(n, 0.0);
        };
        resize(&mut ws.x, total * h);
        resize(&mut ws.qkv, total * 3 * h);
        resize(&mut ws.ctx, total * h);
        // Embeddings: (word + token type 0) + position, then LayerNorm.
        let mut row = 0;
        for s in seqs {
            for (pos, &id) in s.iter().enumerate() {
                let x = &mut ws.x[(row + pos) * h..][..h];
                let word = &self.word[id as usize * h..][..h];
                let ty = &self.token_type[..h];
                let p = &self.position[pos * h..][..h];
                for j in 0..h {
                    x[j] = (word[j] + ty[j]) + p[j];
                }
            }
            row += s.len();
        }
        let norm = &self.embed_norm;
        ws.x.par_chunks_mut(MC * h)
            .for_each(|x| layer_norm(isa, x, &norm.gamma, &norm.beta, self.eps));
        let lens: Vec<(usize, usize)> = seqs
            .iter()
            .scan(0, |off, s| {
                let at = *off;
                *off += s.len();
                Some((at, s.len()))
            })
            .filter(|&(_, len)| len > 0)
            .collect();
        for layer in &self.layers {
            matmul(
                isa,
                &ws.x,
                &layer.qkv.weight,
                &mut ws.qkv,
                &layer.qkv.bias,
                Epilogue::None,
            );
            self.attention(&ws.qkv, &mut ws.ctx, &lens);
            // Per chunk of rows, so that the intermediate activations stay in cache:
            // x ← LN(x + ctx·Wo + bo); x ← LN(x + GELU(x·Wi + bi)·Wo2 + bo2).
            let ctx = &ws.ctx;
            ws.x.par_chunks_mut(MC * h).enumerate().for_each_init(
                ChunkScratch::default,
                |scratch, (chunk, x)| {
                    let rows = x.len() / h;
                    let ctx = &ctx[chunk * MC * h..][..rows * h];
                    let out = &layer.attn_out;
                    scratch.tmp.clear();
                    scratch.tmp.resize(rows * h, 0.0);
                    scratch.inter.clear();
                    scratch.inter.resize(rows * inter, 0.0);
                    let tmp = scratch.tmp.as_mut_ptr();
                    // SAFETY: `ctx`, `x`, `tmp` and `inter` hold `rows` full rows.
                    unsafe {
                        matmul_serial(
                            isa,
                            rows,
                            ctx.as_ptr(),
                            h,
                            &out.weight,
                            tmp,
                            h,
                            &out.bias,
                            Epilogue::None,
                        )
                    };
                    let n = &layer.attn_norm;
                    add_layer_norm(isa, x, &scratch.tmp, &n.gamma, &n.beta, self.eps);
                    let fin = &layer.ffn_in;
                    let mid = scratch.inter.as_mut_ptr();
                    // SAFETY: as above.
                    unsafe {
                        matmul_serial(
                            isa,
                            rows,
                            x.as_ptr(),
                            h,
                            &fin.weight,
                            mid,
                            inter,
                            &fin.bias,
                            Epilogue::Gelu,
                        )
                    };
                    let fout = &layer.ffn_out;
                    // SAFETY: as above.
                    unsafe {
                        matmul_serial(
                            isa,
                            rows,
                            mid,
                            inter,
                            &fout.weight,
                            tmp,
                            h,
                            &fout.bias,
                            Epilogue::None,
                        )
                    };
                    let n = &layer.ffn_norm;
                    add_layer_norm(isa, x, &scratch.tmp, &n.gamma, &n.beta, self.eps);
                },
            );
        }
        &ws.x
    }

    /// Self-attention of every sequence: `ctx` (tokens × hidden) from `qkv`
    /// (tokens × 3·hidden, Q | K | V), one task per (sequence, head).
    fn attention(&self, qkv: &[f32], ctx: &mut [f32], seqs: &[(usize, usize)]) {
        let isa = self.isa;
        let h = self.cfg.hidden_size;
        let heads = self.cfg.num_attention_heads;
        let dh = h / heads;
        let scale = 1.0 / (dh as f32).sqrt();
        let ctx_ptr = SyncPtr(ctx.as_mut_ptr());
        let ctx_len = ctx.len();
        let tasks: Vec<(usize, usize, usize)> = seqs
            .iter()
            .flat_map(|&(off, len)| (0..heads).map(move |head| (off, len, head)))
            .collect();
        tasks
            .par_iter()
            .for_each_init(Scratch::default, |s, &(off, len, head)| {
                let q0 = off * 3 * h + head * dh;
                let k0 = q0 + h;
                let v0 = q0 + 2 * h;
                s.kt.pack_transposed(&qkv[k0..], 3 * h, len, dh);
                s.v.pack_rows(&qkv[v0..], 3 * h, len, dh);
                let ld = len.div_ceil(NR) * NR;
                s.scores.clear();
                s.scores.resize(len * ld, 0.0);
                assert!(q0 + (len - 1) * 3 * h + dh <= qkv.len());
                assert!((off + len) * h <= ctx_len);
                // SAFETY: Q rows lie inside `qkv` (checked); `scores` is len × ld.
                unsafe {
                    matmul_serial(
                        isa,
                        len,
                        qkv.as_ptr().add(q0),
                        3 * h,
                        &s.kt,
                        s.scores.as_mut_ptr(),
                        ld,
                        &[],
                        Epilogue::None,
                    )
                };
                for row in s.scores.chunks_exact_mut(ld) {
                    softmax(isa, &mut row[..len], scale);
                }
                // SAFETY: this task alone writes columns head·dh .. +dh of rows
                // off .. off+len of `ctx` (checked in bounds).
                unsafe {
                    matmul_serial(
                        isa,
                        len,
                        s.scores.as_ptr(),
                        ld,
                        &s.v,
                        ctx_ptr.get().add(off * h + head * dh),
                        h,
                        &[],
                        Epilogue::None,
                    )
                };
            });
    }
}

/// A pointer shared by tasks that write disjoint parts of one buffer.
#[derive(Clone, Copy)]
struct SyncPtr(*mut f32);
// SAFETY: used only for disjoint writes inside one parallel loop that outlives no borrow.
unsafe impl Send for SyncPtr {}
// SAFETY: as above.
unsafe impl Sync for SyncPtr {}
impl SyncPtr {
    fn get(self) -> *mut f32 {
        self.0
    }
}

#[cfg(test)]
mod tests;
