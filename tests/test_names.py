import pytest

from memory_manager.errors import InvalidNameError
from memory_manager.names import MAX_NAME_BYTES, validate_key, validate_name, validate_skill, validate_topic


@pytest.mark.parametrize("value", ["my-skill", "skill_a", "记忆系统升级", "react basics", "v1.2", "a" * MAX_NAME_BYTES,
                                   "emoji 🎉", "COM10", "console", "a-", "x-y"])
def test_valid_names(value):
    assert validate_name(value) == value


@pytest.mark.parametrize("value,fragment", [
    ("", "empty"),
    ("a/b", "'/'"),
    ("a\\b", "'\\\\'"),
    ("..", "'..'"),
    ("a..b", "'..'"),
    (".hidden", "start with '.'"),
    ("-", "must not start with '-'"),
    ("-x", "must not start with '-'"),
    ("--force", "look like an option"),
    ("trailing.", "end with '.'"),
    ("line\nbreak", "control character"),
    ("nul\x00", "control character"),
    ("tab\tname", "control character"),
    ("zero\u200bwidth", "control character"),
    ("CON", "reserved"),
    ("nul.txt", "reserved"),
    ("Lpt9", "reserved"),
    ("a:b", "':'"),
    ("what?", "'?'"),
    (" padded", "white space"),
    ("a" * (MAX_NAME_BYTES + 1), "too long"),
    ("中" * 34, "too long"),  # 102 bytes of UTF-8
])
def test_invalid_names(value, fragment):
    with pytest.raises(InvalidNameError) as err:
        validate_name(value)
    assert fragment in str(err.value)


def test_non_text_is_refused():
    with pytest.raises(InvalidNameError, match="must be text"):
        validate_name(5)


def test_topic_refuses_the_index_separator_and_the_wrappers_name_the_thing():
    with pytest.raises(InvalidNameError, match="'→'"):
        validate_topic("a → b")
    with pytest.raises(InvalidNameError, match="^skill name"):
        validate_skill("../x")
    with pytest.raises(InvalidNameError, match="^key"):
        validate_key("")
