"""The channel-agnostic assistant: `service.ask()` and the one stream of answer events it yields
(`answer`), the agent (`agent/`), the citation gate (`gate/`), the offline model (`offline/`),
what it remembers (`memory/`), source links and the bot's languages. Imports `knowledge` and
`events`; never a chat platform."""
