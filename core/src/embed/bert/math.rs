//! Element-wise kernels: exp, erf and GELU approximations, softmax and LayerNorm, in
//! portable Rust compiled once per instruction set so that the compiler vectorises.

use super::isa::{BASE_FMA, Isa, madd};

/// Define `fn $name(isa, args…)` running `$imp::<FMA>` compiled for the chosen ISA.
macro_rules! multiversion {
    ($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => $imp:ident) => {
        $(#[$meta])*
        pub(super) fn $name(isa: Isa, $($arg: $ty),*) -> $ret {
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
pub(super) fn exp_approx<const FMA: bool>(x: f32) -> f32 {
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
pub(super) fn erf_approx<const FMA: bool>(x: f32) -> f32 {
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
pub(super) fn gelu<const FMA: bool>(x: f32) -> f32 {
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
pub(super) fn lane_sum(x: &[f32]) -> f32 {
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
