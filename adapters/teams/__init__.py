"""The Teams front end (Microsoft 365 Agents SDK on aiohttp): the endpoint, the streamed answer
and its final card, citations, pacing, places and roles, usage events, the app package."""
