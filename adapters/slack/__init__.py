"""The Slack front end (slack-bolt): slash command, mentions, DMs, AI assistant threads, reactions.

`mount_slack(app, service, settings, event_sink)` adds `POST /slack/events` to the bot's aiohttp
application; `start_socket_mode(service, settings, event_sink)` connects over Socket Mode instead,
and `attach_socket_mode(app, service, settings, event_sink)` does that for the app's lifetime.
"""

from adapters.slack.http import SLACK_EVENTS_PATH, SLACK_FRONT_END, mount_slack
from adapters.slack.socket_mode import SOCKET_MODE_HANDLER, attach_socket_mode, start_socket_mode

__all__ = ["SLACK_EVENTS_PATH", "SLACK_FRONT_END", "SOCKET_MODE_HANDLER", "attach_socket_mode", "mount_slack",
           "start_socket_mode"]
