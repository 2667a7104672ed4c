"""A learned scorer for sensitive-topic lines: one more signal for :mod:`memory_manager.privacy`.

Privacy issue 9: the rule table reaches ~1.0 on the labelled sets it was tuned on, but on sets
written by others it misses a tenth of the sensitive-topic lines (health, protected
characteristics, legal and financial trouble, minors, biometric data). This module scores a line
with a multinomial logistic regression over hashed features, trained by
``bench/train_privacy_model.py`` (scikit-learn, ``requirements-train.txt`` only) on the committed
development sets; inference here is the standard library alone.

Features (:func:`features`), computed on the NFKC-normalised, lower-cased line:

- character n-grams of length 1 to 4 of each run of CJK characters and of each word of letters
  or digits (padded with a space each side, so prefixes and suffixes are features), which reads
  Chinese without a segmenter;
- word unigrams and bigrams (a CJK run counts as one word).

Each feature string, prefixed with its kind, is hashed with :func:`zlib.crc32` (UTF-8) modulo the
table size: the training script calls this very function, so training and inference hash alike
(``tests/test_privacy_model.py`` checks exact values).

The weights file ``memory_manager/data/privacy_model.bin`` (:func:`load`): a JSON header line
(format, table size, class names, per-class scale, bias, threshold, training note), then the
weights as signed bytes, class-major (``weight = byte * scale[class]``). A missing or corrupt file
means no model: :func:`score` returns None and the detector runs on its rules alone. The file is
read on the first :func:`score` call, never on import.

Status (2026-12-03, branch lgate): shipped for the memory gate only. ``privacy.scan(text, learned=True)``
(:func:`memory_manager.privacy.learned_topics`) adds a possible topic finding on a line the rules give
no topic when its score reaches the file's threshold (0.95), for texts up to
``privacy.LEARNED_MAX_CHARS``; :mod:`memory_manager.gate` asks for it on what a store, edit or import
keeps. Audits, reports and cleanup scans of whole workspaces do not score: about 77 us per line, ~3x
the rule table's CPU on a 10 MB scan (``bench/README.md``, "A learned topic scorer"). ``python
bench/train_privacy_model.py --write --threshold 0.95`` writes the file (scikit-learn:
``requirements-train.txt``).
"""
from __future__ import annotations

import json
import math
import os
import re
import unicodedata
import zlib
from array import array
from collections import Counter
from dataclasses import dataclass

#: The weights file shipped with the package (written by ``bench/train_privacy_model.py``).
MODEL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "privacy_model.bin")
#: Format tag in the header; a file with another tag is not read (no model).
FORMAT = "cmm-privacy-model-1"
#: The class of lines that are not a sensitive topic.
NONE = "none"
#: Lines longer than this are not scored (cost grows with length; the topic sets' lines are < 300).
MAX_CHARS = 400

#: Lines with fewer units than this (a word of letters or digits is one unit, a CJK character one) are
#: not scored: on one- or two-word lines (a skill or topic name such as "a", "s") the unit-length
#: feature vector lets a few hashed weights decide alone ("a" scored 0.99 protected, which held
#: ``remember --skill s --topic a`` for approval). Every sensitive-topic line of the development sets
#: has at least 3 units.
MIN_UNITS = 3

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:'[a-z]+)?")
_CJK_FIRST = "\u3400"


def features(line: str, size: int) -> list[int]:
    """The hashed feature indices of ``line`` (with repeats: each occurrence counts once).

    Args:
        line: one line of text (any case, any Unicode form).
        size: the hash table size (a positive int; the model file's ``size``).

    Returns a list of ints in ``range(size)``: ``zlib.crc32`` of each feature string (its kind
    prefix, ``c``: character n-gram, ``w``: word, ``b``: word bigram, then the text, UTF-8)
    modulo ``size``. Shared with the training script, so both hash alike.
    """
    text = unicodedata.normalize("NFKC", line).lower()
    grams: list[str] = []
    add = grams.append
    prev = ""
    for token in _TOKEN.findall(text):
        add("w" + token)
        if prev:
            add("b" + prev + " " + token)
        prev = token
        padded = " " + token + " " if token[0] < _CJK_FIRST else token
        n = len(padded)
        for i in range(n):
            add("c" + padded[i])
            if i + 2 <= n:
                add("c" + padded[i:i + 2])
                if i + 3 <= n:
                    add("c" + padded[i:i + 3])
                    if i + 4 <= n:
                        add("c" + padded[i:i + 4])
    crc = zlib.crc32
    return [crc(g.encode()) % size for g in grams]


def units(line: str) -> int:
    """How many words of letters or digits and CJK characters ``line`` holds (NFKC-lowered, as
    :func:`features` reads it): the length :data:`MIN_UNITS` is compared with."""
    text = unicodedata.normalize("NFKC", line).lower()
    return sum(len(t) if t[0] >= _CJK_FIRST else 1 for t in _TOKEN.findall(text))


@dataclass(frozen=True)
class Model:
    """Loaded weights: ``classes`` (``classes[0]`` is :data:`NONE`), ``size`` (hash table size),
    ``weights`` (one ``array('b')`` of ``size`` signed bytes per class), ``scales`` and ``bias``
    (floats per class), ``threshold`` (the topic score from which a line is reported)."""

    classes: tuple[str, ...]
    size: int
    weights: tuple[array, ...]
    scales: tuple[float, ...]
    bias: tuple[float, ...]
    threshold: float


class ModelError(ValueError):
    """The weights file is malformed (header, size or class list)."""


def parse(blob: bytes) -> Model:
    """Read a weights file's bytes (format in the module docstring).

    Raises :class:`ModelError` when the header is not JSON of this :data:`FORMAT`, the class list
    does not start with :data:`NONE`, or the weights are not exactly ``classes x size`` bytes.
    """
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise ModelError("no header line")
    try:
        meta = json.loads(head.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ModelError(f"header is not JSON: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelError("not a privacy model of format " + FORMAT)
    try:
        classes = tuple(str(c) for c in meta["classes"])
        size = int(meta["size"])
        scales = tuple(float(x) for x in meta["scales"])
        bias = tuple(float(x) for x in meta["bias"])
        threshold = float(meta["threshold"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"header field missing or malformed: {exc}") from None
    if not classes or classes[0] != NONE or size <= 0 or len(scales) != len(classes) or len(bias) != len(classes):
        raise ModelError("class list, size, scales or bias malformed")
    if len(body) != size * len(classes):
        raise ModelError(f"{len(body)} weight bytes, expected {size * len(classes)}")
    weights = tuple(array("b", body[i * size:(i + 1) * size]) for i in range(len(classes)))
    return Model(classes, size, weights, scales, bias, threshold)


_loaded: list[Model | None] = []


def load(path: str | None = None) -> Model | None:
    """The model at ``path`` (default :data:`MODEL_PATH`), read once and cached; None when the file
    is missing, unreadable or malformed (the detector then uses its rules alone: a missing model
    must never stop a scan)."""
    if path is None and _loaded:
        return _loaded[0]
    try:
        with open(path or MODEL_PATH, "rb") as handle:
            model: Model | None = parse(handle.read())
    except (OSError, ModelError):
        model = None
    if path is None:
        _loaded.append(model)
    return model


def probabilities(model: Model, line: str) -> dict[str, float]:
    """Softmax probability of each class of ``model`` for ``line`` (keys: ``model.classes``).

    The features are counted and the count vector scaled to unit length (as in training); each
    class's logit is its bias plus the dot product with its dequantised weights."""
    idx = features(line, model.size)
    counts = Counter(idx)
    norm = math.sqrt(sum(c * c for c in counts.values())) or 1.0
    # sum over idx with repeats = the dot product with the count vector (map keeps the loop in C).
    logits = [bias + sum(map(weights.__getitem__, idx)) * scale / norm
              for weights, scale, bias in zip(model.weights, model.scales, model.bias)]
    top = max(logits)
    exp = [math.exp(x - top) for x in logits]
    norm = sum(exp)
    return {c: e / norm for c, e in zip(model.classes, exp)}


def score(line: str, model: Model | None = None) -> tuple[str, float] | None:
    """The most likely sensitive topic of ``line`` and the topic score (1 - P(none)), or None.

    None when no model is available (:func:`load`), the line is empty, longer than
    :data:`MAX_CHARS` or shorter than :data:`MIN_UNITS` units (:func:`units`). The caller compares the score with ``model.threshold``.
    """
    model = model or load()
    if model is None or not line.strip() or len(line) > MAX_CHARS or units(line) < MIN_UNITS:
        return None
    probs = probabilities(model, line)
    best = max(model.classes[1:], key=lambda c: probs[c])
    return best, 1.0 - probs[NONE]
