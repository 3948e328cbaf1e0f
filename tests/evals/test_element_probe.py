"""The element probe reads its questions and their truth from a message guide's structure tables."""

from __future__ import annotations

from dataclasses import replace

from evals.e2e_scoring import QuestionResult
from evals.element_probe import (
    ElementRow,
    absent_elements,
    constraint_rules,
    element_records,
    probe_questions,
    report,
    split_of,
    structure_rows,
)
from knowledge.payload import ChunkPayload

TABLE = ("Or,MessageElement/BuildingBlock<XML Tag>,Mult.,Type,Constr. No.,Page\n"
         ",Message root <Document> <CaseStsRpt>,[1..1],,,\n"
         ",Header <Hdr>,[1..1],,,120\n"
         ",Assignee <Assgne>,[1..1],±,,230\n"
         ",Creator <Cretr>,[0..1],±,,231\n"
         ",Case <Case>,[0..1],±,,\n")


def _chunk(heading: str, tables: list[str], page: int = 118) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"EI:{page}", rulebook_id="EI", rulebook_title="E&I", page_start=page,
                        page_end=page, section_path=["15", "15.2"], section_key="15.2", section_title="Structure",
                        chunk_index=page, text="Structure", tables_csv=tables, content_hash=f"h{page}",
                        parent_titles=[heading])


def test_each_element_row_of_a_messages_structure_table_is_a_question_with_its_answer():
    rows = structure_rows([_chunk("15 camt.039.001.05 CaseStatusReportV05", [TABLE]),
                           _chunk("Glossary", [TABLE], page=3),  # no message's chapter: no rows
                           _chunk("15 camt.039.001.05 CaseStatusReportV05", ["Code,Name\nMS01,Missing\n"], 119)])
    by_name = {r.element: r for r in rows}
    # the root row is no element; the record's page joins the table's
    assert set(by_name) == {"Header", "Assignee", "Creator", "Case"}
    assert by_name["Assignee"] == ElementRow("EI", "camt.039", "CaseStatusReport", "Assignee", "[1..1]", (118, 230))
    assert by_name["Case"].pages == (118,)


def test_the_split_is_fixed_per_pair_and_the_questions_take_the_wordings_in_turn():
    rows = [ElementRow("EI", "camt.039", "CaseStatusReport", f"Element{i}", "[0..1]", (118,)) for i in range(40)]
    assert [split_of(r) for r in rows] == [split_of(r) for r in rows]
    assert {split_of(r) for r in rows} == {"dev", "test"}
    questions = probe_questions(rows, per_split=6, seed=1, asked="What is Element3 used for?")
    assert len(questions) == 12 and not any("Element3 " in q.question for q in questions)
    dev = [q for q in questions if q.split == "dev"]
    assert dev[0].question.startswith("What is the multiplicity of") and " in camt.039?" in dev[0].question
    assert dev[1].question.startswith("Is ") and "mandatory in a CaseStatusReport message" in dev[1].question
    assert dev[2].question.startswith("How often can")
    assert all(q.must_contain == ["[0..1]"] for q in questions)
    assert probe_questions(rows, per_split=6, seed=1) == probe_questions(rows, per_split=6, seed=1)


def _result(qid: str, outcome: str, page_ok: bool, stated: bool) -> QuestionResult:
    return QuestionResult(id=qid, question="q", corpus="real2", persona="employee", roles=[], kind="table",
                          categories=["table"], language="en", answerable=True, outcome=outcome, reason="",
                          answer="a", citations=[], citation_ok=page_ok if outcome == "answered" else None,
                          expected_cited=None, all_expected_cited=None, section_match=None, must_contain=[stated],
                          unsupported=[], violations=[], correct_refusal=None, retrieval_hit=None,
                          retrieval_rank=None, latency_ms=1.0, first_token_ms=None, tool_calls=1)


def test_right_means_answered_on_the_right_page_with_the_multiplicity():
    rows = [ElementRow("EI", "camt.039", "CaseStatusReport", f"Element{i}", "[0..1]", (118,)) for i in range(40)]
    questions = [q for q in probe_questions(rows, per_split=3, seed=1) if q.split == "dev"]
    results = [_result(questions[0].id, "answered", True, True), _result(questions[1].id, "answered", False, True),
               _result(questions[2].id, "refused", False, False)]
    figures = report(questions, results)["splits"]["dev"]
    assert (figures["questions"], figures["answered"], figures["right_page"], figures["right"]) == (3, 2, 1, 1)
    assert [w["right"] for w in figures["by_wording"]] == [1] + [0] * 9  # three wordings asked, seven not


def test_each_element_record_of_a_messages_chapter_is_a_question_about_what_it_is():
    text = ("5.4.3 CreditorAgent <CdtrAgt>\n\nPresence: [0..1]\n\nDefinition: Financial institution servicing an "
            "account for the creditor.\n\nCreditorAgent <CdtrAgt> contains the following elements\n\n"
            "5.1.1 Header <Hdr>\n\nPresence: [1..1]\n\nDefinition: Specifies generic information.")
    chunk = _chunk("5 camt.029.001.09 ResolutionOfInvestigationV09", []).model_copy(update={"text": text})
    records = {r.element: r for r in element_records([chunk])}
    assert set(records) == {"CreditorAgent", "Header"}
    assert records["CreditorAgent"].stated == "Financial institution servicing an account for the creditor"
    assert records["CreditorAgent"].family == "definition" and records["CreditorAgent"].pages == (118,)
    questions = probe_questions(list(records.values()) * 1, per_split=5, seed=1)
    assert {q.question for q in questions} <= {
        "What is CreditorAgent in the ResolutionOfInvestigation message?",
        "What is Header in the ResolutionOfInvestigation message?",
        "What does the element CreditorAgent of camt.029 hold?", "What does the element Header of camt.029 hold?"}
    assert all(q.categories == ["definition"] for q in questions)


def test_an_element_another_message_has_is_an_unanswerable_question_about_the_message_that_lacks_it():
    other = ("Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,ClearingSystem <ClrSys>,[0..1],±,,301\n"
             ",Assignee <Assgne>,[1..1],±,,302\n")
    chunks = [_chunk("15 camt.039.001.05 CaseStatusReportV05", [TABLE]),
              _chunk("16 camt.056.001.08 FIToFIPaymentCancellationRequestV08", [other], page=300)]
    rows = structure_rows(chunks)
    absent = absent_elements(chunks, rows)
    # camt.039 has no ClearingSystem; camt.056 has none of Header, Creator, Case
    assert {(r.message_id, r.element) for r in absent} == {
        ("camt.039", "ClearingSystem"), ("camt.056", "Header"), ("camt.056", "Creator"), ("camt.056", "Case")}
    questions = [q for q in probe_questions(absent, per_split=4, seed=1) if q.id.startswith("el-abs-")]
    assert questions and all(not q.answerable and q.categories == ["nonexistent"] and not q.expected
                             for q in questions)
    results = [replace(_result(q.id, "refused" if i == 0 else "answered", i > 0, i > 0), answerable=False)
               for i, q in enumerate(questions)]
    figures = report(questions, results)["families"]["absent"]
    # refused is right; an answer (any answer: it quotes another message's element) is not
    assert sum(f["right"] for f in figures.values()) == 1
    assert sum(f["answered"] for f in figures.values()) == len(questions) - 1


def test_the_spelled_families_ask_multi_word_elements_in_words_and_know_their_wording():
    from evals.element_probe import ALL_WORDINGS, name_words, wording_of

    assert name_words("InterbankSettlementAmount") == ["interbank", "settlement", "amount"]
    assert name_words("AnyBIC") == ["any", "bic"]
    rows = [ElementRow("EI", "camt.039", "CaseStatusReport", name, "[0..1]", (118,))
            for name in ("Assignee", "Creator", "CaseStatus", "ClearingSystem", "InterbankSettlementAmount",
                         "Reason", "DateTime", "OriginalInstructionIdentification")]
    rows += [replace(row, family="absent", stated="", pages=()) for row in rows]
    questions = probe_questions(rows, per_split=8, seed=1)
    spelled = [q for q in questions if q.id.startswith(("el-spl-", "el-spa-"))]
    # one-word names are not spelled (that would be the name itself)
    assert spelled and not any(w in q.id for q in spelled for w in ("-Assignee", "-Creator", "-Reason"))
    assert all(q.question.startswith(("Is the ", "How often can the ")) for q in spelled)
    assert any("interbank settlement amount" in q.question for q in spelled)
    assert all(q.answerable == q.id.startswith("el-spl-") for q in spelled)
    for q in spelled:
        assert ALL_WORDINGS[wording_of(q)].startswith(q.question.split(" ")[0] + " " + q.question.split(" ")[1])
    # a name-first wording stays its own ("Is Assignee mandatory …" is not "Is the … mandatory …")
    named = next(q for q in questions if q.question.startswith("Is ") and not q.question.startswith("Is the "))
    assert ALL_WORDINGS[wording_of(named)] == "Is {name} mandatory in a {message_name} message?"


def _rules_chunk(heading: str, text: str, page: int, title: str = "Constraints", path: str = "15.3") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"EI:{page}", rulebook_id="EI", rulebook_title="E&I", page_start=page,
                        page_end=page, section_path=["15", path], section_key=path, section_title=title,
                        chunk_index=page, text=text, content_hash=f"h{page}", parent_titles=[heading])


def test_a_constraint_rule_on_one_element_asks_when_it_must_be_present_or_is_not_allowed():
    csr = "15 camt.039.001.05 CaseStatusReportV05"
    chunks = [
        _chunk(csr, [TABLE.replace(",Case <Case>,[0..1],±,,\n", ",Case <Case>,[0..1],±,,\n,CaseReason <CsRsn>,[0..1],±,,\n")]),
        _rules_chunk(csr, "15.3 Constraints\n\nC1 AssigneeRule\n\nIf Creator is present, then Assignee must be present."
                          "\n\nC2 CaseRule\n\nIf Header/Status is present, then Case/Reason is not allowed."
                          "\n\nC3 EitherRule\n\nIf Case is present, then Creator or Header must be present."
                          "\n\nC4 CaseReasonRule\n\nCaseReason must be present when the case is closed.", 140),
        # a second rule requiring Header: either would be right, so Header is not asked
        _rules_chunk(csr, "C5 HeaderRule\n\nIf Creator is present, then Header must be present.\n\n"
                          "C6 OtherHeaderRule\n\nIf Case is present, then Header must be present.", 141),
        # the element's record lists its rule again: that page is right too
        _rules_chunk(csr, "15.4.2 Assignee <Assgne>\n\nPresence: [1..1]\n\n• AssigneeRule\n\nIf Creator is present, "
                          "then Assignee must be present.", 150, title="Assignee <Assgne>", path="15.4"),
        # ... a rule of another message's chapter is that message's
        _rules_chunk("16 camt.040.001.01 OtherMessageV01", "C1 AssigneeRule\n\nIf Creator is present, then "
                     "Assignee must be present.", 160),
    ]
    rules = {(r.message_id, r.element, r.family): r for r in constraint_rules(chunks)}
    # C2 constrains Reason (a path's last name), which the message does not list; C3 is "A or B"; C4 opens
    # with no condition; two rules require Header; the other message's rule is its own question
    assert set(rules) == {("camt.039", "Assignee", "required"), ("camt.040", "Assignee", "required")}
    assert rules[("camt.040", "Assignee", "required")].pages == (160,)
    assert rules[("camt.039", "Assignee", "required")] == ElementRow(
        "EI", "camt.039", "CaseStatusReport", "Assignee", "If Creator is present, then Assignee must be present.",
        (140, 150), "required")
    questions = probe_questions([rules[("camt.039", "Assignee", "required")]], per_split=5, seed=1)
    (question,) = questions
    assert question.question in ("When must Assignee be present in the CaseStatusReport message?",
                                 "In camt.039, under which condition is Assignee required?")
    assert question.answerable and question.categories == ["limit"]
    assert question.must_contain == ["If Creator is present, then Assignee must be present."]


def test_an_element_recurring_in_a_messages_blocks_is_right_on_each_row_with_the_same_multiplicity():
    csr = "15 camt.039.001.05 CaseStatusReportV05"
    debtor = ("Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,CountryOfResidence <CtryOfRes>,[0..1],"
              "CodeSet,,258\n,Header <Hdr>,[0..1],,,\n")
    creditor = "Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,CountryOfResidence <CtryOfRes>,[0..1],CodeSet,,258\n"
    rows = {r.element: r for r in structure_rows([_chunk(csr, [TABLE]), _chunk(csr, [debtor], page=125),
                                                  _chunk(csr, [creditor], page=127)])}
    assert rows["CountryOfResidence"].pages == (125, 127, 258)
    # another multiplicity is another truth: the first row's stands, on its own pages
    assert rows["Header"].stated == "[1..1]" and rows["Header"].pages == (118, 120)
