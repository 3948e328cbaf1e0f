"""The offline model: answers without any LLM account by quoting the best-scoring spans of what the
search returned, with its rules for cross-references, requests for advice and place names."""
