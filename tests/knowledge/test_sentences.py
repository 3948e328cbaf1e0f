from knowledge.sentences import SentenceStream


def units(text: str, step: int) -> list[str]:
    stream = SentenceStream()
    out: list[str] = []
    for start in range(0, len(text), step):
        out += stream.feed(text[start:start + step])
    return out + list(stream.flush())


def test_units_rebuild_the_draft_exactly_whatever_the_piece_size():
    text = ("Here it is:\n\n- The fee is EUR 2.50 per refund [S1]. See e.g. section 4.2 [S2].\n"
            "| a | b |\n|---|---|\n| 1. x | 2 |\nLast one. [S3] Done?")
    for step in (1, 2, 7, 1000):
        got = units(text, step)
        assert "".join(got) == text
        stripped = [u.strip() for u in got]
        assert "- The fee is EUR 2.50 per refund [S1]." in stripped
        assert "See e.g. section 4.2 [S2]." in stripped  # no cut after the abbreviation
        assert "| 1. x | 2 |" in stripped  # a table row is never cut at a full stop
        assert "Last one. [S3]" in stripped  # a citation after the stop stays with its sentence


def test_a_sentence_is_held_while_a_citation_may_still_follow():
    stream = SentenceStream()
    assert list(stream.feed("Fridges are accepted. ")) == []
    assert list(stream.feed("[S")) == []
    assert list(stream.feed("1] Next")) == ["Fridges are accepted. [S1]"]


def sentences(text: str, step: int = 1000) -> list[str]:
    got = units(text, step)
    assert "".join(got) == text
    return [u.strip() for u in got if u.strip()]


def test_times_decimals_and_section_numbers_are_not_cut():
    text = "The cut-off is 15:30 CET. A fee of EUR 2.50 applies, see section 4.2.1 of PS-02. Done."
    for step in (1, 4, 1000):
        assert sentences(text, step) == ["The cut-off is 15:30 CET.", "A fee of EUR 2.50 applies, see section "
                                         "4.2.1 of PS-02.", "Done."]


def test_abbreviations_of_each_language_do_not_end_a_sentence():
    cases = {
        "Die Blinkfrequenz beträgt 2 Hz bzw. 20 Hz. Weiter.": "Die Blinkfrequenz beträgt 2 Hz bzw. 20 Hz.",
        "Das gilt z.B. für Geräte, d. h. Kühlschränke. Weiter.": "Das gilt z.B. für Geräte, d. h. Kühlschränke.",
        "Codes 0b010 – 0b111 (r. f. u.) Bald mehr. Weiter.": "Codes 0b010 – 0b111 (r. f. u.) Bald mehr.",
        "Fees, e.g. refunds, i.e. R-transactions, etc. are listed. Next.":
            "Fees, e.g. refunds, i.e. R-transactions, etc. are listed.",
        "Apparaten, bijv. een koelkast, zijn toegestaan. Volgende.": "Apparaten, bijv. een koelkast, zijn toegestaan.",
        "Des appareils, p.ex. un frigo, sont admis. Suite.": "Des appareils, p.ex. un frigo, sont admis.",
        "See Art. 3 and No. 5 of the list. Next.": "See Art. 3 and No. 5 of the list.",
    }
    for text, first in cases.items():
        for step in (1, 1000):
            assert sentences(text, step)[0] == first, text


def test_a_real_end_after_a_number_word_or_a_short_word_still_ends():
    assert sentences("The answer is no. The fee is EUR 5. Next one.") == [
        "The answer is no.", "The fee is EUR 5.", "Next one."]
