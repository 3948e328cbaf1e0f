"""The instruction-text detector lives in `knowledge.instruction_text` (the citation gate uses it too)."""

from knowledge.instruction_text import find_instruction_spans, instruction_sentences  # noqa: F401
