"""The offline model: answers without any LLM account by quoting the best-scoring spans of what the
search returned, with its rules for cross-references, requests for advice, place names and the kind
of value a question asks for (a refusal when the passages on its topic hold none)."""
