"""What the offline model quotes around its best sentence, and how it picks rows and conditions
(no encoder: lexical scoring only; the answer/refuse bar is lowered where a test is about span
choice, not the decision)."""

from __future__ import annotations

from bot.gate.citation_pages import page_of_quote
from bot.offline.element_records import asks_element_definition, record_of, row_pointer
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.quote_context import asks_yes_no, distinct_quotes, group_by_text, question_parts
from bot.offline.span_scoring import Span, SpanScorer, asks_for_condition, asks_meaning, is_heading, keys_row
from knowledge.payload import ChunkPayload


def chunk(text: str, tables: list[str] | None = None, index: int = 0, rulebook: str = "GUIDE-1") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{index}", rulebook_id=rulebook, rulebook_title="Message guide",
                        page_start=3 + index, page_end=3 + index, section_path=["2"], section_key="2",
                        section_title="Rules", chunk_index=index, text=text, tables_csv=tables or [],
                        content_hash=f"h{rulebook}{index}")


def bullets(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_a_condition_that_qualifies_a_rule_brings_the_rule_with_it():
    hits = [("S1", chunk("The message covers one and only one original instruction at a time.\n\n"
                         "The modification request must be processed on an all or nothing basis.\n\n"
                         "If one of the elements to be modified cannot be altered, the assignment must be rejected "
                         "in full by means of a negative resolution message."))]
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "If one of the elements to be modified cannot be altered, what happens?", "en", hits)
    assert "all or nothing basis" in text, text
    assert "one and only one" not in text, text
    lines = bullets(text)
    assert lines[0].startswith("- The modification request must be processed"), text  # in reading order


def test_a_sentence_that_finishes_the_quote_follows_it():
    hits = [("S1", chunk("If a request to modify payment fails and the payment must be cancelled, then a payment "
                         "cancellation request message must be used instead.\n\n"
                         "In this context it is incorrect to use the case cancellation message.\n\n"
                         "The case cancellation message is composed of three building blocks."))]
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "What must be used when a request to modify payment fails and the payment must be cancelled?", "en", hits)
    assert "In this context it is incorrect" in text, text


def test_a_yes_no_question_gets_the_prohibition_next_to_the_best_sentence():
    hits = [("S1", chunk("The cancellation of a payment for which cover is provided by a separate instruction "
                         "always results in the cancellation of the whole transaction, including the cover.\n\n"
                         "The case assignee performing the cancellation must initiate the return of funds.\n\n"
                         "The case assigner must not request the cancellation of the cover separately.\n\n"
                         "A report is produced every night by the central system for all participants."))]
    question = "When a payment with a separate cover is cancelled, may the cover be cancelled separately?"
    assert asks_yes_no(question) and asks_yes_no("Can we put advertising on the back side?")
    assert not asks_yes_no("What happens to the cover?")
    text = OfflineRulebookModel(min_lexical=0.2).compose(question, "en", hits)
    assert "must not request the cancellation of the cover separately" in text, text
    assert "every night" not in text, text


CODES = ("CodeName,Name,Definition\n"
         "CRED,BorneByCreditor,All transaction charges are to be borne by the creditor.\n"
         "SLEV,FollowingServiceLevel,Charges are to be applied following the rules agreed in the service level.\n")


def test_a_code_in_capitals_is_defined_by_the_row_it_keys():
    record = ("ChargeBearer <ChrgBr> Presence: [0..1] Definition: Specifies which party will bear the charges "
              "of the ChargeBearerType1Code payment. Datatype: \"ChargeBearerType1Code\" on page 40")
    hits = [("S1", chunk(record, index=0)),
            ("S2", chunk("19.1.2 ChargeBearerType1Code\n\nDefinition: Specifies which party will bear the charges.\n\n"
                         + CODES, [CODES], index=1))]
    text = OfflineRulebookModel(min_lexical=0.2).compose("What is ChargeBearerType1Code SLEV?", "en", hits)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1:] == ["| SLEV | FollowingServiceLevel | Charges are to be applied following the rules agreed in "
                        "the service level. |"], text
    # a code named in a question about a rule is not asked to be defined
    assert asks_meaning("What does NAUT mean?") and asks_meaning("What is code SLEV?")
    assert not asks_meaning("Does ABN AMRO process HIGH priority payments faster?")
    c = chunk("x")
    assert keys_row(Span("S1", c, 0, "x", table=0, row=["SLEV", "FollowingServiceLevel", "…"]), {"slev"})
    assert not keys_row(Span("S1", c, 0, "x", table=0, row=["CRED", "Borne", "not SLEV"]), {"slev"})


def test_a_question_asking_when_something_must_be_present_prefers_the_sentence_stating_the_condition():
    hits = [("S1", chunk("CancellationDetails <CxlDtls> Presence: [0..*] Definition: Specifies the details of the "
                         "underlying transactions being cancelled, present in the resolution.")),
            ("S2", chunk("If Status/Confirmation is present and equal to PECR or RJCR then CancellationDetails must "
                         "be present in the resolution.", index=1))]
    question = "When must CancellationDetails be present in the resolution?"
    assert asks_for_condition(question) and asks_for_condition("In the report, when is the reference required?")
    assert not asks_for_condition("When a payment is cancelled, may the cover be cancelled?")
    spans = SpanScorer(None, None).score(question, hits, set())
    assert spans[0].text.startswith("If Status/Confirmation"), [s.text for s in spans]


def test_a_sentence_stated_in_several_chunks_is_quoted_once_and_cited_to_each():
    same = "The number of fractional digits (or minor unit of currency) must comply with ISO 4217."
    a, b, c = chunk("x", index=0), chunk("x", index=1), chunk("x", index=2)
    spans = [Span("S1", a, 0, same), Span("S1", a, 0, same, position=4), Span("S2", b, 1, same),
             Span("S3", c, 2, same), Span("S1", a, 0, "Note: the decimal separator is a dot in every amount.")]
    chosen = distinct_quotes(spans, 3)
    assert [(s.handle, s.position) for s in chosen] == [("S1", 0), ("S2", 0), ("S1", 0)]
    assert [len(g) for g in group_by_text(chosen)] == [2, 1]
    hits = [("S1", chunk(f"{same}\n\nThe currency code must be a valid active code.", index=0)),
            ("S2", chunk(f"{same}\n\nThe currency code must be registered.", index=1))]
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "What must the number of fractional digits of an amount comply with?", "en", hits)
    assert text.count("fractional digits") == 1 and "[S1, S2]" in text, text


def test_a_copyright_line_is_not_quoted():
    c = chunk("x")
    assert is_heading("© Copyright 2023 SIX Interbank Clearing Ltd, all rights reserved, including the right of "
                      "reproduction.", c)
    assert not is_heading("The copyright of the scheme's logo rests with the scheme owner.", c)


def test_a_quote_is_cited_where_most_of_it_is():
    text = ("Short opening line of a rule that starts here and\n\ncontinues on the next page with most of its words "
            "and the condition that matters to the reader of it.")
    c = ChunkPayload(chunk_id="G:1", rulebook_id="G", rulebook_title="G", page_start=5, page_end=6, chunk_index=1,
                     content_hash="h", text=text, page_breaks=[text.index("continues")])
    assert page_of_quote(c, " ".join(text.split())) == 6


STRUCTURE = ("Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n"
             ",Creditor <Cdtr>,[1..1],±,,9\n"
             ",MerchantCategoryCode <MrchntCtgyCd>,[1..1],IdentifierSet,,9\n"
             ",ServiceDescriptionLink <SvcDescLk>,[0..1],Text,,4\n")


def test_an_element_written_out_in_words_is_the_row_keyed_by_its_name():
    hits = [("S1", chunk("MerchantCategoryCodeIdentifier Definition: Specifies the code of a retail trade.", index=0)),
            ("S2", chunk(STRUCTURE, [STRUCTURE], index=1))]
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "Is the merchant category code mandatory in the creditor enrolment request?", "en", hits)
    assert "| MerchantCategoryCode <MrchntCtgyCd> | [1..1] | IdentifierSet |" in text, text


def test_conditions_in_a_row_are_quoted_together():
    hits = [("S1", chunk("10.1.9.1.4 ServiceActivationAllowed <SvcActvtnAllwd>\n\nPresence: [1..1]\n\n"
                         "Definition: Define the acceptance of activation requests through the scheme.\n\n"
                         "When true, it is possible for the debtor to send activation requests through its provider.\n\n"
                         "When false, it is not possible for the debtor to send activation requests through messages.\n\n"
                         "The creditor only accepts activation through another way."))]
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "What does the ServiceActivationAllowed element define?", "en", hits)
    assert "When true" in text and "When false" in text, text


def test_a_question_asking_two_things_gets_a_quote_for_each():
    assert question_parts("When were QR-IIDs published, and in which months are new guidelines published?") == [
        "When were QR-IIDs published", "in which months are new guidelines published?"]
    assert question_parts("What is the fee and how is it charged?") == ["What is the fee and how is it charged?"]
    hits = [("S1", chunk("The official publication of QR-IIDs took place when the QR-bill was introduced on "
                         "30.06.2020 in the bank master data.", index=0, rulebook="QR-IID")),
            ("S2", chunk("New guidelines are published in February of the following year after the release.",
                         index=1, rulebook="QR-BILL"))]
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "When were QR-IIDs officially published, and in which months are new guidelines published?", "en", hits)
    assert "30.06.2020" in text and "February" in text, text


def test_a_structure_row_is_quoted_with_the_record_it_points_to():
    record = ("10.1.9.1.4 ServiceActivationAllowed <SvcActvtnAllwd>\n\nPresence: [1..1]\n\n"
              "Datatype: One of the following values must be used • Meaning When True: True "
              "10.1.9.1.5 ServiceDescriptionLink <SvcDescLk> Definition: Information web page, as provided by "
              "the creditor, for further information.\n\nDatatype: \"Max2048Text\" on page 114")
    hits = [("S1", chunk("The enrolment block holds these elements.\n\n" + STRUCTURE, [STRUCTURE], index=0)),
            ("S2", chunk(record, index=1))]  # page 4, as the row says
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "What is the maximum length of the ServiceDescriptionLink?", "en", hits)
    assert "| ServiceDescriptionLink <SvcDescLk> | [0..1] | Text |" in text, text
    assert "- ServiceDescriptionLink <SvcDescLk> Definition: Information web page" in text, text
    assert "Max2048Text" in text, text
    spans = SpanScorer(None, None).score("What is the maximum length of the ServiceDescriptionLink?", hits, set())
    row = next(s for s in spans if s.row and "ServiceDescriptionLink <SvcDescLk>" in s.row)
    assert row_pointer(row) == ("ServiceDescriptionLink", 4)
    assert record_of("ServiceDescriptionLink", 4, "GUIDE-1", spans).text.startswith("ServiceDescriptionLink <SvcDescLk>")
    assert record_of("ServiceDescriptionLink", 9, "GUIDE-1", spans) is None  # not on the page the row names
    assert asks_element_definition("What is the maximum length of the ServiceDescriptionLink?")
    assert not asks_element_definition("Is the ServiceDescriptionLink mandatory?")


def test_a_list_table_continued_after_a_page_break_is_listed_whole():
    first = "CodeName,Name,Definition\nCLSD,Closed,Case has been closed.\nASGN,Assigned,Case has been assigned.\n"
    second = ("CodeName,Name,Definition\nINVE,UnderInvestigation,Case is under investigation.\n"
              "ODUE,Overdue,Investigation is taking too long.\n")
    other = "Code,Meaning\nX1,Something else entirely\n"
    text = ("CaseStatus2Code Definition: Specifies the status of a case, the codes are listed below.\n\n"
            f"{first}\n\n{second}\n\n{other}")
    hits = [("S1", chunk(text, [first, second, other]))]
    answer = OfflineRulebookModel(min_lexical=0.2).compose("What are all the possible case status codes?", "en", hits)
    for code in ("CLSD", "ASGN", "INVE", "ODUE"):
        assert f"| {code} |" in answer, answer
    assert "X1" not in answer, answer


def test_a_yes_no_question_about_a_named_thing_is_not_answered_by_what_the_thing_is():
    hits = [("S1", chunk("The QR-IBAN contains the QR-IID of the account-keeping financial institution.", index=0)),
            ("S2", chunk("There must always be an IBAN in addition to a QR-IBAN for payments.\n\n"
                         "Payments debiting a QR-IBAN are not anticipated.", index=1))]
    question = "Can a QR-IBAN be debited for outgoing payments?"
    order = [s.text for s in SpanScorer(None, None).score(question, hits, set())]
    assert order.index("There must always be an IBAN in addition to a QR-IBAN for payments.") < order.index(
        "The QR-IBAN contains the QR-IID of the account-keeping financial institution."), order
    # asked what it is, the sentence that defines it comes first
    order = [s.text for s in SpanScorer(None, None).score("What is a QR-IBAN?", hits, set())]
    assert order[0].startswith("The QR-IBAN contains"), order


class _Encoder:
    """A stand-in encoder: each text's similarity to every question is given (cosine of unit vectors)."""

    def __init__(self, similarity: dict[str, float]) -> None:
        self.similarity = similarity

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            cos = next((v for k, v in self.similarity.items() if text.startswith(k)), 0.5)
            out.append([cos, (1 - cos * cos) ** 0.5])
        return out


def test_the_best_sentence_of_the_first_ranked_chunk_is_quoted_when_nearly_as_close():
    first = chunk("Take note of an exceptional rule that allows the resolution message in lieu of a status report.",
                  index=0)
    later = chunk("In this case a resolution message can be sent instead of a status report and the case closed.",
                  index=1)
    hits = [("S1", first), ("S2", later)]
    question = "Can the resolution message be sent instead of a status report?"
    model = OfflineRulebookModel(encoder=_Encoder({"Take note": 0.94, "In this case": 0.96}))
    text = model.compose(question, "en", hits)
    assert "In this case" in text and "exceptional rule" in text, text
    far = OfflineRulebookModel(encoder=_Encoder({"Take note": 0.80, "In this case": 0.96}))
    assert "exceptional rule" not in far.compose(question, "en", hits)


def test_asked_when_an_element_is_required_the_rule_outranks_the_element_record():
    hits = [("S1", chunk("10.4.2.4 OriginalActivationReference <OrgnlActvtnRef>\n\nPresence: [0..1]\n\n"
                         "Definition: Provides the reference of the original activation request in the report.",
                         index=0)),
            ("S2", chunk("When Status/Code is \"Accepted\" then OriginalActivationReference must be present.",
                         index=1))]
    spans = SpanScorer(None, None).score("In the status report, when is OriginalActivationReference required?",
                                         hits, set())
    assert spans[0].text.startswith("When Status/Code"), [s.text for s in spans]
