//! Unit tests of the BERT kernels and forward pass against plain f64 references.

use std::collections::HashMap;

use super::*;

/// erf in f64: the Maclaurin series below 3, the continued fraction of erfc above.
fn erf64(x: f64) -> f64 {
    let ax = x.abs();
    let y = if ax < 3.0 {
        let mut term = ax;
        let mut sum = ax;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -ax * ax / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        let mut f = 0.0;
        for k in (1..200).rev() {
            f = (k as f64 / 2.0) / (ax + f);
        }
        1.0 - (-ax * ax).exp() / std::f64::consts::PI.sqrt() / (ax + f)
    };
    y.copysign(x)
}

fn gelu64(x: f64) -> f64 {
    0.5 * x * (1.0 + erf64(x / std::f64::consts::SQRT_2))
}

#[test]
fn erf_gelu_and_exp_are_within_their_error_bounds() {
    for isa in Isa::available() {
        let mut worst_erf = 0f64;
        let mut worst_gelu = 0f64;
        let mut worst_exp = 0f64;
        let mut x = -10.0f32;
        while x <= 10.0 {
            let fma = isa != Isa::Base;
            let erf = if fma {
                erf_approx::<true>(x)
            } else {
                erf_approx::<false>(x)
            };
            worst_erf = worst_erf.max((erf as f64 - erf64(x as f64)).abs());
            let mut g = [x];
            gelu_slice(isa, &mut g);
            let err = (g[0] as f64 - gelu64(x as f64)).abs() / (x.abs() as f64).max(1.0);
            worst_gelu = worst_gelu.max(err);
            let e = if fma {
                exp_approx::<true>(x * 8.0)
            } else {
                exp_approx::<false>(x * 8.0)
            };
            let reference = ((x * 8.0) as f64).exp();
            worst_exp = worst_exp.max((e as f64 - reference).abs() / reference);
            x += 1.0 / 1024.0;
        }
        eprintln!("{isa:?}: erf {worst_erf:e} gelu {worst_gelu:e} exp {worst_exp:e}");
        assert!(worst_erf < 5.0e-7, "{isa:?}: erf off by {worst_erf:e}");
        assert!(worst_gelu < 2.0e-7, "{isa:?}: gelu off by {worst_gelu:e}");
        assert!(worst_exp < 3.0e-7, "{isa:?}: exp off by {worst_exp:e}");
    }
    // Exact at the ends torch uses.
    assert_eq!(gelu::<true>(0.0), 0.0);
    assert_eq!(erf_approx::<true>(20.0), 1.0);
    assert_eq!(erf_approx::<true>(-20.0), -1.0);
    assert!(gelu::<true>(-20.0).abs() < 1e-30);
}

/// A deterministic pseudo-random stream in [-1, 1).
fn noise(seed: u64) -> impl FnMut() -> f32 {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

#[test]
fn the_product_equals_a_naive_one_on_odd_shapes_and_isas_agree() {
    let mut next = noise(7);
    for &m in &[1usize, 5, 12, 13, 97, 200] {
        for &k in &[1usize, 7, 32, 33, 100] {
            for &n in &[1usize, 17, 32, 33, 70] {
                let a: Vec<f32> = (0..m * k).map(|_| next()).collect();
                let w: Vec<f32> = (0..n * k).map(|_| next()).collect(); // n × k
                let bias: Vec<f32> = (0..n).map(|_| next()).collect();
                let packed = Packed::from_linear(&w, n, k);
                let mut results = Vec::new();
                for isa in Isa::available() {
                    for epilogue in [Epilogue::None, Epilogue::Gelu] {
                        let mut c = vec![f32::NAN; m * n];
                        matmul(isa, &a, &packed, &mut c, &bias, epilogue);
                        for i in 0..m {
                            for j in 0..n {
                                let mut r: f64 = bias[j] as f64;
                                for p in 0..k {
                                    r += a[i * k + p] as f64 * w[j * k + p] as f64;
                                }
                                if epilogue == Epilogue::Gelu {
                                    r = gelu64(r);
                                }
                                let got = c[i * n + j] as f64;
                                assert!(
                                    (got - r).abs() <= 1e-5 * (1.0 + r.abs()) * (k as f64).sqrt(),
                                    "{isa:?} m={m} k={k} n={n} ({i},{j}): {got} vs {r}"
                                );
                            }
                        }
                        results.push((isa, epilogue, c));
                    }
                }
                // AVX-512 and AVX2 round identically.
                let of = |want: Isa, e: Epilogue| {
                    results
                        .iter()
                        .find(|(i, x, _)| *i == want && *x == e)
                        .map(|(_, _, c)| c)
                };
                for e in [Epilogue::None, Epilogue::Gelu] {
                    if let (Some(x), Some(y)) = (of(Isa::Avx512, e), of(Isa::Avx2, e)) {
                        assert!(x.iter().zip(y).all(|(a, b)| a.to_bits() == b.to_bits()));
                    }
                }
            }
        }
    }
}

#[test]
fn softmax_equals_a_reference_and_layer_norm_too() {
    let mut next = noise(3);
    for isa in Isa::available() {
        for len in [1usize, 2, 15, 16, 17, 87, 256] {
            let x: Vec<f32> = (0..len).map(|_| next() * 30.0).collect();
            let mut y = x.clone();
            softmax(isa, &mut y, 0.25);
            let max = x.iter().map(|v| *v as f64 * 0.25).fold(f64::MIN, f64::max);
            let sum: f64 = x.iter().map(|v| (*v as f64 * 0.25 - max).exp()).sum();
            for (v, got) in x.iter().zip(&y) {
                let r = (*v as f64 * 0.25 - max).exp() / sum;
                assert!(
                    (*got as f64 - r).abs() < 1e-6 * r.max(1e-3),
                    "{isa:?} {len}"
                );
            }
        }
        let n = 40;
        let x: Vec<f32> = (0..3 * n).map(|_| next() * 5.0).collect();
        let res: Vec<f32> = (0..3 * n).map(|_| next()).collect();
        let g: Vec<f32> = (0..n).map(|_| next()).collect();
        let b: Vec<f32> = (0..n).map(|_| next()).collect();
        let mut y = x.clone();
        add_layer_norm(isa, &mut y, &res, &g, &b, 1e-12);
        for row in 0..3 {
            let v: Vec<f64> = (0..n)
                .map(|j| x[row * n + j] as f64 + res[row * n + j] as f64)
                .collect();
            let mean = v.iter().sum::<f64>() / n as f64;
            let var = v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / n as f64;
            for j in 0..n {
                let r = (v[j] - mean) / (var + 1e-12).sqrt() * g[j] as f64 + b[j] as f64;
                assert!((y[row * n + j] as f64 - r).abs() < 2e-6, "{isa:?}");
            }
        }
    }
}

// A small random BERT, written as a safetensors file, against a plain f64 forward pass
// that pads the batch and masks as Hugging Face's BertModel does.

const SMALL: &str = r#"{"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
 "intermediate_size": 80, "layer_norm_eps": 1e-12, "vocab_size": 50,
 "max_position_embeddings": 300, "type_vocab_size": 2, "hidden_act": "gelu"}"#;

fn small_model() -> (Config, Vec<u8>, HashMap<String, Vec<f32>>) {
    let cfg: Config = serde_json::from_str(SMALL).unwrap();
    let (h, i) = (cfg.hidden_size, cfg.intermediate_size);
    let mut shapes: Vec<(String, Vec<usize>)> = vec![
        ("embeddings.word_embeddings.weight".into(), vec![50, h]),
        ("embeddings.position_embeddings.weight".into(), vec![300, h]),
        ("embeddings.token_type_embeddings.weight".into(), vec![2, h]),
        ("embeddings.LayerNorm.weight".into(), vec![h]),
        ("embeddings.LayerNorm.bias".into(), vec![h]),
    ];
    for l in 0..cfg.num_hidden_layers {
        let p = format!("encoder.layer.{l}");
        for part in ["query", "key", "value"] {
            shapes.push((format!("{p}.attention.self.{part}.weight"), vec![h, h]));
            shapes.push((format!("{p}.attention.self.{part}.bias"), vec![h]));
        }
        shapes.push((format!("{p}.attention.output.dense.weight"), vec![h, h]));
        shapes.push((format!("{p}.attention.output.dense.bias"), vec![h]));
        shapes.push((format!("{p}.attention.output.LayerNorm.weight"), vec![h]));
        shapes.push((format!("{p}.attention.output.LayerNorm.bias"), vec![h]));
        shapes.push((format!("{p}.intermediate.dense.weight"), vec![i, h]));
        shapes.push((format!("{p}.intermediate.dense.bias"), vec![i]));
        shapes.push((format!("{p}.output.dense.weight"), vec![h, i]));
        shapes.push((format!("{p}.output.dense.bias"), vec![h]));
        shapes.push((format!("{p}.output.LayerNorm.weight"), vec![h]));
        shapes.push((format!("{p}.output.LayerNorm.bias"), vec![h]));
    }
    let mut next = noise(11);
    let mut tensors = HashMap::new();
    let mut header = serde_json::Map::new();
    let mut data = Vec::new();
    for (name, shape) in shapes {
        let count: usize = shape.iter().product();
        let scale = if name.contains("LayerNorm.weight") {
            0.0
        } else if name.contains("dense") || name.contains("self") {
            0.25
        } else {
            1.0
        };
        let values: Vec<f32> = (0..count)
            .map(|_| {
                if scale == 0.0 {
                    1.0 + 0.2 * next()
                } else {
                    scale * next()
                }
            })
            .collect();
        let begin = data.len();
        for v in &values {
            data.extend_from_slice(&v.to_le_bytes());
        }
        header.insert(
            name.clone(),
            serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [begin, data.len()]}),
        );
        tensors.insert(name, values);
    }
    let header = serde_json::to_vec(&header).unwrap();
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend(header);
    file.extend(data);
    (cfg, file, tensors)
}

/// HF BertModel in f64: pad to the longest, additive mask of f32::MIN, mean pooling.
fn reference_forward(
    cfg: &Config,
    t: &HashMap<String, Vec<f32>>,
    seqs: &[&[u32]],
) -> Vec<Vec<f64>> {
    let (h, heads, inter) = (
        cfg.hidden_size,
        cfg.num_attention_heads,
        cfg.intermediate_size,
    );
    let dh = h / heads;
    let width = seqs.iter().map(|s| s.len()).max().unwrap_or(0).max(1);
    let w = |name: &str| -> Vec<f64> { t[name].iter().map(|&v| v as f64).collect() };
    let ln = |x: &mut [f64], g: &[f64], b: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        for (j, v) in x.iter_mut().enumerate() {
            *v = (*v - mean) / (var + 1e-12).sqrt() * g[j] + b[j];
        }
    };
    let linear = |x: &[f64], wt: &[f64], b: &[f64], out: usize, inp: usize| -> Vec<f64> {
        (0..out)
            .map(|o| b[o] + (0..inp).map(|i| x[i] * wt[o * inp + i]).sum::<f64>())
            .collect()
    };
    let mut results = Vec::new();
    for s in seqs {
        // Hidden states of the padded row (pad id 0).
        let mut x: Vec<Vec<f64>> = (0..width)
            .map(|pos| {
                let id = s.get(pos).copied().unwrap_or(0) as usize;
                let (we, pe, te) = (
                    w("embeddings.word_embeddings.weight"),
                    w("embeddings.position_embeddings.weight"),
                    w("embeddings.token_type_embeddings.weight"),
                );
                let mut v: Vec<f64> = (0..h)
                    .map(|j| we[id * h + j] + te[j] + pe[pos * h + j])
                    .collect();
                ln(
                    &mut v,
                    &w("embeddings.LayerNorm.weight"),
                    &w("embeddings.LayerNorm.bias"),
                );
                v
            })
            .collect();
        for l in 0..cfg.num_hidden_layers {
            let p = format!("encoder.layer.{l}");
            let get = |n: &str| w(&format!("{p}.{n}"));
            let proj = |part: &str, x: &[Vec<f64>]| -> Vec<Vec<f64>> {
                x.iter()
                    .map(|r| {
                        linear(
                            r,
                            &get(&format!("attention.self.{part}.weight")),
                            &get(&format!("attention.self.{part}.bias")),
                            h,
                            h,
                        )
                    })
                    .collect()
            };
            let (q, k, v) = (proj("query", &x), proj("key", &x), proj("value", &x));
            let mut ctx = vec![vec![0f64; h]; width];
            for head in 0..heads {
                for i in 0..width {
                    let scores: Vec<f64> = (0..width)
                        .map(|j| {
                            let dot: f64 = (0..dh)
                                .map(|d| q[i][head * dh + d] * k[j][head * dh + d])
                                .sum();
                            let mask = if j < s.len() { 0.0 } else { f32::MIN as f64 };
                            dot / (dh as f64).sqrt() + mask
                        })
                        .collect();
                    let max = scores.iter().cloned().fold(f64::MIN, f64::max);
                    let e: Vec<f64> = scores.iter().map(|v| (v - max).exp()).collect();
                    let sum: f64 = e.iter().sum();
                    for d in 0..dh {
                        ctx[i][head * dh + d] =
                            (0..width).map(|j| e[j] / sum * v[j][head * dh + d]).sum();
                    }
                }
            }
            for i in 0..width {
                let mut a = linear(
                    &ctx[i],
                    &get("attention.output.dense.weight"),
                    &get("attention.output.dense.bias"),
                    h,
                    h,
                );
                for j in 0..h {
                    a[j] += x[i][j];
                }
                ln(
                    &mut a,
                    &get("attention.output.LayerNorm.weight"),
                    &get("attention.output.LayerNorm.bias"),
                );
                let mid: Vec<f64> = linear(
                    &a,
                    &get("intermediate.dense.weight"),
                    &get("intermediate.dense.bias"),
                    inter,
                    h,
                )
                .into_iter()
                .map(gelu64)
                .collect();
                let mut o = linear(
                    &mid,
                    &get("output.dense.weight"),
                    &get("output.dense.bias"),
                    h,
                    inter,
                );
                for j in 0..h {
                    o[j] += a[j];
                }
                ln(
                    &mut o,
                    &get("output.LayerNorm.weight"),
                    &get("output.LayerNorm.bias"),
                );
                x[i] = o;
            }
        }
        let mut mean = vec![0f64; h];
        for row in x.iter().take(s.len()) {
            for j in 0..h {
                mean[j] += row[j];
            }
        }
        let count = (s.len() as f64).max(1e-9);
        let norm = mean.iter().map(|v| (v / count).powi(2)).sum::<f64>().sqrt();
        results.push(mean.iter().map(|v| v / count / norm.max(1e-12)).collect());
    }
    results
}

fn ids(len: usize, seed: u64) -> Vec<u32> {
    let mut next = noise(seed);
    (0..len).map(|_| ((next() + 1.0) * 24.9) as u32).collect()
}

#[test]
fn a_small_bert_equals_a_padded_and_masked_f64_reference() {
    let (cfg, file, tensors) = small_model();
    let a = ids(7, 1);
    let b = ids(1, 2);
    let c = ids(30, 3);
    let d = ids(256, 4);
    let seqs: Vec<&[u32]> = vec![&a, &b, &c, &d, &[]];
    let reference = reference_forward(&cfg, &tensors, &seqs[..4]);
    for isa in Isa::available() {
        let bert = Bert::load(cfg.clone(), file.clone()).unwrap().with_isa(isa);
        let mut ws = Workspace::default();
        let ours = bert.embed(&seqs, &mut ws).unwrap();
        assert_eq!(ours.len(), 5);
        for (i, (o, r)) in ours.iter().zip(&reference).enumerate() {
            let diff = o
                .iter()
                .zip(r)
                .map(|(x, y)| (*x as f64 - y).abs())
                .fold(0.0, f64::max);
            assert!(diff < 2e-6, "{isa:?} sequence {i}: off by {diff:e}");
        }
        assert!(
            ours[4].iter().all(|&v| v == 0.0),
            "an empty sequence: zeros"
        );
    }
}

#[test]
fn a_vector_is_bit_identical_alone_in_any_batch_and_on_each_run() {
    let (cfg, file, _) = small_model();
    let seqs: Vec<Vec<u32>> = [3usize, 120, 1, 47, 256, 16, 9]
        .iter()
        .enumerate()
        .map(|(i, &len)| ids(len, 100 + i as u64))
        .collect();
    let refs: Vec<&[u32]> = seqs.iter().map(Vec::as_slice).collect();
    let mut per_isa = Vec::new();
    for isa in Isa::available() {
        let bert = Bert::load(cfg.clone(), file.clone()).unwrap().with_isa(isa);
        let mut ws = Workspace::default();
        let batch = bert.embed(&refs, &mut ws).unwrap();
        let again = bert.embed(&refs, &mut ws).unwrap();
        assert_eq!(batch, again, "{isa:?}: same batch, same bits");
        for (i, s) in refs.iter().enumerate() {
            let alone = bert.embed(&[s], &mut Workspace::default()).unwrap();
            assert_eq!(alone[0], batch[i], "{isa:?}: sequence {i} alone");
        }
        let reversed: Vec<&[u32]> = refs.iter().rev().copied().collect();
        let back = bert.embed(&reversed, &mut ws).unwrap();
        for (i, v) in back.iter().rev().enumerate() {
            assert_eq!(*v, batch[i], "{isa:?}: sequence {i} in another order");
        }
        per_isa.push((isa, batch));
    }
    let avx512 = per_isa.iter().find(|(i, _)| *i == Isa::Avx512);
    let avx2 = per_isa.iter().find(|(i, _)| *i == Isa::Avx2);
    if let (Some((_, a)), Some((_, b))) = (avx512, avx2) {
        assert_eq!(a, b, "AVX-512 and AVX2 give the same bits");
    }
}

#[test]
fn bad_weights_and_inputs_are_errors() {
    let (cfg, file, _) = small_model();
    assert!(Bert::load(cfg.clone(), file[..100].to_vec()).is_err());
    assert!(Bert::load(cfg.clone(), b"\x08\0\0\0\0\0\0\0{\"a\":1}".to_vec()).is_err());
    let mut other: Config = cfg.clone();
    other.intermediate_size = 81;
    let err = Bert::load(other, file.clone()).unwrap_err();
    assert!(err.contains("intermediate.dense.weight"), "{err}");
    let bert = Bert::load(cfg, file).unwrap();
    let mut ws = Workspace::default();
    assert!(
        bert.embed(&[&[50]], &mut ws).is_err(),
        "id past the vocabulary"
    );
    assert!(bert.embed(&[&vec![1; 301]], &mut ws).is_err(), "too long");
    assert!(bert.embed(&[], &mut ws).unwrap().is_empty());
}

/// Throughput of the product on MiniLM's shapes (M = 32 chunks × 87 pieces); run with
/// `cargo test --release -p cc-search --lib matmul_throughput -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn matmul_throughput() {
    let m = 2784;
    let mut next = noise(5);
    for (k, n) in [(384usize, 1152usize), (384, 384), (384, 1536), (1536, 384)] {
        let a: Vec<f32> = (0..m * k).map(|_| next()).collect();
        let w: Vec<f32> = (0..n * k).map(|_| next()).collect();
        let packed = Packed::from_linear(&w, n, k);
        let mut c = vec![0f32; m * n];
        for isa in Isa::available() {
            let mut best = f64::MAX;
            for _ in 0..10 {
                let start = std::time::Instant::now();
                matmul(isa, &a, &packed, &mut c, &[], Epilogue::None);
                best = best.min(start.elapsed().as_secs_f64());
            }
            let gflops = 2.0 * (m * k * n) as f64 / best / 1e9;
            eprintln!(
                "{isa:?} M={m} K={k} N={n}: {:.2} ms, {gflops:.0} GFLOP/s",
                best * 1e3
            );
        }
    }
}
