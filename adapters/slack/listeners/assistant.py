"""Slack's AI surfaces for private conversations with the app.

- The agent's Messages tab (Slack's default for AI apps, `agent_view`): opening it
  (`app_home_opened` with `tab == "messages"`) sets suggested prompts built from the rulebooks
  the user may see; every question there is a top-level DM, answered by the DM listener in its own
  thread; `app_context_changed` (what the user is looking at) needs nothing from us.
- Assistant threads (`assistant_view`, headed for deprecation, still supported): a greeting and
  the same suggested prompts when a thread starts; questions in the thread are answered there.

Both answer through `SlackFrontEnd.answer_privately`: the loading state, the agent's steps as a
timeline, the answer streamed, closed by the final blocks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.middleware.assistant.async_assistant import AsyncAssistant
from slack_sdk.errors import SlackApiError

from adapters.slack.listeners.events import asker_teams
from adapters.slack.places import PRIVATE

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd

log = logging.getLogger("rulebook.slack")

GREETING = ("Hi! I answer questions from the rulebooks, and I cite the rulebook, section and page "
            "for every fact. What would you like to know?")
PROMPTS_TITLE = "Ask about a rulebook"
MAX_PROMPTS = 4  # Slack shows at most four
MAX_PROMPT_TITLE = 75
# when the user may see no rulebook at all, or the index cannot be asked
GENERAL_PROMPTS = [
    {"title": "Which rulebooks can I ask about?", "message": "Which rulebooks can I ask about?"},
]


async def suggested_prompts(front: SlackFrontEnd, user_id: str, team_id: str | None) -> list[dict[str, str]]:
    """One prompt per rulebook the user may see (up to three, in the index's order) and one asking
    what there is, looked up with their own roles: a prompt never names a rulebook they could not
    read."""
    knowledge = getattr(front.service, "knowledge", None)
    if knowledge is None or not hasattr(knowledge, "list_rulebooks"):
        return list(GENERAL_PROMPTS)
    try:
        user = await front.user(user_id, (team_id,), PRIVATE)
        rulebooks = await asyncio.to_thread(knowledge.list_rulebooks, user.roles)
    except Exception:
        log.warning("could not list the rulebooks for suggested prompts", exc_info=True)
        return list(GENERAL_PROMPTS)
    prompts: list[dict[str, str]] = []
    for info in rulebooks:
        title = (getattr(info, "title", "") or info.rulebook_id).strip()
        short = title if len(title) <= MAX_PROMPT_TITLE - 10 else title[:MAX_PROMPT_TITLE - 11] + "…"
        prompts.append({"title": f"What {short} covers",
                        "message": f"What does {title} ({info.rulebook_id}) cover, section by section?"})
        if len(prompts) >= MAX_PROMPTS - 1:
            break
    return prompts + GENERAL_PROMPTS if prompts else list(GENERAL_PROMPTS)


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    assistant = AsyncAssistant()

    @assistant.thread_started
    async def thread_started(say: Any, set_suggested_prompts: Any, payload: dict, context: Any) -> None:
        await say(GREETING)
        user_id = (payload.get("assistant_thread") or {}).get("user_id") or context.user_id or ""
        await set_suggested_prompts(prompts=await suggested_prompts(front, user_id, context.team_id),
                                    title=PROMPTS_TITLE)

    @assistant.thread_context_changed
    async def thread_context_changed() -> None:
        # Answers do not depend on which channel the user is looking at: nothing to store.
        return None

    @assistant.user_message
    async def user_message(payload: dict, context: Any) -> None:
        question = " ".join((payload.get("text") or "").split())
        if not question:
            return
        front.answer_privately(question=question, channel=payload["channel"], thread_ts=payload["thread_ts"],
                               user_id=payload.get("user", ""),
                               team_id=context.team_id or payload.get("team"),
                               teams=asker_teams(payload, context))

    app.assistant(assistant)

    @app.event("app_home_opened")
    async def messages_tab_opened(event: dict, context: Any) -> None:
        if event.get("tab") != "messages" or not event.get("channel"):
            return  # the Home tab: nothing published there
        prompts = await suggested_prompts(front, event.get("user", ""), context.team_id)
        try:
            # no thread_ts: in the agent experience the prompts belong to the conversation itself
            await front.client.assistant_threads_setSuggestedPrompts(
                channel_id=event["channel"], prompts=prompts, title=PROMPTS_TITLE)
        except SlackApiError as exc:
            log.warning("could not set the suggested prompts: %s", exc.response.get("error"))

    @app.event("app_context_changed")
    async def app_context_changed() -> None:
        # What the user is looking at does not change what they may read: answers ignore it.
        return None
