"""Model choice by name: `RULEBOOK_CHAT_MODEL=offline` (default), or "<provider>:<model>".

"<provider>:<model>" goes through LangChain's `init_chat_model`, e.g. `azure_openai:gpt-4o`,
`openai:gpt-4o`, `anthropic:claude-sonnet-4-5`, `ollama:llama3.1`. Provider packages are optional
extras (`pip install 'rulebook-assistant[openai]'`, `[anthropic]`, `[ollama]`); their credentials
and endpoints come from the provider's usual environment variables (OPENAI_API_KEY,
AZURE_OPENAI_ENDPOINT + OPENAI_API_VERSION, ANTHROPIC_API_KEY, OLLAMA_HOST…).
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

OFFLINE = "offline"
_EXTRAS = {"openai": "openai", "azure_openai": "openai", "anthropic": "anthropic", "ollama": "ollama"}


class ChatModelError(ValueError):
    """A model name that cannot be loaded, with what to do about it."""


def load_chat_model(name: str, knowledge: Any = None, *, question_caches: bool = True,
                    **kwargs: Any) -> BaseChatModel:
    """The chat model named `name`. `knowledge` lets the offline model score sentences densely
    (with the search's encoder, so a question's vector is embedded once: knowledge.query_vectors);
    `question_caches=False` keeps no query vector beyond its question (settings.question_caches)."""
    name = (name or OFFLINE).strip()
    if name == OFFLINE:
        from bot.offline.offline_model import OfflineRulebookModel
        from bot.offline.subject_terms import CorpusVocabulary

        encoder = getattr(getattr(knowledge, "searcher", None), "encoder", None)
        kwargs.setdefault("vocabulary", CorpusVocabulary.of(knowledge))  # term rarity: the subject check
        # Not streamed: its reply is planned whole before the first word, so word-by-word chunks
        # only cost LangChain callbacks and a loop wake-up per word (a quarter of the event loop's
        # time at 25 users); the gate takes the text at once and releases the same sentences.
        kwargs.setdefault("disable_streaming", True)
        return OfflineRulebookModel(encoder=encoder, remember_queries=question_caches, **kwargs)
    provider, _, model = name.partition(":")
    if not provider or not model:
        raise ChatModelError(f"chat model {name!r}: use 'offline' or '<provider>:<model>', "
                             "e.g. 'azure_openai:gpt-4o', 'openai:gpt-4o', 'anthropic:…', 'ollama:…'")
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(model, model_provider=provider, **kwargs)
    except ImportError as exc:
        extra = _EXTRAS.get(provider)
        hint = f" (pip install 'rulebook-assistant[{extra}]')" if extra else ""
        raise ChatModelError(f"chat model {name!r} needs its provider package{hint}: {exc}") from exc
    except ValueError as exc:
        raise ChatModelError(f"chat model {name!r}: {exc}") from exc
