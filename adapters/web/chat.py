"""`/chat`: the assistant in a browser, for users without Teams or Slack (and for evaluators).

    GET  /chat                  the page (plain HTML, CSS and one small script; no build step)
    GET  /chat/static/{file}    its script and style sheet
    POST /chat/api/ask          {question, conversation}: the answer as server-sent events —
                                `status` (the agent's steps), `token` (text as the citation gate
                                releases it, with the answer so far rendered), `final` (answer,
                                sources with links to the page view, text for Copy)
    POST /chat/api/feedback     {message_id, conversation, value: positive|negative}
    POST /chat/api/copy         {message_id, conversation}

Every request is checked (`WebAccess`): with `RULEBOOK_WEB_TOKENS`, a token (the `?token=` of
the first visit, then an HttpOnly cookie, or `Authorization: Bearer`); without tokens, loopback
clients only. Source links are signed for the user's roles, so the page view opens exactly what
the user may see. Feedback and copies are the usage events Teams and Slack log, platform "web".
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from pathlib import Path
from typing import Any

from aiohttp import web

from adapters.source_server_links import SourceLinks
from adapters.web.answer_html import answer_html
from adapters.web.tokens import LOCAL_USER_ID, WebTokens, WebUser, is_loopback
from bot.answer import Answer, Citation, FinalEvent, StatusEvent, TokenEvent, User
from cards.plain_answer import answer_plain_text
from events.usage_event import EventSink, PlatformUsage, pseudonymous_user_id

log = logging.getLogger("rulebook.web")

PLATFORM = "web"
STATIC = Path(__file__).with_name("static")
STATIC_TYPES = {"chat.js": "text/javascript", "chat.css": "text/css"}
COOKIE = "rulebook_web"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
MAX_BODY = 16_384
_CONVERSATION = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def _json_error(status: type[web.HTTPException], message: str) -> web.HTTPException:
    return status(text=json.dumps({"error": message}), content_type="application/json")


class WebAccess:
    """Who a request comes from, or a 401/403."""

    def __init__(self, tokens: WebTokens) -> None:
        self.tokens = tokens

    def user(self, request: web.Request) -> WebUser:
        if not self.tokens.configured:
            if not is_loopback(request.remote):
                raise web.HTTPForbidden(text="The web chat answers this machine only (no access tokens are set).")
            return WebUser(LOCAL_USER_ID)
        auth = request.headers.get("Authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else request.cookies.get(COOKIE)
        user = self.tokens.user_for(token)
        if user is None:
            raise web.HTTPUnauthorized(text="Open the chat with the link that carries your access token "
                                            "(/chat?token=…).", headers={"WWW-Authenticate": "Bearer"})
        return user


class WebChat:
    def __init__(self, service: Any, settings: Any, links: SourceLinks, sink: EventSink | None) -> None:
        self._service = service
        self._links = links
        self._key = settings.user_hash_key
        self._access = WebAccess(WebTokens.from_setting(getattr(settings, "web_tokens", None)))
        self._usage = PlatformUsage(sink, settings.user_hash_key, PLATFORM)
        self._secure_cookie = str(settings.public_base_url).startswith("https://")

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/chat", self.page)
        app.router.add_get("/chat/static/{name}", self.static)
        app.router.add_post("/chat/api/ask", self.ask)
        app.router.add_post("/chat/api/feedback", self.feedback)
        app.router.add_post("/chat/api/copy", self.copy)

    # -- pages ---------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        token = request.query.get("token")
        if token and self._access.tokens.configured:
            if self._access.tokens.user_for(token) is None:
                raise web.HTTPUnauthorized(text="This access token is not valid.")
            # the token leaves the address bar (and history) at once; the cookie carries it on
            response = web.HTTPFound("/chat", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})
            response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", secure=self._secure_cookie,
                                path="/", max_age=30 * 24 * 3600)
            raise response
        user = self._access.user(request)
        body = (STATIC / "chat.html").read_text(encoding="utf-8").replace(
            "{{user}}", _escape(user.name or ("you" if user.id == LOCAL_USER_ID else user.id)))
        return web.Response(text=body, content_type="text/html", headers=self._headers())

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_TYPES:
            raise web.HTTPNotFound()
        self._access.user(request)
        return web.Response(text=(STATIC / name).read_text(encoding="utf-8"), content_type=STATIC_TYPES[name],
                            headers={"Cache-Control": "private, max-age=300", "X-Content-Type-Options": "nosniff"})

    @staticmethod
    def _headers() -> dict[str, str]:
        return {"Content-Security-Policy": CSP, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}

    # -- api -----------------------------------------------------------------------------------
    async def _json(self, request: web.Request) -> dict[str, Any]:
        origin = request.headers.get("Origin")
        if origin and origin.split("://", 1)[-1] != request.host:
            raise _json_error(web.HTTPForbidden, "cross-site request")
        if request.content_type != "application/json":
            raise _json_error(web.HTTPUnsupportedMediaType, "send application/json")
        if (request.content_length or 0) > MAX_BODY:
            raise _json_error(web.HTTPRequestEntityTooLarge, "request too large")
        try:
            data = json.loads(await request.text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise _json_error(web.HTTPBadRequest, "not valid JSON") from None
        if not isinstance(data, dict):
            raise _json_error(web.HTTPBadRequest, "expected a JSON object")
        return data

    def _conversation(self, user: WebUser, data: dict[str, Any]) -> str:
        """The browser's conversation id, kept apart per user: one user cannot read another's history."""
        browser_id = str(data.get("conversation", ""))
        if not _CONVERSATION.match(browser_id):
            raise _json_error(web.HTTPBadRequest, "conversation must be 8-64 letters, digits, - or _")
        return f"web:{pseudonymous_user_id(user.id, self._key)[:16]}:{browser_id}"

    async def ask(self, request: web.Request) -> web.StreamResponse:
        user = self._access.user(request)
        data = await self._json(request)
        question = data.get("question")
        if not isinstance(question, str):
            raise _json_error(web.HTTPBadRequest, "question must be text")
        conversation_id = self._conversation(user, data)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no", "X-Content-Type-Options": "nosniff"})
        await response.prepare(request)
        asker = User(id=user.id, roles=user.roles, platform=PLATFORM, name=user.name)
        released: list[str] = []
        try:
            # closed at once if the browser leaves: the agent run is cancelled, not left behind
            async with contextlib.aclosing(self._service.ask(question, asker, conversation_id)) as events:
                async for event in events:
                    if isinstance(event, StatusEvent):
                        await _send(response, "status", {"text": event.text})
                    elif isinstance(event, TokenEvent):
                        released.append(event.text)
                        so_far = "".join(released)
                        await _send(response, "token", {"text": event.text, "html": answer_html(so_far)})
                    elif isinstance(event, FinalEvent):
                        await _send(response, "final", self._final(event.answer, user))
        except (ConnectionResetError, ConnectionError):
            log.info("a browser left before its answer was finished")
            return response
        except Exception as exc:  # the stream must end with something the page can show
            log.exception("answering a web chat question failed")
            self._usage.error(user_id=user.id, conversation_id=conversation_id, message_id="",
                              where="web.ask", error=type(exc).__name__)
            await _send(response, "failure", {"text": "Something went wrong while answering; please try again."})
        await response.write_eof()
        return response

    def _link(self, citation: Citation, user: WebUser, message_id: str) -> str:
        if citation.uri and not self._links.is_own_link(citation.uri):
            return citation.uri  # e.g. a Blob Storage link the service made
        return self._links.for_citation(citation, roles=user.roles, platform=PLATFORM, message_id=message_id)

    def _final(self, answer: Answer, user: WebUser) -> dict[str, Any]:
        links = {c.n: self._link(c, user, answer.message_id) for c in answer.citations}
        sources = [{
            "n": c.n, "title": c.title, "rulebook_id": c.rulebook_id,
            "section": " › ".join(c.section_path) + (f" {c.section_title}" if c.section_title else ""),
            "page": c.page, "url": links[c.n], "quote": c.quote[:400],
            "thumbnail": self._links.thumbnail_for(c, roles=user.roles, local=True) if links[c.n].startswith(
                self._links.base_url) else "",
            "translation_note": c.translation_note or ""} for c in answer.citations]
        return {"message_id": answer.message_id, "outcome": answer.outcome, "reason": answer.reason or "",
                "html": answer_html(answer.text, links.get), "sources": sources,
                "copy_text": answer_plain_text(answer, lambda c: links.get(c.n, c.uri))}

    async def feedback(self, request: web.Request) -> web.Response:
        user = self._access.user(request)
        data = await self._json(request)
        value = data.get("value")
        if value not in ("positive", "negative"):
            raise _json_error(web.HTTPBadRequest, "value must be positive or negative")
        self._usage.feedback(user_id=user.id, conversation_id=self._conversation(user, data),
                             message_id=_message_id(data), value=value, via="button",
                             retracted=bool(data.get("retracted", False)))
        return web.json_response({"ok": True})

    async def copy(self, request: web.Request) -> web.Response:
        user = self._access.user(request)
        data = await self._json(request)
        self._usage.copy(user_id=user.id, conversation_id=self._conversation(user, data),
                         message_id=_message_id(data), via="button")
        return web.json_response({"ok": True})


def _message_id(data: dict[str, Any]) -> str:
    value = str(data.get("message_id", ""))
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", value):
        raise _json_error(web.HTTPBadRequest, "message_id is missing or malformed")
    return value


def _escape(text: str) -> str:
    import html

    return html.escape(text)


async def _send(response: web.StreamResponse, event: str, data: dict[str, Any]) -> None:
    payload = json.dumps(data, ensure_ascii=False)
    await response.write(f"event: {event}\ndata: {payload}\n\n".encode())


def add_web_chat(app: web.Application, service: Any, settings: Any, links: SourceLinks,
                 sink: EventSink | None) -> None:
    if getattr(settings, "web_chat", True):
        WebChat(service, settings, links, sink).add_to(app)
