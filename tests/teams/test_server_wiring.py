"""One aiohttp application for everything: Slack is mounted at /slack/events only when configured,
and the Teams update interval defaults to Teams' one update a second."""

from __future__ import annotations

from config.settings import Settings
from tests.teams.conftest import real_service


def _routes(app) -> set[str]:
    return {resource.canonical for resource in app.router.resources()}


def _build(sample_index, sample_knowledge, tmp_path, **overrides):
    from adapters.server import build_app
    from events.event_log import open_event_log

    settings = sample_index.model_copy(update={"data_dir": tmp_path, **overrides})
    event_log = open_event_log(settings, register_exit=False)
    service = real_service(settings, sample_knowledge, event_log, tmp_path)
    return build_app(settings, service=service, event_sink=event_log), event_log


def test_slack_is_mounted_only_when_its_signing_secret_is_set(sample_index, sample_knowledge, tmp_path):
    without, log_a = _build(sample_index, sample_knowledge, tmp_path / "a")
    with_slack, log_b = _build(sample_index, sample_knowledge, tmp_path / "b",
                               slack_signing_secret="s3cret", slack_bot_token="xoxb-test")
    try:
        for app in (without, with_slack):
            assert {"/api/messages", "/healthz", "/sources/{rulebook_id}"} <= _routes(app)
        assert "/slack/events" not in _routes(without)
        assert "/slack/events" in _routes(with_slack)
    finally:
        log_a.close()
        log_b.close()


def test_teams_updates_default_to_one_a_second():
    assert Settings(_env_file=None).teams_update_interval == 1.0
