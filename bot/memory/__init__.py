"""What the bot remembers: conversation history (in memory or Table Storage), the review queue of
answers a person should look at, and the records of delivered messages."""
