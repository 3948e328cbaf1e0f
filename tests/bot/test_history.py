from bot.answer import Answer, Citation
from bot.memory.history import InMemoryHistoryStore, window
from bot.service import history_text


async def test_in_memory_history_keeps_order_per_conversation():
    store = InMemoryHistoryStore()
    await store.append("c1", [{"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}])
    await store.append("c2", [{"role": "user", "content": "other"}])
    await store.append("c1", [{"role": "user", "content": "q2"}])
    assert [m["content"] for m in await store.get("c1")] == ["q1", "a1", "q2"]
    assert await store.get("unknown") == []


def test_the_window_keeps_the_last_messages_and_starts_with_a_question():
    messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": str(i)} for i in range(30)]
    assert [m["content"] for m in window(messages, 20)] == [str(i) for i in range(10, 30)]
    assert window(messages, 19)[0]["role"] == "user"
    assert len(window(messages[:5], 20)) == 5


def test_history_spells_out_citation_markers():
    answer = Answer(text="Fridges are accepted [1].", outcome="answered", citations=[Citation(
        n=1, rulebook_id="PS-04", title="t", section_path=["3", "3.1"], section_title="s", page=4,
        uri="u", quote="q", language="en")])
    assert history_text(answer) == "Fridges are accepted (source: PS-04 section 3.1, page 4)."
