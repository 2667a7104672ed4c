"""Tokenisation for ranking: English stemming and stop words, Chinese bigrams, mixed text."""
from memory_manager.textproc import plain_tokens, query_terms, tokens


def test_english_is_lowercased_stemmed_and_stop_words_dropped():
    assert tokens("The Runners were running quickly to the Meetings") == ["runner", "run", "quick", "meet"]


def test_possessive_and_contractions():
    assert tokens("Caroline's dog isn't here") == ["carolin", "dog", "isn"]  # "here" and "t" are stop words


def test_full_width_forms_are_normalised():
    assert tokens("Ｐｙｔｈｏｎ ３") == tokens("python 3") == ["python", "3"]


def test_chinese_runs_become_overlapping_bigrams():
    assert tokens("飞书日报") == ["飞书", "书日", "日报"]


def test_two_character_word_found_inside_a_long_run():
    long_run = tokens("今天早上坐高铁去上海开会")
    assert "高铁" in long_run and "上海" in long_run and "开会" in long_run


def test_single_characters_and_function_characters():
    assert tokens("用 的") == ["用"]
    assert tokens("我的") == []  # both function characters: no topic


def test_question_words_are_not_terms():
    assert "什么" not in tokens("飞书是什么") and "飞书" in tokens("飞书是什么")


def test_mixed_chinese_and_english():
    assert tokens("用Python写飞书bot") == ["用", "python", "写飞", "飞书", "bot"]


def test_query_terms_are_distinct_in_order():
    assert query_terms("deploy deploys 部署 部署") == ["deploy", "部署"]


def test_plain_tokens_baseline_keeps_everything():
    assert plain_tokens("The Running, dogs!") == ["the", "running", "dogs"]


def _alphabet_text(rng, n):
    # Letters, digits, CJK, the CJK-range characters that are not word characters (・ ゠ and the
    # kana voicing marks), apostrophes, underscores, full-width forms, accents and punctuation.
    pieces = ["a", "B", "z", "é", "ß", "3", "ｚ", "Ｑ", "飞", "书", "的", "了", "カ", "ー", "한",
              "・", "゠", "\u3099", "\u0301", "'", "'s", "_", " ", "\n", "-", "：", "。", "ﬁ", "²", "文'",
              "\u3000", "\xa0", "\t", "\x1c", "\x85", "\u2028", "\u202f", ",", "(", "a,b"]
    return "".join(rng.choice(pieces) for _ in range(n))


def test_tokens_by_pieces_equal_tokens_run_by_run():
    """``tokens`` finds the runs inside cached pieces between white space (issue 13); the terms are
    those found run by run in the whole text."""
    import random

    from memory_manager import textproc

    def run_by_run(text):
        return [t for run in textproc._RUNS.findall(textproc.normalise(text)) for t in textproc._run_terms(run)]

    rng = random.Random(13)
    texts = [_alphabet_text(rng, rng.randint(0, 60)) for _ in range(3000)]
    texts += ["don't stop", "snake_case_word", "飞书's bot", "''a''", "カ・カ", "a'b'c", "o'_'k"]
    for text in texts:
        expected = run_by_run(text)
        assert tokens(text) == expected, text
        assert textproc.terms_text(text) == (" ".join(expected), len(expected)), text
