"""The Agents SDK's `StreamingResponse`, with the few choices it does not leave to its caller.

The SDK streams natively (informative updates, `streaminfo` sequencing, the final message with
citations, the AI label and the feedback loop) and, when a stream is stopped early, ends it
with `send_stream_timed_out_notification` and later turns the final message into an edit of
the stopped one. What we set ourselves:
- the interval between updates (the SDK fixes 1 s for Teams; tests run faster);
- the final text: the citation gate may replace what streamed (a blocked draft), so the final
  message carries the answer's text, not the concatenated chunks;
- the citations, built from the answer with Teams' field limits (`adapters.teams.citations`);
- the stream id (the Teams id of the answer, which feedback and reactions refer to).
"""

from __future__ import annotations

from microsoft_agents.hosting.core import StreamingResponse, TurnContext

from adapters.teams.final_message import MessagePart


class AnswerStream(StreamingResponse):
    def __init__(self, context: TurnContext, interval: float) -> None:
        super().__init__(context)
        self._interval = max(0.0, interval)

    @property
    def stream_id(self) -> str | None:
        return self._stream_id

    @property
    def refused(self) -> bool:
        """Teams refused the stream (403: the user stopped it, or streaming is not allowed here)."""
        return self._cancelled

    @property
    def timed_out(self) -> bool:
        return self._stream_timeout_notification_sent

    def set_final(self, part: MessagePart) -> None:
        self._message = part.text
        self._citations = list(part.citations)
        self.set_attachments(list(part.attachments))
        self.set_feedback_loop(part.feedback)
        self.set_generated_by_ai_label(part.ai_generated)
