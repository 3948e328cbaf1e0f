from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from config.settings import reset_settings
from evals.obliqa import (
    DEFAULT_DOCUMENTS,
    DEFAULT_QUESTIONS,
    average_precision_at_k,
    evaluate,
    index_passages,
    load_passages,
    load_questions,
    passage_path,
    recall_at_k,
)
from evals.retrieval import DEFAULT_GOLDEN, REAL_GOLDEN, GoldenQuestion, evaluate_golden, is_hit, load_golden
from knowledge.edge_store import EdgeStore
from knowledge.embedding_cache import CachedDenseEncoder
from knowledge.knowledge_base import KnowledgeBase
from knowledge.store import StoredChunk


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoder: CachedDenseEncoder,
        mini_chunks: list[StoredChunk]) -> typer.Typer:
    from adapters.commands import eval_retrieval_cmds, search_cmds

    store = EdgeStore(tmp_path / "data" / "qdrant" / "rulebooks")
    store.ensure_collection(encoder.dim)
    store.upsert(mini_chunks)
    store.close()
    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(tmp_path / "data"))
    reset_settings()
    app, eval_app = typer.Typer(), typer.Typer()
    app.add_typer(eval_app, name="eval")
    search_cmds.register(app, eval_app)
    eval_retrieval_cmds.register(app, eval_app)
    yield app
    reset_settings()


def test_search_command_prints_json_hits(cli: typer.Typer) -> None:
    result = CliRunner().invoke(cli, ["search", "Can I pay with my fridge?", "--json", "--k", "5"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)["hits"]
    assert len(hits) == 5
    assert set(hits[0]) >= {"rulebook_id", "title", "section_path", "section_title", "page_start", "page_end",
                            "chunk_index", "text", "score"}
    assert any(h["rulebook_id"] == "PS-02" and h["section_title"] == "Accepted payment devices" for h in hits)


def test_search_command_roles_and_modes(cli: typer.Typer) -> None:
    runner = CliRunner()
    query = ["search", "treasury desk open currency positions", "--json", "--mode", "bm25"]
    public = json.loads(runner.invoke(cli, query).output)["hits"]
    assert all(h["rulebook_id"] != "RISK-9" for h in public)
    risk = json.loads(runner.invoke(cli, [*query, "--role", "risk"]).output)["hits"]
    assert risk[0]["rulebook_id"] == "RISK-9"
    bad = runner.invoke(cli, ["search", "x", "--mode", "telepathy"])
    assert bad.exit_code != 0 and "--mode" in bad.output
    text = runner.invoke(cli, ["search", "annual scheme fee", "--k", "2"])
    assert text.exit_code == 0 and text.output.startswith(" 1. PS-01 — Credit Transfer Scheme Rulebook · 5 Fees")


def test_search_command_on_an_empty_data_dir_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adapters.commands import search_cmds

    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(tmp_path / "empty"))
    reset_settings()
    app = typer.Typer()
    search_cmds.register(app, typer.Typer())
    app.command("noop")(lambda: None)  # a second command keeps typer from collapsing the group
    result = CliRunner().invoke(app, ["search", "fees"])
    reset_settings()
    assert result.exit_code == 2 and "rulebook index" in result.output


def test_golden_sets_are_well_formed() -> None:
    sample, real = load_golden(DEFAULT_GOLDEN), load_golden(REAL_GOLDEN)
    assert len(sample) >= 60 and len(real) >= 30
    assert len({q.id for q in sample + real}) == len(sample) + len(real)
    assert {"PS-07"} <= {q.rulebook_id for q in sample if q.roles}
    assert all(q.rulebook_id == "PS-08-2024" for q in sample if q.include_archived)


def test_hit_rule_page_range_or_section(knowledge: KnowledgeBase) -> None:
    chunk = knowledge.section("PS-01", "3.2").chunks[0]  # pages 5-6, section ["3", "3.2"]
    assert is_hit(chunk, GoldenQuestion("a", "q", "PS-01", "", 6))
    assert is_hit(chunk, GoldenQuestion("b", "q", "PS-01", "Section 3.2", 99))
    assert not is_hit(chunk, GoldenQuestion("c", "q", "PS-01", "4.2", 7))
    assert not is_hit(chunk, GoldenQuestion("d", "q", "PS-02", "3.2", 5))


def test_retrieval_eval_reports_hit_and_mrr_per_mode(knowledge: KnowledgeBase) -> None:
    items = [GoldenQuestion("f", "Can I pay with my fridge?", "PS-02", "2", 3),
             GoldenQuestion("i", "pain.008.001.08", "PS-01", "6", 12),
             GoldenQuestion("r", "treasury overnight currency positions", "RISK-9", "1", 1, roles=("risk",)),
             GoldenQuestion("x", "treasury overnight currency positions", "RISK-9", "1", 1)]
    report = evaluate_golden(knowledge, items)
    assert set(report["modes"]) == {"dense", "bm25", "hybrid", "hybrid_rerank"}
    for row in report["modes"].values():
        assert "x" in row["lost"]  # without the role the restricted answer is never found
        assert 0 < row["mrr"] <= row["hit_at_10"] <= 0.75


def test_obliqa_metrics() -> None:
    gold = frozenset({("d", "1"), ("d", "2")})
    assert recall_at_k([("d", "1"), ("d", "9")], gold) == 0.5
    assert average_precision_at_k([("d", "9"), ("d", "1"), ("d", "2")], gold) == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert average_precision_at_k([], gold) == 0.0
    assert passage_path("18.8.2") == ["18", "18.8", "18.8.2"] and passage_path("1.") == ["1"]


@pytest.mark.real_pdfs
def test_obliqa_slice_indexes_through_the_store_and_scores(tmp_path: Path, encoder: CachedDenseEncoder) -> None:
    if not DEFAULT_DOCUMENTS.exists():
        pytest.skip(f"ObliQA not found at {DEFAULT_DOCUMENTS.parent} (the shared corpora folder is absent)")
    passages = load_passages(DEFAULT_DOCUMENTS, documents={3})
    questions = [q for q in load_questions(DEFAULT_QUESTIONS)
                 if all(r == "adgm-3" for r, _ in q.gold)][:4]
    gold_ids = {p for q in questions for _, p in q.gold}
    # a slice: the gold passages plus their first 40 neighbours in document order
    chosen = [p for p in passages if p.section_key in gold_ids] + [p for p in passages[:40] if p.section_key not in gold_ids]
    store = EdgeStore(tmp_path / "obliqa")
    assert index_passages(store, encoder, chosen) == len(chosen)
    assert index_passages(store, encoder, chosen) == 0  # already there: nothing re-indexed
    report = evaluate(KnowledgeBase(store, encoder), questions)
    assert set(report["modes"]) == {"dense", "bm25", "hybrid", "hybrid_rerank"}
    assert report["modes"]["hybrid"]["recall_at_10"] > 0.5
    store.close()


def write_obliqa(folder: Path) -> tuple[Path, Path]:
    """A two-document ObliQA in the dataset's own shapes (a ZIP of per-document JSON, a question list)."""
    import zipfile

    docs = {1: [("1.1", "A PFP Operator must publish the exit facility terms on its platform."),
                ("1.2", "Client money is held in a segregated account with an eligible bank.")],
            2: [("4.1", "A fund manager files its annual return within four months of the year end."),
                ("4.2", "Late filing carries a penalty of USD 5,000 per month.")]}
    archive = folder / "docs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for doc, rows in docs.items():
            z.writestr(f"StructuredRegulatoryDocuments/{doc}.json", json.dumps(
                [{"DocumentID": doc, "PassageID": pid, "Passage": text} for pid, text in rows]))
    questions = folder / "questions.json"
    questions.write_text(json.dumps([
        {"QuestionID": "q1", "Question": "Where must client money be held?",
         "Passages": [{"DocumentID": 1, "PassageID": "1.2"}]},
        {"QuestionID": "q2", "Question": "What is the penalty for filing the annual return late?",
         "Passages": [{"DocumentID": 2, "PassageID": "4.2"}]},
        {"QuestionID": "q3", "Question": "Exit facility and annual return?",
         "Passages": [{"DocumentID": 1, "PassageID": "1.1"}, {"DocumentID": 2, "PassageID": "4.1"}]}]))
    return archive, questions


def test_obliqa_subset_options_index_only_chosen_documents_and_their_questions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adapters.commands import eval_retrieval_cmds

    archive, questions = write_obliqa(tmp_path)
    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(tmp_path / "data"))
    reset_settings()
    app, eval_app = typer.Typer(), typer.Typer()
    app.add_typer(eval_app, name="eval")
    eval_retrieval_cmds.register(app, eval_app)
    base = ["eval", "obliqa", "--documents", str(archive), "--questions", str(questions), "--json"]
    runner = CliRunner()
    nothing_cached = runner.invoke(app, [*base, "--only-cached"])
    assert nothing_cached.exit_code == 2 and "embedding cache" in nothing_cached.output
    first = runner.invoke(app, [*base, "--documents-limit", "1"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.output[first.output.index("{"):])
    assert report["subset"]["documents"] == [1] and report["subset"]["of_documents"] == 2
    assert report["passages"] == 2 and report["questions"] == 1  # q3's gold spans both documents: left out
    assert report["modes"]["hybrid_rerank"]["recall_at_10"] == 1.0
    # document 1's passages are now in the cache, document 2's are not
    cached = runner.invoke(app, [*base, "--only-cached"])
    reset_settings()
    assert cached.exit_code == 0, cached.output
    again = json.loads(cached.output[cached.output.index("{"):])
    assert again["subset"]["selected_by"] == "only-cached" and again["subset"]["documents"] == [1]
    assert again["passages_indexed_now"] == 0 and again["collection"] == report["collection"] != "obliqa"


def test_obliqa_questions_split_into_stable_dev_and_test_halves() -> None:
    from evals.obliqa import Question, question_splits

    questions = [Question(f"q{i}", "?", frozenset({("d", str(j)) for j in range(1 + i % 3)})) for i in range(60)]
    splits = question_splits(questions)
    assert set(splits.values()) == {"dev", "test"}
    for gold_count in (1, 2, 3):  # each stratum (number of gold passages) is halved
        part = [splits[q.question_id] for q in questions if len(q.gold) == gold_count]
        assert part.count("dev") == part.count("test")
    assert question_splits(list(reversed(questions))) == splits  # ids alone decide, not order


def test_obliqa_eval_reports_dev_test_and_all_with_the_gap(knowledge: KnowledgeBase) -> None:
    from evals.obliqa import Question

    questions = [Question("a", "Can I pay with my fridge?", frozenset({("PS-02", "")})),
                 Question("b", "pain.008.001.08", frozenset({("nowhere", "x")}))]
    report = evaluate(knowledge, questions, modes={"bm25": "bm25"}, splits={"a": "dev", "b": "test"})
    row = report["modes"]["bm25"]
    assert report["split_counts"] == {"dev": 1, "test": 1}
    assert row["splits"]["test"]["recall_at_10"] == 0.0
    assert row["splits"]["gap"]["recall_at_10"] == row["splits"]["dev"]["recall_at_10"]
    assert row["recall_at_10"] == pytest.approx(row["splits"]["dev"]["recall_at_10"] / 2, abs=1e-4)


def test_right_page_eval_on_an_e2e_golden_set(knowledge: KnowledgeBase, tmp_path: Path) -> None:
    from evals.e2e_golden import load_golden as load_e2e
    from evals.retrieval import evaluate_pages, is_e2e_golden

    golden = tmp_path / "e2e_pages.jsonl"
    rows = [{"id": "fridge", "question": "Can I pay with my fridge?", "language": "en",
             "expected": [{"rulebook_id": "PS-02", "pages": [3]}], "split": "dev"},
            {"id": "two", "question": "Can I pay with my fridge, and what is the annual scheme fee?", "language": "en",
             "expected": [{"rulebook_id": "PS-02", "pages": [3]}, {"rulebook_id": "PS-01", "pages": [11]}],
             "split": "test"},
            {"id": "wrong-page", "question": "Can I pay with my fridge?", "language": "en",
             "expected": [{"rulebook_id": "PS-02", "pages": [99]}], "split": "test"}]
    golden.write_text("\n".join(json.dumps({**r, "must_contain": ["x"]}) for r in rows), encoding="utf-8")
    assert is_e2e_golden(golden) and not is_e2e_golden(DEFAULT_GOLDEN)
    report = evaluate_pages(knowledge, load_e2e([golden]), modes={"hybrid_rerank": "hybrid"})
    row = report["modes"]["hybrid_rerank"]
    assert row["splits"]["dev"]["right_page_at_k"] == 1.0
    assert row["splits"]["test"]["right_page_at_k"] == 0.5  # "two" found, "wrong-page" not
    assert row["missed"] == {"wrong-page": None} and row["missed_not_in_50"] == 1
    assert row["cross_document"] == 1 and row["cross_document_all_at_k"] == 1
