"""Teams-specific activity entities that botbuilder-core 4.17.1 has no classes for.

msrest serialises an entity by its own `_attribute_map`, so each subclass below lists every key it
writes; a key missing from the map would be silently dropped on the wire.
"""

from __future__ import annotations

from typing import Any, Literal

from botbuilder.schema import Entity

StreamType = Literal["informative", "streaming", "final"]


class StreamInfo(Entity):
    """The `streaminfo` entity of Teams' native streaming (personal chats only).

    The first update carries no stream id (Teams answers with the id of the new activity, which
    becomes the stream id); every later update carries it. `streamSequence` starts at 1, rises by
    one per update and must be absent on the final message.
    """

    _attribute_map = {
        "type": {"key": "type", "type": "str"},
        "stream_id": {"key": "streamId", "type": "str"},
        "stream_type": {"key": "streamType", "type": "str"},
        "stream_sequence": {"key": "streamSequence", "type": "int"},
    }

    def __init__(self, *, stream_type: StreamType, stream_id: str | None = None,
                 stream_sequence: int | None = None, **kwargs: Any) -> None:
        super().__init__(type="streaminfo", **kwargs)
        self.stream_id = stream_id
        self.stream_type = stream_type
        self.stream_sequence = stream_sequence


class AIMessageEntity(Entity):
    """The schema.org `Message` entity: the "AI generated" label and the citations.

    Teams rejects a message with more than one root Message entity, so the label and the
    citations travel together in this one.
    """

    _attribute_map = {
        "type": {"key": "type", "type": "str"},
        "at_type": {"key": "@type", "type": "str"},
        "at_context": {"key": "@context", "type": "str"},
        "at_id": {"key": "@id", "type": "str"},
        "additional_type": {"key": "additionalType", "type": "[str]"},
        "citation": {"key": "citation", "type": "[object]"},
    }

    def __init__(self, *, citation: list[dict[str, Any]] | None = None,
                 ai_generated: bool = True, **kwargs: Any) -> None:
        super().__init__(type="https://schema.org/Message", **kwargs)
        self.at_type = "Message"
        self.at_context = "https://schema.org"
        self.at_id = ""
        self.additional_type = ["AIGeneratedContent"] if ai_generated else None
        self.citation = citation or None
