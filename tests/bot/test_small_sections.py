"""Message guides cut at their numbered headings: every element record and code list is a small
section of its own, under the titles of the sections enclosing it. What answers a question about a
code then sits beside, not inside, the passage closest to the question: the row keyed by the code
below the element's record, the code list in the next section after the outline naming it, the
best row of a long code list past its first eight rows; and the title above a thousand chunks is
no word a thousand passages are written with (no encoder: lexical scoring only)."""

from __future__ import annotations

from bot.offline.offline_model import MAX_TABLE_ROWS, OfflineRulebookModel
from bot.offline.subject_terms import CorpusVocabulary
from knowledge.payload import ChunkPayload


def chunk(text: str, tables: list[str] | None = None, index: int = 0, page: int = 17, key: str = "2.4.4.2.3.1",
          title: str = "Code <Cd>", parents: list[str] | None = None) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"GUIDE-1:{index}", rulebook_id="GUIDE-1", rulebook_title="Message guide",
                        page_start=page, page_end=page, section_path=key.split("."), section_key=key,
                        section_title=title, parent_titles=parents or [], chunk_index=index, text=text,
                        tables_csv=tables or [], content_hash=f"h{index}")


def table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ") and "---" not in line][1:]


RECORD = ("7.4.3.1 RejectionReason <RjctnRsn>\n\nPresence: [1..1]\n\n"
          "Definition: Reason for the rejection of a case assignment, in a coded form.\n\n"
          'Datatype: "InvestigationRejection1Code" on page 375')
REJECTIONS = ("CodeName,Name,Definition\n"
              "NFND,UnderlyingPaymentNotFound,Underlying instruction can not be found.\n"
              "NAUT,NotAuthorisedToInvestigate,Case assignee is not allowed to investigate on this instruction.\n"
              "UKNW,UnknownCase,Case has never been assigned before.\n")
REJECTION_REASON = chunk(f"{RECORD}\n\n{REJECTIONS}", [REJECTIONS], index=5, page=87, key="7.4.3.1",
                         title="RejectionReason <RjctnRsn>")


def test_the_row_keyed_by_the_code_asked_about_is_quoted_below_the_record_of_its_element():
    # the record of the element the question names in words ("rejection reason") scores above the
    # row of the code it names: the row is what says what the code means
    text = OfflineRulebookModel(min_lexical=0.0).compose(  # span choice, not the answer/refuse bar
        "What does rejection reason NFND mean when an investigation is rejected?", "en",
        [("S1", REJECTION_REASON)])
    assert "Underlying instruction can not be found." in text, text
    assert table_rows(text) == ["| NFND | UnderlyingPaymentNotFound | Underlying instruction can not be found. |"], text


def test_a_code_row_already_quoted_is_not_quoted_again_from_the_code_set_repeating_it():
    code_set = chunk("19.2.3.42 InvestigationRejection1Code\n\n" + REJECTIONS, [REJECTIONS], index=90, page=375,
                     key="19.2.3.42", title="InvestigationRejection1Code")
    others = [(f"S{i}", chunk("Other text about payments and cases.", index=100 + i, page=200 + i)) for i in range(2, 6)]
    listed = chunk(REJECTIONS, [REJECTIONS], index=5, page=87, key="7.4.3.1", title="RejectionReason <RjctnRsn>")
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "What does NFND mean?", "en", [("S1", listed), *others, ("S6", code_set)], {listed.chunk_id})
    assert text.count("| NFND |") == 1 and "[S6]" not in text, text


def test_a_list_question_gets_the_code_list_after_the_record_next_to_the_outline_that_names_it():
    outline = chunk("7.1 MessageDefinition Functionality\n\n"
                    "The RejectInvestigation message is sent by a case assignee to reject a case given to him.\n\n"
                    "B. Justification\n\nSpecifies the reason for rejecting an investigation case.",
                    index=0, page=85, key="7.1", title="MessageDefinition Functionality")
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "List all the reason codes for rejecting an investigation case.", "en",
        [("S1", outline), ("S2", REJECTION_REASON)])
    assert [row.split(" | ")[0] for row in table_rows(text)] == ["| NFND", "| NAUT", "| UKNW"], text
    assert "RejectionReason <RjctnRsn> Presence: [1..1]" in text, text  # the record the list belongs to


def test_the_best_row_of_a_long_code_list_is_shown_though_eight_rows_before_it_share_words():
    parties = ["Debtor", "DebtorAccount", "DebtorAgent", "Creditor", "CreditorAccount", "CreditorAgent",
               "CreditorAgentAccount", "UltimateCreditor", "UltimateDebtor"]
    rows = [f"IN{10 + i},Incorrect{p},{p} of the creditor payment is incorrect." for i, p in enumerate(parties)]
    codes = "CodeName,Name,Definition\n" + "\n".join([*rows, "IN39,IncorrectCreditorAddress,Creditor's address is incorrect."])
    assert len(rows) > MAX_TABLE_ROWS
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "Which incorrect-information code says the creditor's address is wrong?", "en",
        [("S1", chunk(codes, [codes], parents=["2 camt.026.001.08 UnableToApplyV08", "2.4 Message Building Blocks"]))])
    shown = table_rows(text)
    assert "| IN39 | IncorrectCreditorAddress | Creditor's address is incorrect. |" in shown, text
    assert len(shown) == MAX_TABLE_ROWS
    assert shown == sorted(shown, key=lambda r: codes.index(r.split(" | ")[0][2:]))  # in the table's order


class _Store:
    def __init__(self, chunks: list[ChunkPayload]) -> None:
        self.chunks = chunks

    def scroll(self, access=None):
        yield from self.chunks


def test_a_term_of_the_titles_above_a_chunk_counts_for_its_headings_not_for_its_rarity():
    message = "2 camt.026.001.08 UnableToApplyV08"
    top = chunk("2 camt.026.001.08 UnableToApplyV08", index=0, key="2", title="camt.026.001.08 UnableToApplyV08")
    under = [chunk(f"Definition: Element {i} of the justification.", index=i, key=f"2.4.{i}", title=f"Element{i} <E{i}>",
                   parents=[message, "2.4 Message Building Blocks"]) for i in range(1, 9)]
    other = chunk("The creditor agent may reject the request.", index=20, key="3", title="Rules")
    vocabulary = CorpusVocabulary(_Store([top, *under, other]))
    rarity = vocabulary.rarity(["camt.026", "messag", "block"])
    # held by the one chunk that is written with it, not by the eight standing under its title
    assert rarity["camt.026"].chunk_share == 1 / 10
    assert rarity["block"].chunk_share == 0.0
    # an enclosing title is still a heading of that rulebook: the term names a subject there
    assert rarity["camt.026"].heading_rulebooks == 1 and rarity["block"].heading_rulebooks == 1


def test_a_question_about_an_element_of_a_named_message_reads_that_messages_chapter():
    """An element recurs in many messages of a guide with its own multiplicity in each: the chapter the
    named message heads holds its structure and its building blocks' records."""
    from bot.offline.offline_model import _message_chapter

    def chunk(i: int, path: list[str], title: str, parents: list[str]) -> ChunkPayload:
        return ChunkPayload(chunk_id=f"RTP:{i}", rulebook_id="RTP", rulebook_title="Request to pay", page_start=i,
                            page_end=i, section_path=path, section_title=title, parent_titles=parents,
                            chunk_index=i, text="…", content_hash=f"h{i}")

    other = chunk(68, ["10", "10.1", "10.1.9.7"], "DebtorActivation <DbtrActvtn>",
                  ["10 Message Items Types", "10.1.9.7 DebtorActivationAmendment4"])
    own = chunk(26, ["6", "6.1"], "MessageDefinition Functionality",
                ["6 reda.070.001.01 RequestToPayDebtorActivationRequestV01"])
    hits = [("S1", other), ("S2", own)]
    question = "How many debtor activations can one RequestToPayDebtorActivationRequest carry?"
    assert _message_chapter(question, hits) == ("RTP", "6")
    assert _message_chapter("Which building blocks make up reda.070?", hits) == ("RTP", "6")
    # the options of a choice element are its elements too ("in which ways can … be referenced?")
    assert _message_chapter("In a reda.070, in which ways can the debtor be identified? List all options.",
                            hits) == ("RTP", "6")
    # a question about what the message is for, not about one of its elements, reads no chapter
    assert _message_chapter("Who sends a RequestToPayDebtorActivationRequest?", hits) is None
    # a long name the PDF wrapped in the chapter heading still names the message the question asks about
    wrapped = chunk(40, ["3", "3.2"], "Structure", ["3 reda.067.001.01 RequestToPayCreditorEnrolmentAmendment RequestV01"])
    question = "How many creditor enrolments can one RequestToPayCreditorEnrolmentAmendmentRequest carry?"
    assert _message_chapter(question, [("S1", other), ("S3", wrapped)]) == ("RTP", "3")


def test_the_record_of_the_attribute_a_quote_points_to_is_the_first_table_shown():
    """"… a reason code (attribute AT-R071 see section 4.6.1)": AT-R071's record holds the codes asked for,
    though the record of its neighbour AT-R077 shares as many of the question's words."""
    def chunk(i: int, text: str, tables: list[str], title: str) -> ChunkPayload:
        return ChunkPayload(chunk_id=f"SCT:{i}", rulebook_id="SCT", rulebook_title="SCT rulebook", page_start=30 + i,
                            page_end=30 + i, section_path=[str(i)], section_title=title, chunk_index=i, text=text,
                            tables_csv=tables, has_table=bool(tables), content_hash=f"h{i}")

    flow = chunk(0, "The recall message contains a reason code (attribute AT-R071 see section 4.6.1) giving the "
                    "reason for the recall.", [], "Recall")
    r077 = ("Identification:,AT-R077\nName:,Reason code for non-acceptance of the recall\n"
            "Value range:,Codes are: Legal reasons • Account closed\n")
    r071 = ("Identification:,AT-R071\nName:,Reason code for the recall\n"
            "Value range:,Codes are: Wrong amount • Duplicate sending\n")
    details = chunk(1, f"{r077}\n{r071}", [r077, r071], "Attribute details")
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "Which reason codes can a recall carry?", "en", [("S1", flow), ("S2", details)])
    assert "Wrong amount" in text, text
    assert "AT-R077" not in text or text.index("AT-R071") < text.index("AT-R077"), text
