from pathlib import Path

from config.settings import Settings


def test_settings_read_the_rulebook_prefix(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("RULEBOOK_CHAT_MODEL", "openai:gpt-4o-mini")
    settings = Settings(_env_file=None)
    assert settings.data_dir == tmp_path / "state"
    assert settings.store_dir == tmp_path / "state" / "qdrant"
    assert settings.chat_model == "openai:gpt-4o-mini"


def test_defaults_need_no_account(monkeypatch):
    for key in ("RULEBOOK_DATA_DIR", "RULEBOOK_CHAT_MODEL", "RULEBOOK_QDRANT_URL"):
        monkeypatch.delenv(key, raising=False)
    settings = Settings(_env_file=None)
    assert settings.data_dir == Path(".rulebook")
    assert settings.chat_model == "offline"
    assert settings.qdrant_url is None
