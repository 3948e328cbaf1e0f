from __future__ import annotations

from indexing.text_repair import repair_line


def test_windows_1252_mojibake_is_repaired_also_when_mixed_with_good_text():
    assert repair_line("Taux de rÃ©munÃ©ration") == "Taux de rémunération"
    assert repair_line("CaractÃ©ristiques du compte, déjà correct") == "Caractéristiques du compte, déjà correct"


def test_pdfium_hyphen_marker_and_spacing():
    assert repair_line("the inter\ufffePSP  elements ") == "the inter-PSP elements"
