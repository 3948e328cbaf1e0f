"""The element probe reads its questions and their truth from a message guide's structure tables."""

from __future__ import annotations

from dataclasses import replace

from evals.e2e_scoring import QuestionResult
from evals.element_probe import (
    ElementRow,
    absent_elements,
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
    assert [w["right"] for w in figures["by_wording"]] == [1, 0, 0, 0, 0, 0, 0]  # three wordings asked, four not


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
