"""Small PDFs written in the tests with reportlab, so that what they contain is known exactly."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

FEE_ROWS = [
    ["Category", "Channel", "Fee (EUR)", "Refund"],
    ["Domestic", "Card", "0.20", "Refundable within 8 weeks"],
    ["", "Wearable", "0.25", ""],
    ["", "Connected fridge", "0.30", ""],
    ["Cross-border", "Card", "0.45", ""],
    ["", "Wearable", "0.50", ""],
]
# (col, row) -> (col, row): "Domestic" spans rows 1-3, "Cross-border" rows 4-5, "Refund" rows 1-5
FEE_SPANS = [((0, 1), (0, 3)), ((0, 4), (0, 5)), ((3, 1), (3, 5))]


def fee_table() -> Table:
    table = Table(FEE_ROWS)
    style = [("GRID", (0, 0), (-1, -1), 0.8, colors.black), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
    style += [("SPAN", a, b) for a, b in FEE_SPANS]
    table.setStyle(TableStyle(style))
    return table


def write_rulebook(path: Path, sections: dict[str, list[str]], with_fee_table: bool = False,
                   title: str = "Test Rulebook", fee_table_under: tuple[str, ...] = ("3.2",)) -> Path:
    """A rulebook: cover page, then one page per chapter; `sections` maps "1.1 Title" -> paragraphs
    (a key "Chapter 2 Title" opens a chapter on a new page). With `with_fee_table`, the fee
    table follows each section whose heading starts with one of `fee_table_under`."""
    styles = getSampleStyleSheet()
    story: list = [Paragraph(title, styles["Title"]),
                   Paragraph("This rulebook is written by the test suite.", styles["BodyText"])]
    for heading, paragraphs in sections.items():
        if heading.startswith("Chapter"):
            story += [PageBreak(), Paragraph(heading, styles["Heading1"])]
        else:
            story.append(Paragraph(heading, styles["Heading2"]))
        for text in paragraphs:
            story += [Paragraph(text, styles["BodyText"]), Spacer(1, 4)]
        if with_fee_table and heading.startswith(fee_table_under):
            story += [fee_table(), Spacer(1, 8)]
    SimpleDocTemplate(str(path), pagesize=A4, title=title).build(story)
    return path


def lorem(topic: str, sentences: int = 6) -> str:
    return " ".join(f"The {topic} rule number {i} applies to every participant of the scheme."
                    for i in range(sentences))


def write_partly_scanned(path: Path, scanned_pages: set[int], pages: int = 3) -> Path:
    """A document whose `scanned_pages` (1-based) are only an image of text, the rest real text."""
    from PIL import Image, ImageDraw
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    image = Image.new("RGB", (620, 877), "white")
    draw = ImageDraw.Draw(image)
    for row in range(30):
        draw.text((40, 40 + row * 26), f"Scanned line {row}: the adherence terms apply in full.", fill="black")
    pdf = canvas.Canvas(str(path), pagesize=A4)
    width, height = A4
    for number in range(1, pages + 1):
        if number in scanned_pages:
            pdf.drawImage(ImageReader(image), 0, 0, width=width, height=height)
        else:
            text = pdf.beginText(60, height - 80)
            text.textLine(f"{number} Section {number}")
            for line in range(20):
                text.textLine(f"Readable line {line} of page {number}: every participant keeps records.")
            pdf.drawText(text)
        pdf.showPage()
    pdf.save()
    return path
