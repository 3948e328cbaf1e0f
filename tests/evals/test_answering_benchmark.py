"""ObliQA as an answering benchmark, on a tiny ObliQA-shaped corpus: the product path end to end."""

from __future__ import annotations

import json
import zipfile

from evals.answering import run, sample, split_of, summarise
from evals.calibration import Signal, calibrate, choose, point, sweep
from evals.obliqa import load_passages, load_questions

PASSAGES = {
    1: [("1.1", "A Money Services Business must keep records of every transfer for at least six years."),
        ("1.2", "The Regulator may inspect the premises of an Authorised Person at any reasonable time."),
        ("1.3", "An Authorised Person must notify the Regulator within ten days of a change of its auditor.")],
    2: [("4.1", "A Fund Manager must appoint an independent valuer for every property fund it manages."),
        ("4.2", "Units of a property fund may only be redeemed once in every twelve months.")],
}
QUESTIONS = [
    ("q-records", "How long must a Money Services Business keep records of transfers?", 1, "1.1"),
    ("q-auditor", "Within how many days must the Regulator be told of a change of auditor?", 1, "1.3"),
    ("q-valuer", "Who must a Fund Manager appoint for a property fund?", 2, "4.1"),
]


def write_corpus(tmp_path):
    archive = tmp_path / "docs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for doc, rows in PASSAGES.items():
            z.writestr(f"docs/{doc}.json", json.dumps([{"ID": f"{doc}-{p}", "DocumentID": doc, "PassageID": p,
                                                        "Passage": t} for p, t in rows]))
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps([{"QuestionID": qid, "Question": text, "Group": 1,
                                      "Passages": [{"DocumentID": doc, "PassageID": pid, "Passage": ""}]}
                                     for qid, text, doc, pid in QUESTIONS]))
    return archive, questions


def test_split_and_sample_are_deterministic():
    ids = [f"q{i}" for i in range(400)]
    dev = [i for i in ids if split_of(i) == "dev"]
    assert 150 < len(dev) < 250 and all(split_of(i) == "dev" for i in dev)
    qs = load_questions_like(ids)
    assert sample(qs, "dev", 5) == sample(qs, "dev", 10)[:5]
    assert all(split_of(q.question_id) == "dev" for q in sample(qs, "dev", None))


def load_questions_like(ids):
    from evals.obliqa import Question

    return [Question(i, f"question {i}", frozenset({("adgm-1", "1")})) for i in ids]


def test_answering_and_exclusion_through_the_assistant(sample_index, tmp_path):
    archive, questions = write_corpus(tmp_path)
    settings = sample_index.model_copy(update={"data_dir": tmp_path / "data"})
    chunks = load_passages(archive)
    qs = load_questions(questions)
    report = run(settings, chunks, qs, "obliqa-answering-test")
    cases = {(c["question_id"], c["view"]): c for c in report["cases"]}
    for qid, *_ in QUESTIONS:
        normal, excluded = cases[(qid, "normal")], cases[(qid, "excluded")]
        assert normal["outcome"] == "answered" and normal["gold_cited"], normal
        assert excluded["outcome"] == "refused", excluded  # its document hidden by role: nothing to say
        assert normal["decision"]["max_dense"] is not None
    figures = [report["splits"][s] for s in ("dev", "test") if report["splits"][s]["questions"]]
    assert sum(f["questions"] for f in figures) == 3
    assert all(f["gold_cited_of_answered"] == 1.0 and f["refused_when_excluded"] == 1.0 for f in figures)
    assert "must_contain" in report and report["passages"] == 5


def test_the_sweep_replays_thresholds_and_writes_the_curve(tmp_path):
    signals = [Signal("obliqa", "normal", 0.90, 0.6, False, True, True),
               Signal("obliqa", "normal", 0.86, 0.3, False, True, True),
               Signal("obliqa", "normal", 0.88, 0.2, False, True, False),
               Signal("obliqa", "excluded", 0.84, 0.3, False, True, False),
               Signal("obliqa", "excluded", 0.95, 0.2, True, False, False)]
    low, high = point(signals, 0.80, 1.01), point(signals, 0.85, 1.01)
    assert low["refused_when_excluded"] == 0.5 and high["refused_when_excluded"] == 1.0
    assert high["answered_share"] == 1.0 and round(high["right_of_answered"], 2) == 0.67
    curve = sweep(signals)
    best = choose(curve)
    assert best["f1"] == max(p["f1"] for p in curve)
    report = {"calibration_run": True, "cases": [
        {"split": "dev", "view": "normal", "outcome": "answered", "gold_cited": True,
         "decision": {"max_dense": 0.9, "max_lexical": 0.5, "absent": [], "hits": 3}},
        {"split": "dev", "view": "excluded", "outcome": "answered", "gold_cited": False, "elsewhere": 0.1,
         "decision": {"max_dense": 0.8, "max_lexical": 0.2, "absent": [], "hits": 3}},
        {"split": "test", "view": "normal", "outcome": "answered", "gold_cited": False,
         "decision": {"max_dense": 0.99, "max_lexical": 0.9, "absent": [], "hits": 3}}]}
    result = calibrate([report], [], tmp_path / "cal.json", tmp_path / "cal.png", (0.83, 0.5))
    assert result["dev_signals"]["total"] == 2  # the test case is never looked at
    assert (tmp_path / "cal.png").stat().st_size > 1000 and json.loads((tmp_path / "cal.json").read_text())["chosen"]


def test_summarise_counts_answers_elsewhere_apart():
    from evals.answering import AnswerCase

    cases = [AnswerCase("a", "dev", "normal", "answered", gold_cited=True),
             AnswerCase("a", "dev", "excluded", "answered", elsewhere=0.9),
             AnswerCase("b", "dev", "normal", "refused"),
             AnswerCase("b", "dev", "excluded", "refused")]
    dev = summarise(cases)["dev"]
    assert dev["answered_share"] == 0.5 and dev["gold_cited_of_answered"] == 1.0
    assert dev["refused_when_excluded"] == 0.5 and dev["refused_when_excluded_not_counting_elsewhere"] == 1.0
    assert dev["also_answered_elsewhere"] == 1
    # two questions say little: the interval of the answered share spans most of 0..1
    low, high = dev["intervals"]["answered_share"]
    assert low < 0.1 and high > 0.9
    assert summarise(cases)["test"]["intervals"]["answered_share"] is None  # no test question asked


def test_e2e_reports_add_unanswerable_questions_and_the_other_language_bar(tmp_path):
    from evals.calibration import Bar, signals_from_e2e

    def question(qid, answerable, dense, lexical, other=None, cited=True, kind="fact"):
        return {"id": qid, "corpus": "real2", "answerable": answerable, "outcome": "answered", "kind": kind,
                "expected_cited": cited if answerable else None, "must_contain_ok": cited,
                "decision": {"max_dense": dense, "max_lexical": lexical, "absent": [], "hits": 5,
                             "max_dense_other_language": other}}

    report = {"calibration_run": True,
              "split_of": {"a": "dev", "b": "dev", "c": "dev", "d": "test"},
              "questions": [question("a", True, 0.90, 0.2), question("b", False, 0.86, 0.2),
                            question("c", True, None, 0.0, other=0.84, kind="cross_language"),
                            question("d", True, 0.99, 0.9),
                            {"id": "e", "corpus": "real2", "answerable": True, "outcome": "refused"}]}
    dev = signals_from_e2e(report)
    assert [s.view for s in dev] == ["normal", "unanswerable", "normal"]  # test and undecided left out
    strict, loose = point(dev, Bar(0.88, 1.01, 0.85)), point(dev, Bar(0.85, 1.01, 0.83))
    assert strict["refused_unanswerable"] == 1.0 and strict["answered_share"] == 0.5
    assert loose["refused_unanswerable"] == 0.0 and loose["answered_share"] == 1.0
    result = calibrate([], [], tmp_path / "cal.json", tmp_path / "cal.png", (0.83, 0.5), e2e=[report],
                       sweep_all=True)
    assert result["dev_signals"]["total"] == 3 and result["test_cases"] == 1
    assert result["dev_by_source_at_chosen"]["answered_by_kind"]["cross_language"] in ("0/1", "1/1")
    chosen = result["chosen"]
    assert chosen["refused_unanswerable"] == 1.0 and chosen["answered_share"] == 1.0  # a bar that has both
    # by default the bars calibrated before stay, and only the checks not on yet are swept
    kept = calibrate([], [], tmp_path / "cal.json", tmp_path / "cal.png", (0.83, 0.5), e2e=[report])["chosen"]
    assert (kept["min_dense"], kept["min_lexical"]) == (0.83, 0.5)


def test_a_refusal_listing_rulebook_ids_with_versions_is_no_competitor_figure():
    from evals.e2e_guidelines import detect_violations

    refusal = "The rulebooks I can consult do not cover this question. They do not mention Mastercard. " \
              "Searched: de_tan_hhd_uc_v14, epc_sct_rulebook_2025_v1.0."
    assert detect_violations(refusal, [], ["other_scheme_facts"], refusal=True) == []
    stated = "Mastercard charges EUR 0.10 for a recall."
    assert detect_violations(stated, [], ["other_scheme_facts"], refusal=True)


def test_the_vectorised_sweep_replays_exactly_what_the_reference_does():
    import random

    from evals.calibration import Bar, _Columns

    rng = random.Random(7)
    views = ("normal", "excluded", "unanswerable")
    signals = [Signal("real2", rng.choice(views), rng.choice([None, rng.uniform(0.78, 0.95)]), rng.random(),
                      rng.random() < 0.1, rng.random() < 0.95, rng.random() < 0.7,
                      rng.choice([None, rng.uniform(0.78, 0.9)]), must_contain=rng.choice([None, True, False]),
                      agree=rng.choice([None, True, False]), slot=rng.choice([None, "money", "duration"]),
                      max_dense_slot=rng.choice([None, rng.uniform(0.75, 0.95)]),
                      uncovered=rng.choice([None, rng.random()]), named_section=rng.random() < 0.05,
                      subject=rng.choice([None, tuple((f"t{i}", rng.choice([0.0, 0.01, 0.05, 0.3]), rng.randint(0, 4),
                                                       rng.random() < 0.7) for i in range(rng.randint(0, 5)))]),
                      slot_gap=rng.choice([None, 0.0, rng.uniform(0, 0.3)]))
               for _ in range(300)]
    columns = _Columns(signals)
    for bar in (Bar(0.86, 0.5, 0.82, 0.88, 0.81, None), Bar(0.84, 0.6, 0.83, None, None, 0.4),
                Bar(0.9, 1.01, 0.8, 0.92, 0.86, 0.25), Bar(0.86, 0.5, 0.82, 0.88, 0.81, None, 0.0, 0.05, 2, 0.1),
                Bar(0.84, 0.6, 0.83, None, None, None, 0.2, 0.02, 3, None)):
        assert columns.point(bar) == point(signals, bar)
    # a coverage bar refuses what the dense bars alone would answer, never the other way round
    loose, strict = point(signals, Bar(0.86, 0.5)), point(signals, Bar(0.86, 0.5, min_dense_slot=0.85))
    assert strict["answered_share"] <= loose["answered_share"]
    assert strict["refused_unanswerable"] >= loose["refused_unanswerable"]


def test_a_coverage_check_that_changes_one_dev_outcome_is_switched_off():
    from evals.calibration import Bar, prune

    def sig(view, uncovered, right=True):
        return Signal("real2", view, 0.9, 0.6, False, True, right, uncovered=uncovered)

    one = [sig("normal", 0.1), sig("normal", 0.2), sig("excluded", 0.9, False)]
    assert prune(one, Bar(0.86, 0.5, max_uncovered=0.5)).max_uncovered is None  # refuses a single case
    two = [*one, sig("excluded", 0.8, False)]
    assert prune(two, Bar(0.86, 0.5, max_uncovered=0.5)).max_uncovered == 0.5
