import json

import pytest

from memory_manager.config import load_config, load_defaults
from memory_manager.errors import ConfigError


def write_override(ws, doc):
    (ws / "memory").mkdir(exist_ok=True)
    path = ws / "memory" / "memory-manager.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return path


def test_seed_defaults():
    cfg = load_defaults()
    assert cfg["tiers"]["t2_expiry_days"] == 30
    assert cfg["cleanup"] == {"interval_days": 7, "archive_retention_days": 90, "pattern_retention_days": 90,
                              "purge_archive": False}
    assert cfg["scoring"] == {"keyword_weight": 0.4, "time_decay_weight": 0.2,
                              "access_frequency_weight": 0.2, "tag_match_weight": 0.2}
    assert (cfg["prune"]["threshold"], cfg["prune"]["window"], cfg["recall"]["top_k"]) == (0.6, 200, 10)
    assert cfg["context"]["thresholds"] == [50, 70, 85]
    # "auto": lang.resolve chooses (saved choice, OpenClaw, locale, English); load_config resolves it.
    assert cfg["language"] == "auto" and cfg["gate"]["mode"] == "auto"


def test_override_merges_key_by_key(ws):
    write_override(ws, {"language": "en", "prune": {"window": 50}})
    cfg = load_config(ws)
    assert cfg["language"] == "en" and cfg["prune"]["window"] == 50 and cfg["prune"]["threshold"] == 0.6


@pytest.mark.parametrize("doc,message", [
    ({"prune": {"windw": 5}}, "unknown key 'prune.windw' (allowed: auto_threshold, enable_auto_prune, protect_recent_days, threshold, window)"),
    ({"colour": 1}, "unknown key 'colour'"),
    ({"hooks": {"bootstrap": "yes"}}, "'hooks.bootstrap' must be a boolean, not string"),
    ({"hooks": {"bootstrap": 1}}, "'hooks.bootstrap' must be a boolean, not number"),
    ({"prune": {"window": True}}, "'prune.window' must be a number, not boolean"),
    ({"prune": {"window": 2.5}}, "'prune.window' must be a whole number"),
    ({"gate": {"mode": "loose"}}, "'gate.mode' must be one of auto, strict"),
    ({"context": {"thresholds": [80, 50, 90]}}, "three rising percentages"),
    ({"prune": {"threshold": 1.5}}, "'prune.threshold' must be between 0 and 1"),
    ("{not json", "not valid JSON (line 1: "),
    ("[1, 2]", "the top level must be a JSON object"),
])
def test_bad_override_names_the_key(ws, doc, message):
    write_override(ws, doc)
    with pytest.raises(ConfigError) as info:
        load_config(ws)
    assert message in str(info.value)
    assert info.value.exit_code == 2


def test_nullable_key_file(ws):
    write_override(ws, {"tiers": {"key_file": "/tmp/k"}})
    assert load_config(ws)["tiers"]["key_file"] == "/tmp/k"
