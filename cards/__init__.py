"""Rendering an answer and its sources for a platform: Adaptive Cards (Teams), Block Kit (Slack),
plain text, markdown tables, and text cut to a platform's length limits. Imports `bot.answer`."""
