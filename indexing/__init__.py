"""PDF -> chunks in the index: text, tables, sections, metadata, summaries, the lifecycle
inventory, incremental re-indexing, index jobs and the audit log. Imports `knowledge` only."""
