"""The citation gate: what of a draft answer may reach a user. The sentence stream it releases by,
the support check of each cited sentence (and its judge prompt), claims, citation pages, the
instruction spans an answer may not quote, and the bot's own refusal texts."""
