"""Generate the sample corpus in examples/rulebooks/: a fictional payment scheme's PDFs and catalog.

The Aurora Payment Scheme (APS) is invented; its documents are written to look and read like real
scheme rulebooks so that retrieval over them means something. Everything is deterministic
(reportlab's invariant mode, fixed dates, seeded randomness for encryption and the scan), so a
re-run reproduces the committed files byte for byte, which tests/corpus checks.

    python scripts/make_sample_corpus.py                  # regenerate examples/rulebooks/
    python scripts/make_sample_corpus.py --out /tmp/x     # generate elsewhere (tests do this)
    python scripts/make_sample_corpus.py --no-readme      # skip README.md (it needs pypdfium2)

Content lives in scripts/sample_corpus_content.py in a small markup (see `parse_markup`).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import random
import re
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
# corpus_readme imports this module by name; run as a script it must not load a second copy.
sys.modules.setdefault("make_sample_corpus", sys.modules[__name__])
import sample_corpus_content as content  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "examples" / "rulebooks"

USER_PASSWORD = "aurora-user-2025"
OWNER_PASSWORD = "aurora-owner-2025"

CHAPTER_LABEL = {"en": "Chapter", "nl": "Hoofdstuk", "fr": "Chapitre"}
ANNEX_LABEL = {"en": "Annex", "nl": "Bijlage", "fr": "Annexe"}
PAGE_LABEL = {"en": "Page", "nl": "Pagina", "fr": "Page"}

# --------------------------------------------------------------------------------------------
# Markup
# --------------------------------------------------------------------------------------------


@dataclass
class Heading:
    level: int  # 0 chapter, 1 section, 2 subsection, 9 unnumbered (KID sections)
    number: str
    title: str
    new_page: bool = False


@dataclass
class Para:
    text: str
    bullet: bool = False


@dataclass
class TableBlock:
    rows: list[list[str]]
    spans: list[tuple[tuple[int, int], tuple[int, int]]]
    grid: bool
    caption: str
    widths: list[float] | None = None
    highlight: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Break:
    pass


Block = Heading | Para | TableBlock | Break

HEADING_RE = re.compile(r"^(#{1,3}) (\S+) (.+)$")


def parse_markup(text: str) -> list[Block]:
    """A tiny markup so documents read like documents in the content module.

    `# 3 Title` chapter (new page), `## 3.2 Title`, `### 3.2.1 Title`, `!! Title` unnumbered
    heading, `!!! Title` unnumbered heading on a new page, `---` page break, `- text` bullet,
    blank line between paragraphs, and tables:

        ::table grid|plain [w=3,5,2] [hl=2:3] Caption
        Head | Head | Head
        Domestic | 0.10 | Refund fee
        ^ | 0.15 | ^            <- `^` merges the cell into the one above, `<` into the one left
        ::end
    """
    blocks: list[Block] = []
    lines = text.strip("\n").splitlines()
    buf: list[str] = []
    bullet = False

    def flush() -> None:
        nonlocal buf, bullet
        if buf:
            blocks.append(Para(" ".join(s.strip() for s in buf), bullet))
        buf = []
        bullet = False

    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        if not line.strip():
            flush()
            continue
        if line.startswith("::table"):
            flush()
            head = line.split()
            kind = head[1]
            widths = None
            highlight: list[tuple[int, int]] = []
            rest = head[2:]
            while rest and (rest[0].startswith("w=") or rest[0].startswith("hl=")):
                opt = rest.pop(0)
                if opt.startswith("w="):
                    widths = [float(x) for x in opt[2:].split(",")]
                else:
                    for pair in opt[3:].split(";"):
                        r, c = pair.split(":")
                        highlight.append((int(r), int(c)))
            caption = " ".join(rest)
            rows: list[list[str]] = []
            while lines[i].strip() != "::end":
                rows.append([c.strip() for c in lines[i].split("|")])
                i += 1
            i += 1
            blocks.append(_table_block(rows, kind == "grid", caption, widths, highlight))
            continue
        if line.strip() == "---":
            flush()
            blocks.append(Break())
            continue
        m = HEADING_RE.match(line)
        if m and not buf:
            flush()
            level = len(m.group(1)) - 1
            blocks.append(Heading(level, m.group(2), m.group(3), new_page=level == 0))
            continue
        if line.startswith("!!"):
            flush()
            new_page = line.startswith("!!!")
            blocks.append(Heading(9, "", line.lstrip("!").strip(), new_page=new_page))
            continue
        if line.startswith("- "):
            flush()
            bullet = True
            buf.append(line[2:])
            continue
        buf.append(line)
    flush()
    return blocks


def _table_block(rows: list[list[str]], grid: bool, caption: str, widths: list[float] | None,
                 highlight: list[tuple[int, int]]) -> TableBlock:
    ncols = max(len(r) for r in rows)
    if any(len(r) != ncols for r in rows):
        raise ValueError(f"ragged table {caption!r}: {rows}")
    owner = {}  # (r, c) -> (r0, c0) of the cell that spans it
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell == "^":
                owner[(r, c)] = owner.get((r - 1, c), (r - 1, c))
            elif cell == "<":
                owner[(r, c)] = owner.get((r, c - 1), (r, c - 1))
    extent: dict[tuple[int, int], tuple[int, int]] = {}
    for (r, c), (r0, c0) in owner.items():
        er, ec = extent.get((r0, c0), (r0, c0))
        extent[(r0, c0)] = (max(er, r), max(ec, c))
    spans = [((c0, r0), (ec, er)) for (r0, c0), (er, ec) in sorted(extent.items())]
    clean = [["" if cell in ("^", "<") else cell for cell in row] for row in rows]
    return TableBlock(clean, spans, grid, caption, widths, highlight)


# --------------------------------------------------------------------------------------------
# Documents
# --------------------------------------------------------------------------------------------


@dataclass
class DocSpec:
    file: str
    id: str
    title: str
    type: str
    language: str
    version: str
    status: str
    vetted_on: str | None
    changed_by: str
    body: str
    roles: list[str] = field(default_factory=list)
    withdrawn_on: str | None = None
    isin: str | None = None
    duplicate_of: str | None = None
    series: str | None = None
    in_catalog: bool = True
    mojibake: bool = False
    subtitle: str = ""
    effective: str = ""
    pdf_title: str | None = None  # metadata title differs for the byte-different duplicate
    note: str = ""  # for the README only
    brand: str = "Aurora Payment Scheme"  # cover line and page header
    printed_id: str | None = None  # the id printed on the pages, when the DMS id differs (duplicates)


def mojibake(s: str) -> str:
    """UTF-8 bytes read as Windows-1252: the classic 'rÃ©munÃ©ration'."""
    out = s.encode("utf-8").decode("cp1252")
    return out


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------

BASE = ParagraphStyle("base", fontName="Helvetica", fontSize=10, leading=13.5, spaceAfter=6)
BULLET = ParagraphStyle("bullet", parent=BASE, leftIndent=14, bulletIndent=4, spaceAfter=3)
H0 = ParagraphStyle("h0", parent=BASE, fontName="Helvetica-Bold", fontSize=15, leading=19,
                    spaceBefore=4, spaceAfter=10)
H1 = ParagraphStyle("h1", parent=BASE, fontName="Helvetica-Bold", fontSize=12, leading=15,
                    spaceBefore=8, spaceAfter=5)
H2 = ParagraphStyle("h2", parent=BASE, fontName="Helvetica-Bold", fontSize=10.5, leading=13,
                    spaceBefore=6, spaceAfter=4)
H9 = ParagraphStyle("h9", parent=BASE, fontName="Helvetica-Bold", fontSize=11, leading=14,
                    spaceBefore=8, spaceAfter=5, textColor=colors.HexColor("#12355b"))
CELL = ParagraphStyle("cell", parent=BASE, fontSize=8.5, leading=10.5, spaceAfter=0)
CELL_HEAD = ParagraphStyle("cellh", parent=CELL, fontName="Helvetica-Bold")
CAPTION = ParagraphStyle("caption", parent=BASE, fontName="Helvetica-Oblique", fontSize=8.5,
                         leading=11, spaceBefore=2, spaceAfter=10)
COVER_SCHEME = ParagraphStyle("cs", parent=BASE, fontName="Helvetica-Bold", fontSize=13,
                              textColor=colors.HexColor("#12355b"), alignment=TA_CENTER,
                              spaceBefore=60)
COVER_TITLE = ParagraphStyle("ct", parent=BASE, fontName="Helvetica-Bold", fontSize=22, leading=28,
                             alignment=TA_CENTER, spaceBefore=18, spaceAfter=10)
COVER_SUB = ParagraphStyle("csub", parent=BASE, fontSize=11, leading=15, alignment=TA_CENTER,
                           spaceAfter=4)


class PageProbe(Flowable):
    """Zero-size flowable that records the page it lands on (headings, tables)."""

    def __init__(self, sink: list, key: tuple) -> None:
        super().__init__()
        self.sink = sink
        self.key = key
        self.width = self.height = 0

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self.sink.append((self.key, self.canv.getPageNumber()))


@dataclass
class RenderLog:
    headings: list[tuple[tuple, int]] = field(default_factory=list)
    tables: list[tuple[tuple, int]] = field(default_factory=list)


def _p(text: str, style: ParagraphStyle, mj: bool, bullet: bool = False) -> Paragraph:
    if mj:
        text = mojibake(text)
    return Paragraph(escape(text), style, bulletText="\u2022" if bullet else None)


def heading_text(h: Heading, lang: str) -> str:
    if h.level == 0:
        label = ANNEX_LABEL[lang] if h.number.isalpha() else CHAPTER_LABEL[lang]
        return f"{label} {h.number} {h.title}"
    if h.level == 9:
        return h.title
    return f"{h.number} {h.title}"


def build_flowables(spec: DocSpec, blocks: list[Block], log: RenderLog) -> list[Flowable]:
    mj = spec.mojibake
    story: list[Flowable] = [
        _p(spec.brand, COVER_SCHEME, mj),
        _p(spec.title, COVER_TITLE, mj),
    ]
    if spec.subtitle:
        story.append(_p(spec.subtitle, COVER_SUB, mj))
    story.append(Spacer(1, 16))
    for i, block in enumerate(blocks):
        if isinstance(block, Heading):
            if block.new_page:
                story.append(PageBreak())
            style = {0: H0, 1: H1, 2: H2, 9: H9}[block.level]
            text = heading_text(block, spec.language)
            # the indexer finds headings line by line: a heading must never wrap
            if stringWidth(text, style.fontName, style.fontSize) > A4[0] - 4 * cm:
                raise ValueError(f"{spec.id}: heading too long for one line: {text!r}")
            probe = PageProbe(log.headings, (block.level, block.number, block.title))
            story.append(KeepTogether([probe, _p(text, style, mj)]))
        elif isinstance(block, Para):
            story.append(_p(block.text, BULLET if block.bullet else BASE, mj, block.bullet))
        elif isinstance(block, Break):
            story.append(PageBreak())
        else:
            story.append(_render_table(block, mj, PageProbe(log.tables, (i, block.caption))))
    return story


def _render_table(t: TableBlock, mj: bool, probe: PageProbe) -> Flowable:
    data = [[_p(cell, CELL_HEAD if r == 0 else CELL, mj) for cell in row]
            for r, row in enumerate(t.rows)]
    avail = A4[0] - 4 * cm
    ncols = len(t.rows[0])
    weights = t.widths or [1.0] * ncols
    col_widths = [avail * w / sum(weights) for w in weights]
    table = Table(data, colWidths=col_widths, repeatRows=0, hAlign="LEFT")
    style: list[tuple] = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if t.grid:
        style += [("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                  ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dfe7f1"))]
    for start, end in t.spans:
        style.append(("SPAN", start, end))
    for r, c in t.highlight:
        style.append(("BACKGROUND", (c, r), (c, r), colors.HexColor("#f2c14e")))
    table.setStyle(TableStyle(style))
    parts: list[Flowable] = [probe, table]
    if t.caption:
        parts.append(_p(t.caption, CAPTION, mj))
    return KeepTogether(parts)


def render_pdf(spec: DocSpec, blocks: list[Block]) -> tuple[bytes, RenderLog]:
    log = RenderLog()
    buf = io.BytesIO()
    lang = spec.language
    printed_id = spec.printed_id or spec.id
    header = f"{spec.brand} - {printed_id} {spec.title}"
    footer_left = f"{printed_id} version {spec.version}" + (f" - {spec.effective}" if spec.effective else "")
    if spec.mojibake:
        header, footer_left = mojibake(header), mojibake(footer_left)

    def decorate(canv, doc) -> None:  # noqa: ANN001 - reportlab callback signature
        canv.saveState()
        canv.setFont("Helvetica", 7.5)
        canv.setFillColor(colors.HexColor("#555555"))
        canv.drawString(2 * cm, A4[1] - 1.2 * cm, header)
        canv.drawString(2 * cm, 1.1 * cm, footer_left)
        canv.drawRightString(A4[0] - 2 * cm, 1.1 * cm, f"{PAGE_LABEL[lang]} {doc.page}")
        canv.restoreState()

    doc = SimpleDocTemplate(
        buf, pagesize=A4, leftMargin=2 * cm, rightMargin=2 * cm, topMargin=2 * cm,
        bottomMargin=2 * cm, invariant=1, title=spec.pdf_title or spec.title,
        author="Aurora Payment Scheme Secretariat", subject=spec.id, creator="make_sample_corpus.py",
        lang={"en": "en-GB", "nl": "nl-BE", "fr": "fr-BE"}[lang],
    )
    doc.build(build_flowables(spec, blocks, log), onFirstPage=decorate, onLaterPages=decorate)
    return buf.getvalue(), log


# --------------------------------------------------------------------------------------------
# Bad inputs
# --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def seeded_secrets(seed: str) -> Iterator[None]:
    """pypdf draws file ids, keys and AES IVs from `secrets`; seed them so re-runs are identical."""
    rng = random.Random(seed)
    original = secrets.token_bytes
    secrets.token_bytes = lambda n=32: rng.randbytes(n)  # type: ignore[assignment]
    try:
        yield
    finally:
        secrets.token_bytes = original  # type: ignore[assignment]


def encrypt_pdf(pdf: bytes, user_password: str, seed: str) -> bytes:
    import pypdf
    from pypdf.constants import UserAccessPermissions as P

    with seeded_secrets(seed):
        writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(pdf)))
        writer.encrypt(user_password=user_password, owner_password=OWNER_PASSWORD,
                       algorithm="AES-128", permissions_flag=P.PRINT | P.PRINT_TO_REPRESENTATION)
        out = io.BytesIO()
        writer.write(out)
    return out.getvalue()


def corrupt_pdf(pdf: bytes) -> bytes:
    """Keep a plausible beginning, then garble: no header, no xref, no trailer, no objects."""
    rng = random.Random("corrupt")
    head = bytearray(pdf[: len(pdf) * 2 // 5])
    head[0:8] = b"%PFD-9.x"  # a damaged header: no reader recognises the file as a PDF
    for _ in range(len(head) // 16):
        head[rng.randrange(8, len(head))] = rng.randrange(256)
    head = head.replace(b" obj", b" ojb").replace(b"stream", b"strxam").replace(b"/Page", b"/Pxge")
    return bytes(head)


def scanned_pdf(lines: list[str]) -> bytes:
    """A page that is only a picture of text: no text layer at all."""
    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    w, h = 1240, 1754  # A4 at 150 dpi
    img = Image.new("L", (w, h), 250)
    draw = ImageDraw.Draw(img)
    rng = random.Random("scan")
    for _ in range(4000):  # scanner speckle
        draw.point((rng.randrange(w), rng.randrange(h)), fill=rng.randrange(150, 235))
    y = 150
    for line in lines:
        size = 34 if y == 150 else 24
        font = ImageFont.load_default(size=size)
        draw.text((120 + rng.randrange(3), y), line, fill=30, font=font)
        y += 52 if size == 34 else 38
    img = img.rotate(0.6, resample=Image.BICUBIC, fillcolor=250).filter(ImageFilter.SMOOTH)
    png = io.BytesIO()
    img.save(png, format="PNG", optimize=False)
    png.seek(0)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setTitle("Scanned document")
    c.drawImage(ImageReader(png), 0, 0, width=A4[0], height=A4[1])
    c.showPage()
    c.save()
    return buf.getvalue()


# --------------------------------------------------------------------------------------------
# Catalog and validation
# --------------------------------------------------------------------------------------------

CATALOG_HEADER = """\
# catalog.yaml - what the document-management system (DMS) knows about each file in this folder.
# Generated by scripts/make_sample_corpus.py; do not edit by hand (re-run the script instead).
#
# schema_version: 1
# documents: a list, one entry per catalogued file. Fields:
#   file          file name relative to this folder (unique)
#   id            document id (unique in the catalog); the indexer's rulebook_id. Translations and
#                 versions of one rulebook get their own ids (PS-05-NL / PS-05-FR, PS-08 / PS-08-2024)
#   title         document title as the DMS registers it
#   type          rulebook | specification | product_sheet | kid | briefing
#   roles         roles allowed to see the document; [] = every employee may see it
#   status        vetted_active   - vetted and in force: index it
#                 vetted_archived - vetted, withdrawn on `withdrawn_on`: index it, marked archived
#                 draft           - not vetted: quarantine, never index
#   version       the document's version label
#   vetted_on     ISO date the compliance desk vetted this version (null for drafts)
#   withdrawn_on  ISO date the version was withdrawn (archived documents only, else null)
#   language      ISO 639-1 code: en | nl | fr
#   isin          ISIN of the product the document describes (kid / product_sheet), else null
#   series        id of the rulebook this document is a version or copy of (the active id); lets
#                 tools group an archived version with its successor
#   duplicate_of  id of the active document this file duplicates (same text, different file);
#                 a duplicate is not indexed but is listed by the inventory for audit; else null
#   changed_by    who last changed the document in the DMS (goes into the indexer's audit log)
#
# A PDF in this folder without an entry here has unknown provenance and must be excluded.
# Three catalogued files are deliberately unreadable (corrupt, user-password, scan without text);
# see README.md.
"""


def catalog_entry(spec: DocSpec) -> dict:
    return {
        "file": spec.file,
        "id": spec.id,
        "title": spec.title,
        "type": spec.type,
        "roles": list(spec.roles),
        "status": spec.status,
        "version": spec.version,
        "vetted_on": spec.vetted_on,
        "withdrawn_on": spec.withdrawn_on,
        "language": spec.language,
        "isin": spec.isin,
        "series": spec.series or spec.id,
        "duplicate_of": spec.duplicate_of,
        "changed_by": spec.changed_by,
    }


def write_catalog(specs: list[DocSpec], out: Path) -> None:
    import yaml

    entries = [catalog_entry(s) for s in specs if s.in_catalog]
    body = yaml.safe_dump({"schema_version": 1, "scheme": "Aurora Payment Scheme (APS)",
                           "documents": entries}, sort_keys=False, allow_unicode=True, width=100)
    (out / "catalog.yaml").write_text(CATALOG_HEADER + "\n" + body, encoding="utf-8")


XREF_RE = re.compile(r"(?:Rulebook|Reglement|Règlement) (PS-\d\d(?:-[A-Z]{2})?|KID-[A-Z0-9-]+), "
                     r"(?:section|afdeling|rubrique) (\d+(?:\.\d+)*)")


def section_numbers(blocks: list[Block]) -> set[str]:
    return {b.number for b in blocks if isinstance(b, Heading) and b.level in (0, 1, 2)}


def validate_cross_references(parsed: dict[str, list[Block]]) -> list[tuple[str, str, str]]:
    found = []
    for doc_id, blocks in parsed.items():
        text = " ".join(_block_text(b) for b in blocks)
        for target, sec in XREF_RE.findall(text):
            if target not in parsed:
                raise ValueError(f"{doc_id}: cross-reference to unknown document {target}")
            if sec not in section_numbers(parsed[target]):
                raise ValueError(f"{doc_id}: cross-reference to missing section {target} {sec}")
            found.append((doc_id, target, sec))
    return found


def _block_text(b: Block) -> str:
    if isinstance(b, Para):
        return b.text
    if isinstance(b, Heading):
        return f"{b.number} {b.title}"
    if isinstance(b, TableBlock):
        return " ".join(" ".join(r) for r in b.rows)
    return ""


def isin_is_valid(isin: str) -> bool:
    if not re.fullmatch(r"[A-Z]{2}[A-Z0-9]{9}[0-9]", isin):
        return False
    digits = "".join(str(int(ch, 36)) for ch in isin[:-1])
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return (10 - total % 10) % 10 == int(isin[-1])


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


@dataclass
class Generated:
    spec: DocSpec
    blocks: list[Block]
    log: RenderLog
    pdf: bytes  # the bytes written (possibly encrypted / corrupted)


def generate(out: Path, with_readme: bool = True) -> list[Generated]:
    out.mkdir(parents=True, exist_ok=True)
    specs = [DocSpec(**d) for d in content.documents()]
    generated: list[Generated] = []
    parsed: dict[str, list[Block]] = {}
    for spec in specs:
        if spec.isin and not isin_is_valid(spec.isin):
            raise ValueError(f"invalid ISIN {spec.isin}")
        blocks = parse_markup(spec.body) if spec.body else []
        if spec.id in parsed:
            raise ValueError(f"duplicate id {spec.id}")
        parsed[spec.id] = blocks
        if spec.id == content.SCANNED_ID:
            pdf, log = scanned_pdf(content.SCANNED_LINES), RenderLog()
        else:
            pdf, log = render_pdf(spec, blocks)
        if spec.id == content.CORRUPT_ID:
            pdf = corrupt_pdf(pdf)
        elif spec.id == content.USER_PASSWORD_ID:
            pdf = encrypt_pdf(pdf, USER_PASSWORD, seed=spec.id)
        elif spec.id == content.OWNER_ONLY_ID:
            pdf = encrypt_pdf(pdf, "", seed=spec.id)
        (out / spec.file).write_bytes(pdf)
        generated.append(Generated(spec, blocks, log, pdf))
    validate_cross_references(parsed)
    write_catalog(specs, out)
    if with_readme:
        import corpus_readme  # noqa: PLC0415 - needs pypdfium2, only when writing the guide

        (out / "README.md").write_text(corpus_readme.render(generated, parsed, out), encoding="utf-8")
    return generated


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--no-readme", action="store_true")
    args = ap.parse_args(argv)
    generated = generate(args.out, with_readme=not args.no_readme)
    for g in generated:
        print(f"{hashlib.sha256(g.pdf).hexdigest()[:12]}  {g.spec.file}")
    print(f"{len(generated)} PDFs written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
