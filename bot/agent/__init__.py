"""The agent: the tool-calling loop over the zoom tools, the chat model it runs on (LLM provider or
the offline model), its system prompt (`prompts/`), and the tool steps it reports as it goes."""
