"""How quotes read in the answer: the PDF's own list glyph is not doubled by the answer's bullet, and a
code list printed twice (message chapter and annex) is quoted once, citing both pages (no encoder:
lexical scoring only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import without_bullet
from knowledge.payload import ChunkPayload

CODES = ("CodeName,Name,Definition\n"
         "MS01,MissingRemittanceInformation,RemittanceInformation is missing.\n"
         "MS02,MissingCreditorName,Creditor name is missing.\n")


def chunk(index: int, page: int, text: str, tables: list[str]) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"MDR-2:{index}", rulebook_id="MDR-2", rulebook_title="Message guide",
                        page_start=page, page_end=page, section_path=["2", f"2.{index}"], section_key=f"2.{index}",
                        section_title="UnableToApply", chunk_index=index, text=text, tables_csv=tables,
                        content_hash=f"h{index}")


def test_the_glyph_of_a_pdf_list_item_is_left_out_but_enumerations_stay():
    assert without_bullet("- covers one payment instruction at a time") == "covers one payment instruction at a time"
    assert without_bullet("•  − nested item") == "nested item"
    assert without_bullet("(c) the participant shall notify") == "(c) the participant shall notify"
    assert without_bullet("-5 EUR is charged") == "-5 EUR is charged"


def test_a_quoted_list_item_reads_as_one_bullet():
    text = ("The UnableToApply message has the following characteristics:\n\n"
            "- covers one and only one payment instruction at a time and is sent per UnableToApply case.\n")
    answer = OfflineRulebookModel(min_lexical=0.0).compose(
        "How many payment instructions does one UnableToApply message cover?", "en", [("S1", chunk(1, 8, text, []))])
    assert "- covers one and only one payment instruction" in answer, answer
    assert "- - " not in answer, answer


def test_the_same_rows_from_two_pages_are_one_table_citing_both():
    annex = CODES + "MS03,NotSpecifiedReasonAgentGenerated,Reason not specified.\n"  # the annex lists more
    hits = [("S1", chunk(1, 15, CODES, [CODES])), ("S2", chunk(2, 381, annex, [annex]))]
    answer = OfflineRulebookModel(min_lexical=0.0).compose("What does the code MS01 mean?", "en", hits)
    assert answer.count("| MS01 |") == 1, answer
    assert "From the table in the rulebook [S1] [S2]:" in answer, answer


def test_a_lead_in_the_list_reaches_last_brings_its_own_items():
    rules = "".join(f"Rule {n} of the notification applies to the case assignee in step {n} of the chain.\n\n"
                    for n in range(1, 10))
    text = ("The NotificationOfCaseAssignment message is sent by a case assignee to a case creator.\n\n" + rules +
            "The NotificationOfCaseAssignment message definition is composed of 3 building blocks:\n\n"
            "- Header, which specifies generic information about the notification that the assignee sends to "
            "the party that assigned the case;\n\n"
            "- Case, which identifies the investigation case that the notification is about, as the case creator "
            "assigned it at the start;\n\n"
            "- Assignment, which identifies the assignment of the case from an assigner to an assignee further "
            "down the processing chain.\n")
    model = OfflineRulebookModel(min_lexical=0.0)
    answer = model.compose("List all rules for the NotificationOfCaseAssignment message sent by a case assignee.",
                           "en", [("S1", chunk(3, 79, text, []))])
    lines = answer.splitlines()
    lead_in = next(i for i, line in enumerate(lines) if "composed of 3 building blocks:" in line)
    assert any(line.startswith("- Header, which specifies") for line in lines[lead_in + 1:]), answer
