"""The learned topic scorer's inference (memory_manager/privacy_model.py): exact hashing, exact
scores of a hand-made weights file, and a missing or corrupt file meaning no model (rules only)."""
from __future__ import annotations

import json
import math
import zlib
from array import array

import pytest

from memory_manager import privacy_model as pm


def crc(s: str, size: int) -> int:
    return zlib.crc32(s.encode("utf-8")) % size


def test_features_are_the_crc32_of_each_prefixed_string():
    # "Ab 糖" (NFKC-lowered: "ab", "糖"): words, one bigram, char n-grams of " ab " and "糖".
    size = 1 << 17
    want = [crc("wab", size)]
    want += [crc("c" + g, size) for g in (" ", " a", " ab", " ab ", "a", "ab", "ab ", "b", "b ", " ")]
    want += [crc("w糖", size), crc("bab 糖", size), crc("c糖", size)]
    assert pm.features("Ab 糖", size) == want


def test_features_read_full_width_text_as_ascii():
    # NFKC folds the full-width letters an IME types: the same features as plain ASCII.
    assert pm.features("ＤＩＡＢＥＴＥＳ", 997) == pm.features("diabetes", 997)


def test_known_values_of_the_hash():
    # Fixed numbers, so a change of hashing (which would silently break every shipped model) fails here.
    assert pm.features("hi", 1 << 17) == [106388, 68179, 90531, 63810, 81664, 50161, 37944, 60751, 127847, 89165,
                                          68179]
    assert pm.features("我有糖尿病", 1 << 17)[:6] == [74369, 39538, 24203, 2707, 25217, 54641]


def model_bytes(size: int, classes: list[str], rows: list[list[int]], scales, bias, threshold=0.9,
                fmt=pm.FORMAT) -> bytes:
    head = {"format": fmt, "size": size, "classes": classes, "scales": scales, "bias": bias, "threshold": threshold}
    return json.dumps(head).encode() + b"\n" + b"".join(array("b", r).tobytes() for r in rows)


def test_a_hand_made_model_scores_exactly(tmp_path):
    # Size 4: every feature of "x" lands in one of four buckets; "health" weighs +100 on each of them.
    size = 4
    idx = pm.features("x", size)
    path = tmp_path / "m.bin"
    path.write_bytes(model_bytes(size, ["none", "health"], [[0] * size, [100] * size], [1.0, 0.01], [0.0, -1.0]))
    model = pm.load(str(path))
    counts = {i: idx.count(i) for i in set(idx)}
    norm = math.sqrt(sum(c * c for c in counts.values()))
    logit = -1.0 + 100 * sum(counts.values()) * 0.01 / norm
    want = 1 - 1 / (1 + math.exp(logit))
    best, got = pm.score("x", model)
    assert best == "health" and got == pytest.approx(want, abs=1e-12)
    assert model.threshold == 0.9


def test_a_negative_weight_is_read_signed(tmp_path):
    path = tmp_path / "m.bin"
    path.write_bytes(model_bytes(2, ["none", "legal"], [[0, 0], [-127, -127]], [1.0, 1.0], [0.0, 0.0]))
    best, got = pm.score("anything at all", pm.load(str(path)))
    assert best == "legal" and got < 1e-6


@pytest.mark.parametrize("blob", [
    b"",                                                           # empty file
    b"not json\n\x00\x00",                                         # header not JSON
    model_bytes(2, ["none", "health"], [[0, 0], [1, 1]], [1, 1], [0, 0], fmt="other"),   # another format
    model_bytes(2, ["health", "none"], [[0, 0], [1, 1]], [1, 1], [0, 0]),                # none not first
    model_bytes(2, ["none", "health"], [[0, 0], [1, 1]], [1, 1], [0, 0])[:-1],           # truncated weights
])
def test_a_corrupt_file_is_no_model(tmp_path, blob):
    path = tmp_path / "m.bin"
    path.write_bytes(blob)
    assert pm.load(str(path)) is None


def test_a_missing_file_is_no_model(tmp_path):
    assert pm.load(str(tmp_path / "absent.bin")) is None


def test_no_score_for_empty_or_long_lines(tmp_path):
    path = tmp_path / "m.bin"
    path.write_bytes(model_bytes(2, ["none", "health"], [[0, 0], [1, 1]], [1, 1], [0, 0]))
    model = pm.load(str(path))
    assert pm.score("   ", model) is None
    assert pm.score("x" * (pm.MAX_CHARS + 1), model) is None


def test_the_training_script_writes_what_inference_reads():
    # bench/train_privacy_model.py quantises and dumps; parse must give back the very model it scored
    # with during leave-one-set-out (same bytes, same header), so the shipped figures are the file's.
    np = pytest.importorskip("numpy")
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    import train_privacy_model as tpm

    size = 64
    rng = np.random.default_rng(3)
    coef = rng.normal(size=(len(tpm.CLASSES), size))
    model = tpm.quantise(coef, rng.normal(size=len(tpm.CLASSES)), size, 0.95, "")
    again = pm.parse(tpm.dump(model, "note"))
    assert again == model
    assert max(abs(b * model.scales[0] - w) for b, w in zip(model.weights[0], coef[0])) <= model.scales[0] / 2 + 1e-12
    line = "我妈妈上个月确诊了乳腺癌"
    assert pm.score(line, again) == pm.score(line, model)
