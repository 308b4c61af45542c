"""Keyword analysis: legal tokens whole, accents folded, Snowball stems per language."""

from __future__ import annotations

import pytest

from pincite.index.analysis import fold, tokenize


@pytest.mark.parametrize("token", ["6(1)(a)", "83(5)", "10^25", "2016/679", "fc-5.2.6"])
def test_legal_tokens_stay_whole(token):
    assert token in tokenize(f"see {token.upper() if token.startswith('fc') else token} here", "en")


def test_amounts_with_spaces_are_one_token():
    assert "20000000" in tokenize("up to EUR 20 000 000, or", "en")


def test_amounts_with_dots_are_the_same_token():
    assert tokenize("35.000.000 EUR", "it")[0] == tokenize("35 000 000 EUR", "en")[0]


def test_english_stemming_matches_inflections():
    assert tokenize("notified", "en") == tokenize("notifying", "en")


def test_italian_stemming_matches_inflections():
    assert tokenize("notificazione", "it") == tokenize("notificazioni", "it")


def test_accents_are_folded():
    assert fold("Società Responsabilità") == "societa responsabilita"


def test_italian_accented_and_plain_match():
    assert tokenize("attività", "it") == tokenize("attivita", "it")


def test_stopwords_dropped_but_legal_words_kept():
    assert tokenize("the controller shall not", "en") == ["control", "shall", "not"]


def test_unknown_language_still_tokenizes_without_stemming():
    assert tokenize("Databeskyttelse og behandling", "xx") == ["databeskyttelse", "og", "behandling"]
