"""The web chat (`/chat`): page, server-sent events from `bot.service.ask`, feedback and copies,
and who may use it (`RULEBOOK_WEB_TOKENS`, or loopback only)."""

from adapters.web.chat import add_web_chat
from adapters.web.tokens import WebTokensError, refuse_unprotected_chat

__all__ = ["WebTokensError", "add_web_chat", "chat_address", "refuse_unprotected_chat"]


def chat_address(settings: object) -> str:
    """Where a browser finds the chat on this server."""
    return f"{str(getattr(settings, 'public_base_url', 'http://127.0.0.1:3978')).rstrip('/')}/chat"
