"""One set of span weights or one per kind of question (evals.span_kinds), on synthetic spans whose right
one is marked by a different clue in each kind."""

from __future__ import annotations

import numpy as np

from bot.offline.span_scoring import element_question
from evals.span_kinds import PROBE, Kinds, compare, fit_element_set, stored_element_set
from evals.span_ranking import COLUMNS, SpanCase


def _case(qid: str, corpus: str, split: str, clue: str, rng: np.random.Generator, n: int = 10,
          other: str | None = None) -> SpanCase:
    """The right span holds `clue`; a decoy holds the other kind's clue and is denser."""
    other = other or ("lexical" if clue == "element_defines" else "element_defines")
    features = np.zeros((n, len(COLUMNS)))
    features[:, 0] = 0.70 + 0.10 * rng.random(n)
    right = np.zeros(n, dtype=bool)
    k = int(rng.integers(n))
    right[k] = True
    features[k, 0] = 0.85
    features[k, COLUMNS.index(clue)] = 1.0
    decoy = (k + 1) % n
    # in half the questions a little closer in meaning than the right span (dense alone gets those wrong)
    features[decoy, 0] = 0.87 if rng.random() < 0.5 else 0.82
    features[decoy, COLUMNS.index(other)] = 1.0
    return SpanCase(qid, corpus, split, features, right, right.copy())


def test_element_questions_are_those_about_an_element_naming_a_message_or_an_element():
    assert element_question("Is Creator mandatory in a CancelCaseAssignment message?")
    assert element_question("When must CancellationDetails be present in a ResolutionOfInvestigation?")
    assert element_question("What is the multiplicity of Assignee in camt.039?")
    assert not element_question("What is the maximum amount of an instant payment?")
    assert not element_question("Who sends a camt.056?")  # about a message, not an element


def test_two_weight_sets_serve_two_kinds_whose_right_spans_differ_and_test_is_only_scored():
    rng = np.random.default_rng(3)
    cases = [_case(f"el-{i}", PROBE, split, "element_defines", rng)
             for i, split in enumerate(["dev"] * 40 + ["test"] * 20)]
    cases += [_case(f"g-{i}", "real2", split, "lexical", rng) for i, split in enumerate(["dev"] * 40 + ["test"] * 20)]
    report = compare(cases, {c.question_id: "What is the maximum amount?" for c in cases if c.corpus != PROBE})
    figures = report["top1_right"]
    assert report["questions_with_right_span"] == {"golden dev": 40, "golden test": 20, "probe dev": 40, "probe test": 20}
    assert report["golden_element_questions"] == {"dev": 0, "test": 0}
    # each kind's own fit finds its own clue, on test questions it never saw
    assert figures["two refits"]["probe test"] == 1.0 and figures["two refits"]["golden test"] == 1.0
    # one set cannot serve both: the clues contradict each other across kinds
    assert min(figures["one refit"]["probe test"], figures["one refit"]["golden test"]) < 1.0


def test_the_element_set_weighs_golden_and_probe_questions_equally_and_never_fits_on_test():
    """Few golden element questions, their right span marked by "condition" beside an "element_defines"
    decoy; many probe ones marked by "element_defines", a quarter of them beside a "condition" decoy. A
    plain fit follows the probe's many questions and gets every golden one wrong; weighed equally, the
    golden questions' clue wins and the probe's other three quarters stay right."""
    rng = np.random.default_rng(5)
    golden = [_case(f"g-{i}", "real2", split, "condition", rng, other="element_defines")
              for i, split in enumerate(["dev"] * 12 + ["test"] * 12)]
    probe = [_case(f"p-{i}", PROBE, split, "element_defines", rng,
                   other="condition" if i % 4 == 0 else "section_title")
             for i, split in enumerate(["dev"] * 120 + ["test"] * 40)]
    questions = {c.question_id: "When must CancellationDetails be present in camt.029?" for c in golden}
    report = fit_element_set(golden + probe, Kinds(questions), strengths=(0.001, 0.01))
    figures = report["top1_right"]
    assert figures["golden test"]["element_set"] == 1.0
    assert figures["probe test"]["element_set"] >= 0.7
    assert report["weights"]["condition"] > report["weights"]["element_defines"] > report["weights"]["section_title"]
    assert report["chosen_strength"] in (0.001, 0.01) and len(report["curve"]) == 2
    assert set(stored_element_set(report)) == {"element_weights", "element_strength", "element_rule",
                                               "element_top1_right"}
    # test questions never move the fit: spoil every test case's features and the weights stay
    spoiled = [SpanCase(c.question_id, c.corpus, c.split, np.zeros_like(c.features), c.right, c.best)
               if c.split == "test" else c for c in golden + probe]
    assert fit_element_set(spoiled, Kinds(questions), strengths=(0.001, 0.01))["weights"] == report["weights"]


def test_an_element_set_needs_both_sources():
    rng = np.random.default_rng(1)
    probe = [_case(f"p-{i}", PROBE, "dev", "element_defines", rng) for i in range(10)]
    try:
        fit_element_set(probe, Kinds({}))
    except ValueError as error:
        assert "golden element questions" in str(error)
    else:
        raise AssertionError("an element set was fitted without golden element questions")


def _element_cases(rng: np.random.Generator) -> tuple[list[SpanCase], dict[str, str]]:
    from evals.e2e_golden import load_golden

    golden_ids = [q.id for q in load_golden() if q.split == "dev" and q.corpus == "sample"][:6]
    golden = [_case(qid, "sample", "dev", "condition", rng, other="section_title") for qid in golden_ids]
    probe = [_case(f"p-{i}", PROBE, split, "element_defines", rng)
             for i, split in enumerate(["dev"] * 30 + ["test"] * 10)]
    return golden + probe, {qid: "When must CancellationDetails be present in camt.029?" for qid in golden_ids}


def test_eval_spans_element_set_only_writes_the_set_beside_the_main_one(tmp_path, monkeypatch):
    """`rulebook eval spans --cases … --element-set-only --write` stores the element set and leaves the
    main set and its figures as they were; a later full fit without probe cases keeps that set."""
    import json

    from typer.testing import CliRunner

    import evals.e2e_golden as golden_module
    from adapters.cli import app as cli
    from bot.offline import span_ranker
    from evals import span_ranking

    cases, questions = _element_cases(np.random.default_rng(2))
    # the sample set's dev questions, asked as element questions (their spans are synthetic)
    real = golden_module.load_golden()
    monkeypatch.setattr(golden_module, "load_golden",
                        lambda: [q.model_copy(update={"question": questions.get(q.id, q.question)}) for q in real])
    weights_file = tmp_path / "span_weights.json"
    main = {"weights": {"lexical": 0.1, "defines": 0.05}, "quote_margin": 0.08}
    weights_file.write_text(json.dumps(main), encoding="utf-8")
    monkeypatch.setattr(span_ranker, "WEIGHTS_FILE", weights_file)
    monkeypatch.setattr(span_ranking, "BASELINE", tmp_path / "fit.json")
    saved = tmp_path / "cases.json"
    saved.write_text(json.dumps([c.to_json() for c in cases]), encoding="utf-8")

    result = CliRunner().invoke(cli, ["eval", "spans", "--cases", str(saved), "--element-set-only", "--write"])
    assert result.exit_code == 0, result.output
    stored = json.loads(weights_file.read_text(encoding="utf-8"))
    assert stored["weights"] == main["weights"] and stored["quote_margin"] == 0.08
    assert stored["element_weights"]["element_defines"] > stored["element_weights"]["section_title"]
    assert stored["element_weights"]["condition"] > stored["element_weights"]["section_title"]
    assert span_ranker.load_weights(weights_file, key="element_weights")["element_defines"] == \
        stored["element_weights"]["element_defines"]

    golden_only = tmp_path / "golden.json"
    golden_only.write_text(json.dumps([c.to_json() for c in cases if c.corpus != PROBE]), encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "spans", "--cases", str(golden_only), "--write"])
    assert result.exit_code == 0, result.output
    refitted = json.loads(weights_file.read_text(encoding="utf-8"))
    assert refitted["weights"] != main["weights"]  # the main set was fitted again, on the golden cases
    assert refitted["element_weights"] == stored["element_weights"]

    only_probe = tmp_path / "probe.json"
    only_probe.write_text(json.dumps([c.to_json() for c in cases if c.corpus == PROBE]), encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "spans", "--cases", str(only_probe), "--element-set-only"])
    assert result.exit_code != 0 and "golden element questions" in result.output
