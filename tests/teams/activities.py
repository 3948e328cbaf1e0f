"""Inbound Teams activities as Teams sends them (the JSON shapes of the Bot Framework protocol)."""

from __future__ import annotations

import itertools
import json
from typing import Any

BOT = {"id": "28:rulebook-bot", "name": "Rulebook"}
USER = {"id": "29:user-anna", "name": "Anna", "aadObjectId": "aad-anna-0001"}
TENANT = {"id": "tenant-1"}
_ids = itertools.count(1)


def _base(service_url: str, conversation: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "channelId": "msteams",
        "serviceUrl": service_url,
        "id": f"in-{next(_ids)}",
        "timestamp": "2026-11-30T10:00:00.000Z",
        "from": USER,
        "recipient": BOT,
        "conversation": conversation,
        "channelData": {"tenant": TENANT},
        "locale": "en-US",
        **extra,
    }


def personal(conversation_id: str = "a:personal-anna") -> dict[str, Any]:
    return {"id": conversation_id, "conversationType": "personal", "tenantId": TENANT["id"]}


def channel(thread: str = "19:general@thread.tacv2;messageid=1700000000000") -> dict[str, Any]:
    return {"id": thread, "conversationType": "channel", "isGroup": True, "tenantId": TENANT["id"]}


def group_chat(conversation_id: str = "19:group-chat@thread.v2") -> dict[str, Any]:
    return {"id": conversation_id, "conversationType": "groupChat", "isGroup": True,
            "tenantId": TENANT["id"]}


def message(service_url: str, text: str, conversation: dict[str, Any] | None = None,
            mention_bot: bool = False) -> dict[str, Any]:
    entities: list[dict[str, Any]] = []
    if mention_bot:
        tag = f"<at>{BOT['name']}</at>"
        text = f"{tag} {text}"
        entities.append({"type": "mention", "text": tag, "mentioned": BOT})
    return _base(service_url, conversation or personal(), type="message", text=text,
                 textFormat="plain", entities=entities or None)


def feedback_invoke(service_url: str, reply_to_id: str, reaction: str = "dislike",
                    comment: str = "The page number is wrong",
                    conversation: dict[str, Any] | None = None) -> dict[str, Any]:
    value = {"actionName": "feedback",
             "actionValue": {"reaction": reaction, "feedback": json.dumps({"feedbackText": comment})}}
    return _base(service_url, conversation or personal(), type="invoke", name="message/submitAction",
                 replyToId=reply_to_id, value=value)


def task_fetch(service_url: str, data: dict[str, Any], reply_to_id: str,
               conversation: dict[str, Any] | None = None) -> dict[str, Any]:
    return _base(service_url, conversation or personal(), type="invoke", name="task/fetch",
                 replyToId=reply_to_id, value={"type": "task/fetch", "data": data,
                                               "context": {"theme": "default"}})


def reaction(service_url: str, reply_to_id: str, added: list[str] = (), removed: list[str] = (),
             conversation: dict[str, Any] | None = None) -> dict[str, Any]:
    extra: dict[str, Any] = {"replyToId": reply_to_id}
    if added:
        extra["reactionsAdded"] = [{"type": r} for r in added]
    if removed:
        extra["reactionsRemoved"] = [{"type": r} for r in removed]
    return _base(service_url, conversation or personal(), type="messageReaction", **extra)
