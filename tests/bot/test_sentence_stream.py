from bot.sentence_stream import SentenceStream


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
