"""sentence-transformers' side of `cargo bench --bench embed`: load the model from a
directory, embed the chunks of a JSON file in batches of 32 (one encode call per batch,
as the Rust side does), then each question of QUESTIONS_JSON alone (one warm-up pass,
then ROUNDS passes), and print one JSON line: {"load_s", "per_s"} (medians) and
"question_ms" ([p50, p90, min]).

Usage: python embed_st.py MODEL_DIR CHUNKS_JSON ROUNDS [QUESTIONS_JSON]
"""

from __future__ import annotations

import json
import statistics
import sys
import time


def main() -> None:
    model_dir, chunks_path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    start = time.perf_counter()
    from sentence_transformers import SentenceTransformer

    import_s = time.perf_counter() - start
    texts = json.load(open(chunks_path, encoding="utf-8"))
    loads = []
    model = None
    for _ in range(3):
        start = time.perf_counter()
        model = SentenceTransformer(model_dir, device="cpu")
        loads.append(time.perf_counter() - start)
    assert model is not None
    model.encode(texts[:32], batch_size=32, normalize_embeddings=True)
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for i in range(0, len(texts), 32):
            model.encode(texts[i : i + 32], batch_size=32, normalize_embeddings=True)
        rates.append(len(texts) / (time.perf_counter() - start))
    result = {
        "load_s": statistics.median(loads),
        "import_s": import_s,
        "per_s": statistics.median(rates),
    }
    if len(sys.argv) > 4:
        questions = json.load(open(sys.argv[4], encoding="utf-8"))
        for q in questions:
            model.encode([q], normalize_embeddings=True)
        times = []
        for _ in range(rounds):
            for q in questions:
                start = time.perf_counter()
                model.encode([q], normalize_embeddings=True)
                times.append((time.perf_counter() - start) * 1000.0)
        times.sort()
        result["question_ms"] = [times[len(times) // 2], times[len(times) * 9 // 10], times[0]]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
