"""The message -> answer map Share and Copy use, in both stores: Table Storage (against Azurite on
loopback, two replicas on one table) and the local SQLite file; records expire after 7 days."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adapters.slack.delivered_answers import DeliveredAnswers
from bot.answer import Answer, AnswerTable, Citation
from bot.memory.message_records import (
    RETENTION,
    SqliteMessageRecords,
    TableMessageRecords,
    open_message_records,
)
from config.settings import Settings
from tests.events.conftest import azurite, table_prefix  # noqa: F401  (fixtures)


def an_answer(message_id: str = "m-1", text: str = "A fridge is accepted [1].") -> Answer:
    return Answer(text=text, outcome="answered", message_id=message_id, conversation_id="C1:1.0",
                  citations=[Citation(n=1, rulebook_id="PS-01", title="Aurora", section_path=["3", "3.1"],
                                      section_title="Devices", page=7, uri="/sources/PS-01?page=7",
                                      quote="a refrigerator", language="en", chunk_id="PS-01:3")],
                  tables=[AnswerTable(columns=["Device"], rows=[["Fridge"]], citation_n=1)])


async def round_trip(first: DeliveredAnswers, second: DeliveredAnswers) -> None:
    answer = an_answer(text="Long answer. " * 5000)  # 65,000 characters: several Table properties
    await first.remember(answer, "C1:1.0", [("C1", "1.1"), ("C1", "1.2")], roles=("employee",))
    found = await second.by_ts("C1", "1.2")
    assert found is not None and found.answer == answer
    assert found.roles == ("employee",) and found.messages == [("C1", "1.1"), ("C1", "1.2")]
    assert (await second.by_message_id("m-1")).conversation_id == "C1:1.0"
    assert await second.by_ts("C1", "9.9") is None and await second.by_message_id("nope") is None
    # a share adds the posted message to the same record, seen from the first replica
    await second.remember(answer, "C1:1.0", [("C2", "2.1")], roles=("employee",))
    first.forget_cache()
    assert (await first.by_ts("C2", "2.1")).answer.message_id == "m-1"
    await first.set_feedback("m-1", "user-a", "positive")
    assert await second.feedback_of("m-1", "user-a") == "positive"
    await second.set_feedback("m-1", "user-a", None)
    assert await first.feedback_of("m-1", "user-a") is None


@pytest.mark.azurite
async def test_two_replicas_share_the_map_through_table_storage(azurite, table_prefix):  # noqa: F811
    a = TableMessageRecords(azurite.connection_string, table_prefix=table_prefix)
    b = TableMessageRecords(azurite.connection_string, table_prefix=table_prefix)
    await round_trip(DeliveredAnswers(a), DeliveredAnswers(b))


@pytest.mark.azurite
async def test_table_records_expire(azurite, table_prefix):  # noqa: F811
    expired = TableMessageRecords(azurite.connection_string, table_prefix=table_prefix,
                                  retention=timedelta(seconds=-1))
    expired.put("k", "x", {"v": 1})
    assert expired.get("k", "x") is None
    fresh = TableMessageRecords(azurite.connection_string, table_prefix=table_prefix)
    fresh.put("k", "y", {"v": 2})
    assert fresh.get("k", "y") == {"v": 2}
    assert timedelta(days=7) == RETENTION


async def test_the_local_store_survives_a_restart_and_expires(tmp_path):
    path = tmp_path / "records.sqlite"
    await round_trip(DeliveredAnswers(SqliteMessageRecords(path)), DeliveredAnswers(SqliteMessageRecords(path)))
    old = SqliteMessageRecords(path, retention=timedelta(seconds=-1))
    old.put("k", "x", {"v": 1})
    assert old.get("k", "x") is None


async def test_a_store_that_is_down_reads_as_not_found_and_loses_no_answer(tmp_path):
    records = SqliteMessageRecords(tmp_path / "records.sqlite")
    records.close()  # every call now fails
    answers = DeliveredAnswers(records)
    entry = await answers.remember(an_answer(), "C1:1.0", [("C1", "1.1")])
    assert entry.answer.message_id == "m-1"
    assert (await answers.by_message_id("m-1")) is entry  # this process still has it
    answers.forget_cache()
    assert await answers.by_message_id("m-1") is None


def test_the_settings_choose_the_store(tmp_path):
    local = open_message_records(Settings(_env_file=None, data_dir=tmp_path, tables_connection_string=None))
    assert isinstance(local, SqliteMessageRecords) and local.path.parent == tmp_path
