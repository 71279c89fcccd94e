"""sentence-transformers' side of `cargo bench --bench embed`: load the model from a
directory, embed the chunks of a JSON file in batches of 32 (one encode call per batch,
as the Rust side does), and print one JSON line: {"load_s", "per_s"} (medians).

Usage: python embed_st.py MODEL_DIR CHUNKS_JSON ROUNDS
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
    print(
        json.dumps(
            {
                "load_s": statistics.median(loads),
                "import_s": import_s,
                "per_s": statistics.median(rates),
            }
        )
    )


if __name__ == "__main__":
    main()
