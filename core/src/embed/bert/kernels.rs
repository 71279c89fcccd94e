//! The matrix product: the instruction sets ([`Isa`]), weights packed into panels
//! ([`Packed`]) and the register-blocked micro-kernels (AVX-512, AVX2+FMA, portable).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use std::sync::Arc;

use rayon::prelude::*;

use super::isa::{BASE_FMA, Isa, madd};
use super::math::gelu_slice;

/// Columns per packed panel (two AVX-512 registers).
pub(super) const NR: usize = 32;
/// Rows per AVX-512 tile.
const MR_AVX512: usize = 12;
/// Rows per AVX2 tile.
const MR_AVX2: usize = 6;
/// Rows per portable tile.
const MR_PORTABLE: usize = 4;
/// How many rows of a panel ahead the AVX2 tile asks for.
const PREFETCH: usize = 16;
/// Rows a thread takes at a time in a product.
pub(super) const MC: usize = 96;

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
    lines: Lines,
}

/// Where a [`Packed`] matrix's panels live.
#[derive(Debug, Clone)]
enum Lines {
    /// In a vector of its own (a matrix being packed, attention's scratch).
    Own(Vec<Line>),
    /// In `len` lines of a model's [`Arena`] from line `start`.
    Arena {
        arena: Arc<Arena>,
        start: usize,
        len: usize,
    },
}

impl Default for Lines {
    fn default() -> Lines {
        Lines::Own(Vec::new())
    }
}

impl Packed {
    /// Pack Bᵀ where B is `rows × cols` at `src[r * stride + c]`: the result is
    /// `cols × rows` (k = cols, n = rows).
    pub(super) fn pack_transposed(&mut self, src: &[f32], stride: usize, rows: usize, cols: usize) {
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
    pub(super) fn pack_rows(&mut self, src: &[f32], stride: usize, rows: usize, cols: usize) {
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

    /// Zeroed storage of its own for a k × n matrix.
    fn reset(&mut self, k: usize, n: usize) {
        self.k = k;
        self.n = n;
        if !matches!(self.lines, Lines::Own(_)) {
            self.lines = Lines::default();
        }
        if let Lines::Own(lines) = &mut self.lines {
            lines.clear();
            lines.resize(n.div_ceil(NR) * k * NR / 16, Line([0.0; 16]));
        }
    }

    /// A PyTorch `Linear` weight (`out × in`, row-major) as the B of `x · Wᵀ`.
    pub(super) fn from_linear(weight: &[f32], out: usize, inp: usize) -> Packed {
        let mut packed = Packed::default();
        packed.pack_transposed(weight, inp, out, inp);
        packed
    }

    /// The packed lines.
    fn lines(&self) -> &[Line] {
        match &self.lines {
            Lines::Own(lines) => lines,
            Lines::Arena { arena, start, len } => &arena.lines()[*start..][..*len],
        }
    }

    /// The floats of storage of its own (after [`Packed::reset`]).
    fn floats_mut(&mut self) -> &mut [f32] {
        let Lines::Own(lines) = &mut self.lines else {
            unreachable!("packing writes to lines of its own (reset first)")
        };
        let len = lines.len() * 16;
        // SAFETY: `Line` is `repr(C)` around `[f32; 16]`: the lines are `len` floats.
        unsafe { std::slice::from_raw_parts_mut(lines.as_mut_ptr().cast::<f32>(), len) }
    }

    fn panel(&self, p: usize) -> *const f32 {
        // In bounds: `p < panels`, each panel `k * NR` floats.
        self.lines()
            .as_ptr()
            .cast::<f32>()
            .wrapping_add(p * self.k * NR)
    }
}

/// The packed weights of a model in one anonymous mapping that the kernel may back with
/// huge pages (2 MiB on x86-64 Linux, asked for with `madvise`): a question reads every
/// weight once, tens of MB, and with 4 KiB pages a TLB miss every 4 KiB of a panel.
#[derive(Debug)]
pub(super) struct Arena {
    map: memmap2::MmapMut,
    /// Where the lines start in the map (a huge page boundary).
    offset: usize,
    len: usize,
}

/// The huge page size the arena aligns to.
const HUGE_PAGE: usize = 2 << 20;

impl Arena {
    /// Move the lines of `matrices` into one arena; they keep their own lines when the
    /// mapping cannot be made.
    pub(super) fn gather(matrices: &mut [&mut Packed]) {
        let len: usize = matrices.iter().map(|m| m.lines().len()).sum();
        let bytes = len * std::mem::size_of::<Line>();
        let Ok(mut map) = memmap2::MmapMut::map_anon(bytes + HUGE_PAGE) else {
            return;
        };
        let offset = map.as_ptr().align_offset(HUGE_PAGE);
        // Without transparent huge pages (or off Linux) the arena is still one mapping.
        #[cfg(target_os = "linux")]
        let _ = map.advise_range(memmap2::Advice::HugePage, offset, bytes);
        {
            // SAFETY: `offset + bytes` lies in the map; the offset is 2 MiB-aligned, so
            // the lines are aligned; zeroed memory is a valid `Line`.
            let lines: &mut [Line] = unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr().add(offset).cast::<Line>(), len)
            };
            let mut at = 0;
            for m in matrices.iter() {
                let own = m.lines();
                lines[at..][..own.len()].copy_from_slice(own);
                at += own.len();
            }
        }
        let arena = Arc::new(Arena { map, offset, len });
        let mut start = 0;
        for m in matrices.iter_mut() {
            let len = m.lines().len();
            m.lines = Lines::Arena {
                arena: Arc::clone(&arena),
                start,
                len,
            };
            start += len;
        }
    }

    fn lines(&self) -> &[Line] {
        // SAFETY: as in `gather`; the map lives as long as `self`.
        unsafe {
            std::slice::from_raw_parts(self.map.as_ptr().add(self.offset).cast::<Line>(), self.len)
        }
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
                // Ask for B's row PREFETCH rows ahead (both of its lines on the first
                // pass): a few rows read B once, from memory, and would wait on each row.
                let ahead = b.wrapping_add(PREFETCH * NR).cast::<i8>();
                _mm_prefetch::<_MM_HINT_T0>(ahead);
                if half == 0 {
                    _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64));
                }
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
pub(super) enum Epilogue {
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
pub(super) unsafe fn matmul_serial(
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
    let panels = 0..b.n.div_ceil(NR);
    // SAFETY: forwarded contract.
    unsafe { matmul_panels(isa, m, a, lda, b, panels, c, ldc, bias, epilogue) }
}

/// The columns of panels `panels` of C = A · B + bias (as [`matmul_serial`]).
///
/// # Safety
/// As [`matmul_serial`], and `panels` within B's panels.
#[allow(clippy::too_many_arguments)]
unsafe fn matmul_panels(
    isa: Isa,
    m: usize,
    a: *const f32,
    lda: usize,
    b: &Packed,
    panels: std::ops::Range<usize>,
    c: *mut f32,
    ldc: usize,
    bias: &[f32],
    epilogue: Epilogue,
) {
    let mr = tile_rows(isa);
    for p in panels {
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

/// A pointer shared by tasks that read, or write disjoint parts of, one buffer.
#[derive(Clone, Copy)]
pub(super) struct SyncPtr<T>(pub(super) *mut T);
// SAFETY: used only for reads and disjoint writes inside one parallel loop that outlives
// no borrow.
unsafe impl<T> Send for SyncPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SyncPtr<T> {}
impl<T> SyncPtr<T> {
    pub(super) fn get(self) -> *mut T {
        self.0
    }
}

/// C = A · B + bias (as [`matmul_serial`]) with B's panels split over rayon's threads:
/// for a few rows (a question), where reading B dominates and rows alone give one
/// thread all the work. Each element is computed as on one thread (bit-identical).
///
/// # Safety
/// As [`matmul_serial`].
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn matmul_columns(
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
    let panels = b.n.div_ceil(NR);
    let parts = rayon::current_num_threads().min(panels);
    if parts <= 1 {
        // SAFETY: forwarded contract.
        return unsafe { matmul_serial(isa, m, a, lda, b, c, ldc, bias, epilogue) };
    }
    let (a, c) = (SyncPtr(a.cast_mut()), SyncPtr(c));
    (0..parts).into_par_iter().for_each(|part| {
        let range = panels * part / parts..panels * (part + 1) / parts;
        // SAFETY: the parts write disjoint columns of C; A and B are only read.
        unsafe { matmul_panels(isa, m, a.get(), lda, b, range, c.get(), ldc, bias, epilogue) };
    });
}

/// C (`m × b.n`, contiguous) = A (`m × b.k`, contiguous) · B + bias, rows split over
/// rayon's threads.
pub(super) fn matmul(
    isa: Isa,
    a: &[f32],
    b: &Packed,
    c: &mut [f32],
    bias: &[f32],
    epilogue: Epilogue,
) {
    let (k, n) = (b.k, b.n);
    let m = a.len().checked_div(k).unwrap_or(c.len() / n.max(1));
    assert!(a.len() >= m * k && c.len() >= m * n && (bias.is_empty() || bias.len() == n));
    if m == 0 || n == 0 {
        return;
    }
    if m <= MC {
        // SAFETY: `a` and `c` hold `m` full rows, checked above.
        return unsafe {
            matmul_columns(isa, m, a.as_ptr(), k, b, c.as_mut_ptr(), n, bias, epilogue)
        };
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
